// The approval gate (PromptKit 1.5.6, e55b9fcd): which server tool calls wait
// for a person, the request a held call becomes, a person's edits merged over
// the model's arguments (59af17e1, `ResolveApproved`), and the snapshot that
// carries held calls to another process (37fc4bdf keeps them in a durable store).
import { goJsonDecode, goJsonEncode, InvalidOptionError, toError, type JsonValue, type Logger } from "../core/index.js";
import { canonicalArgs } from "./guards.js";
import { PROMPTKIT_VERSIONS, type PromptKitVersion } from "./offered.js";
import type { TurnApprovalCall, TurnApprovalHold, TurnApprovalRequest, TurnSnapshot } from "./types.js";

/** The reason of a hold that gives none. @internal Does not follow semver. */
export const DEFAULT_APPROVAL_REASON = "requires_approval";

/** A held call: its request, and the model's own arguments text. @internal Does not follow semver. */
export interface HeldCall {
  readonly request: TurnApprovalRequest;
  readonly text: string;
}

type Gate = (call: { readonly id: string; readonly name: string; readonly text: string }) => TurnApprovalRequest | undefined;

/** A call's arguments as Omnia's ToolCall carries them (and a client request here): Go-encoded, `null` for none. */
function encodedArguments(text: string): string {
  return text.trim() === "null" ? "null" : canonicalArgs(text);
}

/** The request of a held call, with PromptKit's defaults. */
function held(call: { readonly id: string; readonly name: string; readonly text: string }, reason: string, message: string): TurnApprovalRequest {
  return Object.freeze({
    callId: call.id,
    name: call.name,
    argumentsJson: encodedArguments(call.text),
    reason: reason === "" ? DEFAULT_APPROVAL_REASON : reason,
    message: message === "" ? `Tool ${call.name} is awaiting approval` : message,
  });
}

/**
 * The gate of the `approval` option: a list of names, or the host's function.
 * The host's function is a peer like any other: a throw, a promise or a value
 * of the wrong shape holds the call (fail closed) and is logged.
 * @internal Does not follow semver.
 */
export function approvalGate(option: readonly string[] | ((call: TurnApprovalCall) => boolean | TurnApprovalHold | undefined) | undefined, logger: Logger): Gate | undefined {
  if (option === undefined) return undefined;
  if (typeof option !== "function") {
    const names = new Set(option);
    return (call) => (names.has(call.name) ? held(call, "", "") : undefined);
  }
  return (call) => {
    let answer: unknown;
    try {
      answer = option({ id: call.id, name: call.name, arguments: call.text });
      if (answer === true) return held(call, "", "");
      if (answer === false || answer === undefined) return undefined;
      // Each field is read once (a getter or a Proxy could answer differently twice); a trap that throws holds the call.
      if (answer !== null && typeof answer === "object") {
        const { then, reason, message } = answer as { then?: unknown; reason?: unknown; message?: unknown };
        if (typeof then === "function") {
          logger.warn("approval: the gate answered neither a boolean nor { reason?, message? }; the call is held", { tool: call.name, callId: call.id, answer: "a promise (the gate must answer at once)" });
          return held(call, "", "");
        }
        if ((reason === undefined || typeof reason === "string") && (message === undefined || typeof message === "string")) {
          // PromptKit's PendingResult.IsPending: a hold with neither text lets the call run.
          if ((reason ?? "") === "" && (message ?? "") === "") return undefined;
          return held(call, reason ?? "", message ?? "");
        }
      }
    } catch (e) {
      logger.warn("approval: the gate threw; the call is held", { tool: call.name, callId: call.id, error: toError(e).message });
      return held(call, "", "");
    }
    logger.warn("approval: the gate answered neither a boolean nor { reason?, message? }; the call is held", { tool: call.name, callId: call.id, answer: answer === null ? "null" : typeof answer });
    return held(call, "", "");
  };
}

/**
 * The arguments text a person approved: the model's text unchanged without
 * edits; with edits, the model's arguments (an object, else none) with each
 * edited key replaced or added, Go-encoded (sorted keys, compact).
 * @throws InvalidOptionError for edits that are not a plain object of JSON values
 * @internal Does not follow semver.
 */
export function editedArguments(text: string, edits: unknown): { readonly text: string; readonly edited: boolean } {
  try {
    return mergeEdits(text, edits);
  } catch (e) {
    if (e instanceof InvalidOptionError) throw e;
    // A getter or a Proxy trap of the person's edits threw.
    throw new InvalidOptionError(`turn.approve: arguments could not be read: ${toError(e).message}`);
  }
}

function mergeEdits(text: string, edits: unknown): { readonly text: string; readonly edited: boolean } {
  if (edits === undefined) return { text, edited: false };
  if (edits === null || typeof edits !== "object" || Array.isArray(edits)) {
    throw new InvalidOptionError(`turn.approve: arguments must be an object of the keys to change; got ${edits === null ? "null" : Array.isArray(edits) ? "an array" : typeof edits}`);
  }
  const keys = Object.keys(edits);
  // PromptKit: an empty map approves the call as proposed.
  if (keys.length === 0) return { text, edited: false };
  const decoded = text === "" ? undefined : goJsonDecode(text);
  const value = decoded?.ok === true ? decoded.value : undefined;
  const base: Record<string, JsonValue> = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, JsonValue>) : {};
  // Spread copies own keys as data properties, so a key named __proto__ stays a key.
  const merged = { ...base, ...(edits as Record<string, JsonValue>) };
  const encoded = goJsonEncode(merged as never);
  if (encoded === undefined) throw new InvalidOptionError("turn.approve: arguments must hold only JSON values (strings, finite numbers, booleans, null, arrays and plain objects)");
  return { text: encoded, edited: true };
}

const SNAPSHOT_FORMAT = "omnia-tools.turn";

/** A snapshot for `turn.snapshot()`. @internal Does not follow semver. */
export function takeSnapshot(promptkit: PromptKitVersion, toolCalls: number, calls: Iterable<HeldCall>): TurnSnapshot {
  const approvals: (TurnApprovalRequest & { arguments: string })[] = [];
  for (const { request, text } of calls) approvals.push({ ...request, arguments: text });
  return { format: SNAPSHOT_FORMAT, version: 1, promptkit, toolCalls, approvals };
}

/**
 * The held calls and count of a snapshot to resume, checked field by field:
 * it comes back from the host's store, so nothing in it is trusted.
 * @throws InvalidOptionError naming the first field that is wrong
 * @internal Does not follow semver.
 */
export function readSnapshot(snapshot: unknown, promptkit: PromptKitVersion): { readonly toolCalls: number; readonly held: readonly HeldCall[] } {
  try {
    return readSnapshotFields(snapshot, promptkit);
  } catch (e) {
    if (e instanceof InvalidOptionError) throw e;
    // A getter or a Proxy trap of the host's object threw.
    throw new InvalidOptionError(`createTurn: resume must be a snapshot from turn.snapshot(); reading it threw: ${toError(e).message}`);
  }
}

function readSnapshotFields(snapshot: unknown, promptkit: PromptKitVersion): { readonly toolCalls: number; readonly held: readonly HeldCall[] } {
  const bad = (what: string): never => {
    throw new InvalidOptionError(`createTurn: resume must be a snapshot from turn.snapshot(); ${what}`);
  };
  if (snapshot === null || typeof snapshot !== "object" || Array.isArray(snapshot)) return bad(`got ${snapshot === null ? "null" : Array.isArray(snapshot) ? "an array" : typeof snapshot}`);
  const s = snapshot as Record<string, unknown>;
  // Each field read once: a getter cannot pass a check and then answer something else.
  const { format, version, promptkit: taken, toolCalls, approvals } = s;
  if (format !== SNAPSHOT_FORMAT) return bad(`format must be ${JSON.stringify(SNAPSHOT_FORMAT)}`);
  if (version !== 1) return bad(`version ${String(version)} is not one this package reads (1)`);
  if (typeof taken !== "string" || !PROMPTKIT_VERSIONS.includes(taken as PromptKitVersion)) return bad("promptkit must be one of " + PROMPTKIT_VERSIONS.join(", "));
  if (taken !== promptkit) return bad(`it was taken with promptkit ${JSON.stringify(taken)}, and this turn runs ${JSON.stringify(promptkit)}`);
  if (typeof toolCalls !== "number" || !Number.isSafeInteger(toolCalls) || toolCalls < 0) return bad("toolCalls must be a non-negative integer");
  if (!Array.isArray(approvals)) return bad("approvals must be an array");
  const out: HeldCall[] = [];
  const ids = new Set<string>();
  approvals.forEach((a: unknown, i) => {
    if (a === null || typeof a !== "object" || Array.isArray(a)) return bad(`approvals[${i}] must be an object`);
    // Each field read once into a plain record, so a getter cannot answer differently later.
    const r: Record<string, string> = {};
    for (const key of ["callId", "name", "argumentsJson", "reason", "message", "arguments"]) {
      const value = (a as Record<string, unknown>)[key];
      if (typeof value !== "string") return bad(`approvals[${i}].${key} must be a string`);
      r[key] = value;
    }
    const callId = r["callId"]!;
    if (ids.has(callId)) bad(`approvals[${i}].callId ${JSON.stringify(callId)} repeats an earlier one`);
    // What the person is shown must be what runs: argumentsJson is derived from arguments, never trusted apart.
    if (r["argumentsJson"] !== encodedArguments(r["arguments"]!)) bad(`approvals[${i}].argumentsJson does not match approvals[${i}].arguments`);
    ids.add(callId);
    out.push({
      request: Object.freeze({ callId, name: r["name"]!, argumentsJson: r["argumentsJson"]!, reason: r["reason"]!, message: r["message"]! }),
      text: r["arguments"]!,
    });
  });
  return { toolCalls, held: out };
}

/**
 * Checks the `approval` option eagerly.
 * @internal Does not follow semver.
 */
export function checkApprovalOption(option: unknown): void {
  if (option === undefined || typeof option === "function") return;
  if (Array.isArray(option) && option.every((n) => typeof n === "string")) return;
  throw new InvalidOptionError(`createTurn: approval must be a list of tool names or a function (call) => boolean | { reason?, message? }; got ${option === null ? "null" : Array.isArray(option) ? "a list with a non-string entry" : typeof option}`);
}
