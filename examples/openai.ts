// The README's "Use with model SDKs" OpenAI snippet, run by test/adapters/openai.test.ts.
// In your own project import from "omnia-tools" and "omnia-tools/openai";
// this example imports the sources so that it runs from a checkout.
import type OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { createTurn, type ClientToolRequest, type ClientToolResult, type Identity, type PromptPack, type ToolExecutor } from "../src/index.js";
import { runOpenAiToolCalls, toOpenAiToolMessages, toOpenAiTools } from "../src/openai.js";

/** One user turn over Chat Completions: each assistant message's tool calls are one round of the turn. */
export async function answer(
  openai: OpenAI,
  executor: ToolExecutor,
  { pack, prompt, identity }: { pack: PromptPack; prompt: string; identity: Identity },
  messages: ChatCompletionMessageParam[],
  askClient: (request: ClientToolRequest) => Promise<ClientToolResult>,
): Promise<string> {
  await executor.refresh(); // mcp and openapi discovery
  const turn = createTurn(executor, { pack, prompt, ctx: { identity, clientToolsAvailable: true } }); // offers pack ∩ served
  for (;;) {
    const tools = toOpenAiTools(turn.tools); // none offered (all excluded): send no `tools` at all
    const completion = await openai.chat.completions.create({ model: "gpt-4.1", messages, ...(tools.length > 0 ? { tools } : {}) });
    const message = completion.choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) return message.content ?? "";
    const round = await runOpenAiToolCalls(turn, message);
    const answers = await Promise.all(round.pending.map(askClient));
    messages.push(...round.messages, ...toOpenAiToolMessages(answers.map((a) => turn.complete(a))));
  }
}
