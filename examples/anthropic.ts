// The README's "Use with model SDKs" Anthropic snippet, run by test/adapters/anthropic.test.ts.
// In your own project import from "omnia-tools" and "omnia-tools/anthropic";
// this example imports the sources so that it runs from a checkout.
import type Anthropic from "@anthropic-ai/sdk";
import { createTurn, type ClientToolRequest, type ClientToolResult, type Identity, type PromptPack, type ToolExecutor } from "../src/index.js";
import { runAnthropicToolUses, toAnthropicToolResults, toAnthropicTools } from "../src/anthropic.js";

/** One user turn over the Messages API: each reply's tool_use blocks are one round of the turn. */
export async function answer(
  anthropic: Anthropic,
  executor: ToolExecutor,
  { pack, prompt, identity }: { pack: PromptPack; prompt: string; identity: Identity },
  messages: Anthropic.MessageParam[],
  askClient: (request: ClientToolRequest) => Promise<ClientToolResult>,
): Promise<string> {
  await executor.refresh(); // mcp and openapi discovery
  const turn = createTurn(executor, { pack, prompt, ctx: { identity, clientToolsAvailable: true } }); // offers pack ∩ served
  for (;;) {
    const tools = toAnthropicTools(turn.tools); // none offered (all excluded): send no `tools` at all
    const reply = await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, ...(tools.length > 0 ? { tools } : {}) });
    messages.push({ role: "assistant", content: reply.content });
    if (reply.stop_reason !== "tool_use") return reply.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    const round = await runAnthropicToolUses(turn, reply); // { markErrors: true } adds is_error to failures
    const answers = await Promise.all(round.pending.map(askClient));
    messages.push({ role: "user", content: [...round.message.content, ...toAnthropicToolResults(answers.map((a) => turn.complete(a)))] });
  }
}
