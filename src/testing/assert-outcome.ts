import { AssertionError } from "node:assert";
import { isDeepStrictEqual } from "node:util";
import type { JsonObject, JsonValue } from "../core/index.js";
import type { ToolCallRecord } from "../records/index.js";
import { lineDiff } from "./line-diff.js";

/**
 * What {@link assertOutcome} checks. Only the fields given are compared, each
 * exactly (deep equality), except `error`, whose given fields (`name`, `code`,
 * `message`) are compared with the outcome's error. A field given as
 * `undefined` must be absent.
 * @public
 */
export interface ExpectedOutcome {
  readonly status?: "success" | "error" | "denied" | "client" | undefined;
  readonly toolName?: string | undefined;
  readonly callId?: string | undefined;
  readonly handlerType?: string | undefined;
  readonly durationMs?: number | undefined;
  readonly result?: JsonValue | undefined;
  readonly resultJson?: string | undefined;
  readonly truncated?: true | undefined;
  readonly message?: string | undefined;
  readonly reason?: string | undefined;
  readonly error?: { readonly name?: string; readonly code?: string; readonly message?: string } | undefined;
  readonly request?: JsonValue | undefined;
}

/**
 * What {@link assertRecord} checks: any fields of a tool-call record; a field
 * given as `undefined` must be absent.
 * @public
 */
export type ExpectedRecord = { readonly [K in keyof ToolCallRecord]?: ToolCallRecord[K] | undefined };

/** Strings longer than this are cut in the printed diff (the comparison uses them whole). */
const SHOWN_STRING_CHARS = 200;

/**
 * A JSON-ready view of an outcome (or any object): an `Error` becomes
 * `{ name, code, message }`, `undefined` and functions are dropped. Handy to
 * print an outcome, whose `error` `JSON.stringify` would turn into `{}`.
 * @public
 */
export function toOutcomeJson(outcome: object): JsonObject {
  return jsonView(outcome) as JsonObject;
}

/**
 * Asserts that an executor outcome matches `expected` (see
 * {@link ExpectedOutcome}). `durationMs` is left out unless `expected` gives it.
 *
 * @throws AssertionError (node:assert's) whose message is a line diff of the
 *   outcome as JSON, `-` expected and `+` actual, with the fields `expected`
 *   does not mention shown as context.
 * @example
 * ```ts
 * assertOutcome(await executor.execute(call), { status: "error", message: "HTTP 503: Service Unavailable", error: { code: "ERR_OMNIA_HTTP_STATUS" } });
 * // AssertionError: assertOutcome: the outcome differs (- expected, + actual):
 * //   {
 * // -   "status": "error",
 * // +   "status": "success",
 * //     ...
 * ```
 * @public
 */
export function assertOutcome(actual: { readonly status: string }, expected: ExpectedOutcome, message = "assertOutcome"): void {
  const view = toOutcomeJson(actual);
  if (!("durationMs" in expected)) delete view["durationMs"];
  compare(view, expected as Record<string, unknown>, ["error"], message, "the outcome differs");
}

/**
 * Asserts that a tool-call record matches `expected`: only the fields given
 * are compared, each exactly; a field given as `undefined` must be absent.
 * `startedAt` and `durationMs` are left out unless `expected` gives them.
 * @throws AssertionError with a line diff, as {@link assertOutcome}
 * @public
 */
export function assertRecord(actual: ToolCallRecord | undefined, expected: ExpectedRecord, message = "assertRecord"): void {
  if (actual === undefined) {
    throw new AssertionError({ message: `${message}: expected a record; got undefined`, actual, expected, operator: "assertRecord" });
  }
  const view = toOutcomeJson(actual);
  if (!("startedAt" in expected)) delete view["startedAt"];
  if (!("durationMs" in expected)) delete view["durationMs"];
  compare(view, expected as Record<string, unknown>, [], message, "the record differs");
}

function compare(view: JsonObject, expected: Record<string, unknown>, partialKeys: readonly string[], message: string, what: string): void {
  const wanted: Record<string, unknown> = { ...view };
  let same = true;
  for (const [key, value] of Object.entries(expected)) {
    const got = view[key];
    if (partialKeys.includes(key) && isPlainObject(value) && isPlainObject(got)) {
      const merged = { ...got, ...(jsonView(value) as JsonObject) };
      wanted[key] = merged;
      if (!isDeepStrictEqual(merged, got)) same = false;
      continue;
    }
    if (value === undefined) {
      delete wanted[key];
      if (key in view) same = false;
      continue;
    }
    const want = jsonView(value);
    wanted[key] = want;
    if (!isDeepStrictEqual(want, got)) same = false;
  }
  if (same) return;
  const diff = lineDiff(show(wanted), show(view));
  throw new AssertionError({ message: `${message}: ${what} (- expected, + actual):\n${diff}`, actual: view, expected: wanted, operator: message });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Error);
}

function jsonView(value: unknown): JsonValue | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return { name: value.name, ...(typeof code === "string" ? { code } : {}), message: value.message };
  }
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (Array.isArray(value)) return value.map((v) => jsonView(v) ?? null);
  if (typeof value === "object") {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      const j = jsonView(v);
      if (j !== undefined) out[k] = j;
    }
    return out;
  }
  return undefined;
}

/** Pretty JSON: the top level in its own key order, nested objects with sorted keys, long strings cut. */
function show(value: Record<string, unknown>): string {
  const shown: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) shown[k] = canonical(v);
  return JSON.stringify(shown, null, 2);
}

function canonical(value: unknown): unknown {
  if (typeof value === "string") return value.length > SHOWN_STRING_CHARS ? `${value.slice(0, SHOWN_STRING_CHARS)}… (${value.length} chars)` : value;
  if (Array.isArray(value)) return value.map(canonical);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = canonical(value[k]);
    return out;
  }
  return value;
}
