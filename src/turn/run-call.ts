// One call through the stage, in PromptKit's order (registry.go ExecuteAsync,
// stages_provider.go executeSingleToolCall): look the tool up by exact name →
// coerce the arguments → validate them (a failure sends nothing and counts
// against no breaker: the executor is never called) → execute → validate the
// result against the output schema → render the outcome as the model's text.
import { goQuote, isOmniaToolsError, toError, type JsonValue, type Logger } from "../core/index.js";
import type { ClientToolRequest } from "../client-tools/index.js";
import { coerceArguments, coercionPossible } from "./coerce.js";
import { validateArguments, validateResult } from "./validate.js";
import { limitResultSize, renderToolResult } from "./format.js";
import { applyResultBudget, type ResultBudget } from "./result-budget.js";
import { GoNumber, readGoJson } from "./schema-json.js";
import type { CatalogEntry, ToolCatalog } from "./tool-catalog.js";
import { canonicalArgs } from "./guards.js";
import type { TurnApprovalRequest, TurnExecuteHooks, TurnExecutor, TurnMessage, TurnOutcome, TurnRoundSpan } from "./types.js";

/** What one call of a round came to. @internal Does not follow semver. */
export type CallResult =
  | { readonly kind: "message"; readonly message: TurnMessage }
  | { readonly kind: "pending"; readonly request: ClientToolRequest }
  /** A server call the approval gate holds for a person; `text` is the model's arguments. */
  | { readonly kind: "approval"; readonly request: TurnApprovalRequest; readonly text: string }
  /** A client call in a round the identical-call guard interrupted: PromptKit drops it. */
  | { readonly kind: "dropped" }
  /** The executor threw an OmniaToolsError (the host's signal, a closed executor): the round rejects with it. */
  | { readonly kind: "thrown"; readonly error: unknown };

/** What a call needs from its turn. @internal Does not follow semver. */
export interface CallDeps<Context> {
  readonly executor: TurnExecutor<Context>;
  readonly ctx: Context | undefined;
  readonly catalog: ToolCatalog;
  readonly maxResultBytes: number;
  readonly logger: Logger;
  /** The approval gate: the request that holds a call, or undefined to run it. Absent: no gate. */
  readonly approval?: ((call: { readonly id: string; readonly name: string; readonly text: string }) => TurnApprovalRequest | undefined) | undefined;
  /** The result budget of a tool, when the turn has one for it. Absent: no budget. */
  readonly budget?: ((name: string) => ResultBudget | undefined) | undefined;
  /** The span of the round running now, if the executor opened one (set by the turn for each round). */
  round?: TurnRoundSpan | undefined;
}

const REJECTED = "Tool rejected: ";

/**
 * The most of a formatted result a result budget reads, in UTF-8 bytes
 * (16 MiB): a longer one is cut here first, PromptKit's way, and its budget
 * then sees text that is no longer JSON (`json-aware` gives `head+tail`).
 * @internal Does not follow semver.
 */
export const BUDGET_RENDER_BYTES = 16 * 1_048_576;

/** The arguments text of a call: the model's text, or the JSON text of a parsed value. @internal Does not follow semver. */
export function argumentsText(args: string | JsonValue): string {
  if (typeof args === "string") return args;
  return JSON.stringify(args) ?? "";
}

/**
 * Runs one call: the checks at once, then (when they pass) the executor.
 * Never throws or rejects for a fault of the call: every failure is the
 * call's message, and an executor's OmniaToolsError comes back as `thrown`.
 * A call that fails its checks is answered without a promise; only what
 * the executor's result needs is kept while it runs.
 * @param dropClient - the round is an identical-call nudge: a client call that passes the checks is dropped
 * @param approved - a person approved the call (`edited`: with changed arguments): the gate is not asked again, and the record says so
 * @internal Does not follow semver.
 */
export function runCall<Context>(call: { readonly id: string; readonly name: string; readonly text: string }, deps: CallDeps<Context>, dropClient: boolean, approved?: "approved" | "edited"): CallResult | Promise<CallResult> {
  const { id, name, text } = call;

  const entry = deps.catalog.lookup(name);
  if (entry === undefined) return messageResult(id, name, `Error: tool not found: ${name}`, true);

  // PromptKit asks its gate before the registry runs (and validates) the call; only served server tools are held.
  const gate = deps.approval;
  if (gate !== undefined && approved === undefined && entry.descriptor !== undefined && !entry.client) {
    const request = gate(call);
    // Held in a nudge round too: PromptKit's gate has stored the call before that path drops its result.
    if (request !== undefined) return { kind: "approval", request, text };
  }

  let args = text;
  const schema = entry.schemaJson;
  if (schema !== undefined && schema.length > 0) {
    // Read once for validation; coercion, which decodes the arguments its own way, runs only where it may change them.
    const read = text.length !== 0 && text !== "null" ? readGoJson(text, "decoder") : undefined;
    if (read !== undefined && read.ok && coercionPossible(schema, read.value)) {
      const coerced = coerceArguments(schema, text);
      if (coerced.changed && !coerced.aborted) args = coerced.text;
    }
    const check = validateArguments(name, schema, args, args === text ? read : undefined);
    if (!check.ok) return messageResult(id, name, `Error: ${check.error}`, true);
  }

  // A pack tool that no handler serves keeps PromptKit's "local" mode, whose SDK executor has no handler for it.
  if (entry.descriptor === undefined) {
    const bad = goObjectDecodeError(args);
    return messageResult(id, name, `Tool execution failed: ${bad === undefined ? `no handler registered for tool: ${name}` : `failed to parse tool arguments: ${bad}`}`, true);
  }

  let sent = args;
  if (entry.client) {
    // The SDK's client executor decodes the arguments into an object before deferring to the caller.
    const bad = goObjectDecodeError(args);
    if (bad !== undefined) return messageResult(id, name, `Tool execution failed: failed to parse client tool arguments: ${bad}`, true);
    if (dropClient) return { kind: "dropped" };
    // The client's ToolCall carries the model's own arguments, not the coerced ones.
    sent = text;
  }

  return executeCall(id, name, text, sent, entry, deps, approved);
}

/** The executor's part of a call, and its outcome as the model's message. */
async function executeCall<Context>(id: string, name: string, text: string, sent: string, entry: CatalogEntry, deps: CallDeps<Context>, approved: "approved" | "edited" | undefined): Promise<CallResult> {
  // The executor's record and the model's message show the same rendering of a success.
  const hooks = entry.client ? undefined : new RenderedResult(entry, deps);
  // A client call has no hooks (its record maps nothing), so it is not in the round's span.
  const sentHooks: TurnExecuteHooks | undefined = hooks === undefined || approved === undefined ? hooks : { recordResult: hooks.recordResult, approval: approved, round: deps.round };

  let outcome: TurnOutcome;
  try {
    outcome = await deps.executor.execute({ id, name, arguments: sent }, deps.ctx, sentHooks);
  } catch (e) {
    if (isOmniaToolsError(e)) return { kind: "thrown", error: e };
    // A host executor that throws something else: that call failed, as a Go executor returning an error does.
    return messageResult(id, name, `Tool execution failed: ${toError(e).message}`, true);
  }
  switch (outcome.status) {
    case "success": {
      const out = hooks ?? new RenderedResult(entry, deps);
      out.render(outcome.resultJson);
      return messageResult(id, name, out.content, out.isError);
    }
    case "error":
      return messageResult(id, name, `Tool execution failed: ${outcome.message}`, true);
    case "denied":
      // A client's refusal (or no client to ask) is already `Tool rejected: <reason>` and is no error in
      // PromptKit; a policy denial is an executor error there: `Tool execution failed: tool call denied by policy: …`.
      return outcome.message.startsWith(REJECTED) ? messageResult(id, name, outcome.message, false) : messageResult(id, name, `Tool execution failed: ${outcome.message}`, true);
    case "client":
      return { kind: "pending", request: clientRequest(outcome.request, name, text) };
    default:
      return messageResult(id, name, `Tool execution failed: unknown outcome status ${JSON.stringify((outcome as { status: unknown }).status)}`, true);
  }
}

/** A call's message. */
function messageResult(callId: string, name: string, content: string, isError: boolean): CallResult {
  return { kind: "message", message: { callId, name, content, isError } };
}

/**
 * A success as the model sees it (the output-schema check, then the
 * formatted text cut at the size limit), kept for the last result text it
 * rendered. It is also the hooks a call hands the executor, so that the
 * call's record holds the same text.
 */
class RenderedResult<Context> implements TurnExecuteHooks {
  /** What the model reads. */
  content = "";
  /** What the record keeps: the content before a result budget cut it. */
  recorded = "";
  isError = false;
  #json: string | undefined;

  constructor(
    private readonly entry: CatalogEntry,
    private readonly deps: CallDeps<Context>,
  ) {}

  /** The round the call runs in (read by the executor when the call's span opens). */
  get round(): TurnRoundSpan | undefined {
    return this.deps.round;
  }

  readonly recordResult = (json: string): JsonValue => {
    this.render(json);
    return this.recorded;
  };

  render(json: string): void {
    if (this.#json === json) return;
    this.#json = json;
    const { entry, deps } = this;
    let bytes = json;
    if (entry.outputSchemaJson !== undefined) {
      const check = validateResult(entry.name, entry.outputSchemaJson, json);
      if (!check.ok) {
        this.content = this.recorded = `Tool execution failed: ${check.error}`;
        this.isError = true;
        return;
      }
      // The bytes that go on: the result as it was, or its Go re-encoding when only that one validated.
      bytes = check.result;
    }
    this.isError = false;
    const budget = deps.budget?.(entry.name);
    if (budget === undefined) {
      // Formatted and cut in one step, so memory stays bounded by the limit however much indentation adds.
      const limited = renderToolResult(bytes, deps.maxResultBytes);
      if (limited.truncated && deps.maxResultBytes > 0) deps.logger.warn("Tool result truncated", { tool: entry.name, size: limited.originalBytes, limit: deps.maxResultBytes });
      this.content = this.recorded = limited.content;
      return;
    }
    // Beyond PromptKit: the host's budget cuts the formatted text (so that json-aware sees whole JSON), and the
    // record keeps what PromptKit would have shown; PromptKit's cut still bounds what the model reads. The text a
    // budget looks at is bounded too: indentation can turn a small answer of deep arrays into hundreds of MiB.
    this.recorded = renderToolResult(bytes, deps.maxResultBytes).content;
    const full = renderToolResult(bytes, BUDGET_RENDER_BYTES).content;
    const budgeted = applyResultBudget(full, budget);
    if (budgeted.cut) deps.logger.warn("Tool result cut to the result budget", { tool: entry.name, size: budgeted.originalBytes, cut: budget.cut ?? "head" });
    const limited = limitResultSize(budgeted.content, deps.maxResultBytes);
    if (limited.truncated && deps.maxResultBytes > 0) deps.logger.warn("Tool result truncated", { tool: entry.name, size: limited.originalBytes, limit: deps.maxResultBytes });
    this.content = limited.content;
  }
}

/**
 * The request to forward: the consent message PromptKit's client executor
 * defers with when the descriptor has none, `Client tool "<name>" awaiting
 * caller fulfillment` (the name Go-quoted; a handler's own
 * `clientConfig.consentMessage` wins), and the arguments as Omnia's ToolCall
 * carries them (message.go): the model's original arguments, Go-encoded.
 */
function clientRequest(request: ClientToolRequest, name: string, original: string): ClientToolRequest {
  const consentMessage = request.consentMessage !== undefined && request.consentMessage !== "" ? request.consentMessage : `Client tool ${goQuote(name)} awaiting caller fulfillment`;
  // Omnia's ToolCall: the model's arguments decoded as an object and Go-encoded (sorted keys, compact), `null` for none.
  const argumentsJson = original.trim() === "null" ? "null" : canonicalArgs(original);
  return request.categories === undefined
    ? { callId: request.callId, name: request.name, argumentsJson, consentMessage }
    : { callId: request.callId, name: request.name, argumentsJson, consentMessage, categories: request.categories };
}

/**
 * Go's error for `json.Unmarshal(args, &map[string]any{})`, or undefined when
 * it succeeds (an object, or `null`): a syntax error (empty text, data after
 * the value), or a value that is not an object.
 * @internal Does not follow semver.
 */
export function goObjectDecodeError(text: string): string | undefined {
  const read = readGoJson(text, "unmarshal");
  if (!read.ok) return read.message;
  const value = read.value;
  if (value === null || value instanceof Map) return undefined;
  const kind = Array.isArray(value) ? "array" : value instanceof GoNumber ? "number" : typeof value === "boolean" ? "bool" : "string";
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}
