// The README's "Use with model SDKs" AI SDK snippet, run by test/adapters/ai-sdk.test.ts.
// In your own project import from "omnia-tools" and "omnia-tools/ai-sdk";
// this example imports the sources so that it runs from a checkout.
import { generateText, stepCountIs, type LanguageModel, type ModelMessage } from "ai";
import type { ClientToolRequest, ClientToolResult, Identity, PromptPack, ToolExecutor } from "../src/index.js";
import { clientToolCalls, completeClientToolCalls, responseMessages, toAiSdkTools, turnFailure } from "../src/ai-sdk.js";

/** One user turn: server tools run inside generateText, client tools go to the app's client. */
export async function answer(
  model: LanguageModel,
  executor: ToolExecutor,
  { pack, prompt, identity }: { pack: PromptPack; prompt: string; identity: Identity },
  messages: ModelMessage[],
  askClient: (request: ClientToolRequest) => Promise<ClientToolResult>,
): Promise<string> {
  const tools = await toAiSdkTools(executor, { pack, prompt, ctx: { identity, clientToolsAvailable: true } }); // one per turn; offers pack ∩ served
  for (;;) {
    const result = await generateText({ model, tools, messages, stopWhen: [stepCountIs(10), () => turnFailure(tools) !== undefined] });
    messages.push(...responseMessages(result)); // every step's messages, on ai 6 and ai 7
    if (turnFailure(tools) !== undefined) throw turnFailure(tools);
    const answers = await Promise.all((await clientToolCalls(tools)).map(askClient));
    const reply = completeClientToolCalls(tools, answers); // records each answer through the executor
    if (reply.content.length === 0) return result.text;
    messages.push(reply);
  }
}
