// The AI SDK tool set of one model turn. `ai` is an optional peer dependency:
// only types are imported statically, and `jsonSchema` is loaded when a tool
// set is built, so `omnia-tools/ai-sdk` imports without `ai` installed.
import type { ToolModelMessage, ToolSet } from "ai";
import { importWithPeers, InvalidOptionError, noopLogger, rejectUnknownOptions } from "../core/index.js";
import type { ClientToolRequest, ClientToolResult } from "../client-tools/index.js";
import { createTurn, type TurnExecutor, type TurnOptions } from "../turn/index.js";
import { approvalGate, checkApprovalOption } from "../turn/index.js";
import { AiSdkTurn, signalledExecutor } from "./ai-sdk-turn.js";

/**
 * The executor {@link toAiSdkTools} runs on: `createToolExecutor()`'s result
 * fits (`Context` is then its `CallContext`).
 * @public
 */
export interface AiSdkToolExecutor<Context extends AiSdkCallContext = AiSdkCallContext> extends TurnExecutor<Context> {
  /** Runs mcp and openapi discovery (MCP `tools/list`, the OpenAPI spec fetch). */
  refresh(): Promise<void>;
}

/**
 * What the tool set needs of the executor's per-call context (`CallContext`
 * fits): its signal, beside which each call gets the AI SDK's `abortSignal`.
 * @public
 */
export interface AiSdkCallContext {
  readonly signal?: AbortSignal;
}

/**
 * Options of {@link toAiSdkTools}: the turn's options (`createTurn`) plus
 * discovery. `ctx` is the request's context (identity, signal, conversation,
 * `clientToolsAvailable`), passed to every call of the turn.
 * @public
 */
export interface AiSdkToolsOptions<Context extends AiSdkCallContext = AiSdkCallContext> extends Omit<TurnOptions<Context>, "resume" | "approval"> {
  /**
   * Runs `executor.refresh()` first, so that mcp and openapi tools are
   * offered. A failed discovery is logged (`warn`) and the tools that are
   * served are offered. Default true; pass false when the host refreshes on
   * its own schedule.
   */
  readonly refresh?: boolean;
  /**
   * The turn's approval gate, through the AI SDK's own flow: each server tool
   * the gate holds a call of gets `needsApproval`, so `generateText` and
   * `streamText` stop with a `tool-approval-request` and run the call only
   * after the app sends an approving `tool-approval-response` (its record then
   * says `approval: "approved"`). A denied call is answered by the AI SDK
   * itself (its `execution-denied` result), never reaches the executor and is
   * not recorded. The AI SDK has no approve-with-edits, no hold reason or
   * message, and no `resume`: its messages carry the state. It trusts the
   * message history it is given with approvals; with `ai` 7, sign the
   * requests (`experimental_toolApprovalSecret`).
   */
  readonly approval?: TurnOptions<Context>["approval"];
}

const KNOWN_OPTIONS = new Set(["pack", "prompt", "ctx", "maxParallelCalls", "maxResultBytes", "repeatThreshold", "maxRounds", "logger", "promptkit", "maxToolCalls", "approval", "resultBudget", "refresh"]);

interface AiModule {
  jsonSchema(schema: unknown): unknown;
}

const states = new WeakMap<object, AiSdkTurn>();

/**
 * An AI SDK `ToolSet` of exactly the tools the model may be offered, over one
 * `createTurn` turn: discovery first (`executor.refresh()`), then the turn's
 * `tools` (with a `pack`, the prompt's tools that are served plus the served
 * tools of the implicit namespaces; each with the pack's schema where the pack
 * defines the tool).
 *
 * **One tool set is one model turn.** Build it per user message (its `ctx`
 * carries that request's identity and signal) and pass it to every
 * `generateText`/`streamText` call of that turn, including the calls that
 * resume after a client tool. Each AI SDK step is one round of the turn: the
 * step's calls are collected (through each tool's `onInputAvailable`, in the
 * model's order) and run together, so the turn's parallel limit
 * (`maxParallelCalls`), identical-call guard and round limit hold across the
 * AI SDK's parallel `execute` calls. Under `streamText`, calls that arrive
 * together form a round; a call arriving after its step's round started runs
 * in the next round.
 *
 * Server and platform tools get an `execute` that resolves to the stage's
 * exact text (`Tool execution failed: HTTP 503: down`, the formatted and
 * size-limited result, `Error: tool <name> validation error (args_invalid): …`),
 * never a stack trace; each call runs with the AI SDK's `toolCallId` as its
 * id and the AI SDK's `abortSignal` beside `ctx.signal`. Where PromptKit
 * fails the turn (a persisting loop, the round limit) the round's `execute`
 * calls reject with the `TurnError`, which the AI SDK hands the model as a
 * tool error; {@link turnFailure} reports it, e.g. as a stop condition.
 *
 * Client tools have no `execute`: the AI SDK hands the call back to the app
 * (`result.toolCalls`). They reach the client only with
 * `ctx.clientToolsAvailable: true`; without it the executor refuses them
 * (`Tool rejected: no client available to execute client-side tools`). {@link clientToolCalls} lists them as the client
 * should see them, and {@link completeClientToolCalls} turns the client's
 * answers into the tool message for the next call.
 *
 * A call the AI SDK cannot parse itself (an unknown tool name, arguments that
 * are not JSON) never reaches the tools: the AI SDK answers it.
 *
 * @example
 * ```ts
 * const tools = await toAiSdkTools(executor, { pack, ctx: { identity } });
 * const result = await generateText({ model, tools, messages, stopWhen: [stepCountIs(10), () => turnFailure(tools) !== undefined] });
 * ```
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for an unknown option or what `createTurn` refuses
 * @throws MissingPeerError (`ERR_OMNIA_MISSING_PEER`) when the `ai` package is not installed:
 *   `toAiSdkTools needs packages that are not installed: npm install ai`
 * @public
 */
export async function toAiSdkTools<Context extends AiSdkCallContext>(executor: AiSdkToolExecutor<Context>, options: AiSdkToolsOptions<Context> = {}): Promise<ToolSet> {
  if (options === null || typeof options !== "object") throw new InvalidOptionError(`toAiSdkTools: options must be an object; got ${options === null ? "null" : typeof options}`);
  rejectUnknownOptions("toAiSdkTools", options, KNOWN_OPTIONS);
  if (executor === null || typeof executor !== "object" || typeof (executor as Partial<AiSdkToolExecutor<Context>>).refresh !== "function") {
    throw new InvalidOptionError("toAiSdkTools: executor must be a tool executor (createToolExecutor()) with refresh, execute, completeClientCall and tools");
  }
  const { refresh = true, approval, ...turnOptions } = options;
  checkApprovalOption(approval);
  const clientNames = new Set<string>();
  // The AI SDK holds and resumes approved calls itself; the turn runs them when it does.
  const state = new AiSdkTurn(clientNames, approvalGate(approval, options.logger ?? noopLogger));
  const turn = createTurn<Context>(signalledExecutor(executor, state), turnOptions);
  state.attach(turn);
  const ai = (await importWithPeers(() => import("ai"), "toAiSdkTools", ["ai"])) as unknown as AiModule;
  if (refresh) {
    try {
      await executor.refresh();
    } catch (e) {
      (options.logger ?? noopLogger).warn("tool discovery failed; offering the tools that are served", { error: e instanceof Error ? e.message : String(e) });
    }
  }
  const execution = new Map(executor.tools.map((d) => [d.name, d.execution]));
  const tools: Record<string, unknown> = {};
  for (const t of turn.tools) {
    const client = execution.get(t.name) === "client";
    if (client) clientNames.add(t.name);
    const collect = (o: { input: unknown; toolCallId: string; abortSignal?: AbortSignal | undefined }): void => void state.collect(o.toolCallId, t.name, o.input, o.abortSignal);
    tools[t.name] = client
      ? { type: "dynamic", description: t.description, inputSchema: ai.jsonSchema(t.inputSchema), onInputAvailable: collect }
      : {
          type: "dynamic",
          description: t.description,
          inputSchema: ai.jsonSchema(t.inputSchema),
          onInputAvailable: collect,
          execute: (input: unknown, o: { toolCallId: string; abortSignal?: AbortSignal | undefined }) => state.result(o.toolCallId, t.name, input, o.abortSignal),
          ...(approval === undefined ? {} : { needsApproval: (input: unknown, o: { toolCallId: string }) => state.needsApproval(o.toolCallId, t.name, input) }),
        };
  }
  states.set(tools, state);
  return tools as ToolSet;
}

function stateOf(tools: ToolSet, where: string): AiSdkTurn {
  const state = states.get(tools);
  if (state === undefined) throw new InvalidOptionError(`${where}: tools must be a tool set from toAiSdkTools()`);
  return state;
}

/**
 * The client calls of the tool set's turn awaiting the app's client, in call
 * order, after every call collected so far has run: each with the consent
 * message (`Client tool "<name>" awaiting caller fulfillment`, or the
 * handler's own), its categories, and the model's arguments Go-encoded, as
 * Omnia forwards them. A handed-back call that failed the stage's checks is
 * not listed: its result is already the error text, which
 * {@link completeClientToolCalls} includes.
 * @throws InvalidOptionError when `tools` is not from {@link toAiSdkTools}
 * @public
 */
export function clientToolCalls(tools: ToolSet): Promise<readonly ClientToolRequest[]> {
  return stateOf(tools, "clientToolCalls").clientCalls();
}

/**
 * The tool message that answers the handed-back calls, to append after the
 * AI SDK's `response.messages` before the next `generateText` call: a
 * `tool-result` part (text output) per handed-back call that failed the
 * stage's checks, then one per client answer, in the order given, each
 * recorded through `executor.completeClientCall()` with the text the model
 * sees (the client's result re-encoded as Go does, `Tool rejected: <reason>`
 * for a refusal).
 * @throws UnknownClientCallError for an answer to a call that is not pending (before any answer is recorded); InvalidOptionError when `tools` is not from {@link toAiSdkTools} or `results` is not an array
 * @public
 */
export function completeClientToolCalls(tools: ToolSet, results: readonly ClientToolResult[]): ToolModelMessage {
  const state = stateOf(tools, "completeClientToolCalls");
  if (!Array.isArray(results)) throw new InvalidOptionError(`completeClientToolCalls: results must be an array of ClientToolResult; got ${results === null ? "null" : typeof results}`);
  const parts = state.complete(results);
  return {
    role: "tool",
    content: parts.map((p) => ({ type: "tool-result", toolCallId: p.callId, toolName: p.name, output: { type: "text", value: p.content } })),
  };
}

/**
 * The error that ended the tool set's turn (a `TurnError` where PromptKit
 * fails the turn: a persisting loop, the round limit), or undefined. As an AI
 * SDK stop condition: `stopWhen: [stepCountIs(10), () => turnFailure(tools) !== undefined]`.
 * @throws InvalidOptionError when `tools` is not from {@link toAiSdkTools}
 * @public
 */
export function turnFailure(tools: ToolSet): unknown {
  return stateOf(tools, "turnFailure").failed;
}

/**
 * The names the turn offers now, for the AI SDK's `activeTools` (a tool
 * leaves after its second failed result in the turn, as in PromptKit):
 * `prepareStep: () => ({ activeTools: offeredToolNames(tools) })`.
 * @throws InvalidOptionError when `tools` is not from {@link toAiSdkTools}
 * @public
 */
export function offeredToolNames(tools: ToolSet): string[] {
  return stateOf(tools, "offeredToolNames").turn.tools.map((t) => t.name);
}

/**
 * Every message one `generateText` (or `streamText`) call added, over all its
 * steps: the assistant's tool calls, the tool results and the final text,
 * to append to the conversation's history. The AI SDK changed where they are:
 * `ai` 6's `result.response.messages` holds every step's, `ai` 7's holds the
 * last step's only and `result.responseMessages` every step's. This reads
 * `responseMessages` when the result has it, else `response.messages`, so the
 * same loop keeps the whole history on both (appending `response.messages`
 * loses the tool messages on `ai` 7; appending each step's duplicates them on `ai` 6).
 * @example
 * ```ts
 * const result = await generateText({ model, tools, messages });
 * messages.push(...responseMessages(result));
 * ```
 * @public
 */
export function responseMessages<Message>(result: { readonly responseMessages?: readonly Message[]; readonly response: { readonly messages: readonly Message[] } }): Message[] {
  return [...(result.responseMessages ?? result.response.messages)];
}
