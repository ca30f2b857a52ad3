import { createRequire } from "node:module";
import type * as Jmespath from "jmespath";
import type { JsonValue } from "../core/index.js";
import { goJsonMarshal } from "../core/index.js";
import { HttpStatusError, MappingError } from "./errors.js";

/** jmespath, loaded on the first `responseMapping` evaluated, so that importing the package does not load it (CommonJS: `require` gives the instance `import` would). */
let jmespathModule: typeof Jmespath | undefined;
function jmespath(): typeof Jmespath {
  return (jmespathModule ??= createRequire(import.meta.url)("jmespath") as typeof Jmespath);
}

/** Bytes of a non-2xx body kept in the error text; longer bodies get `...`. */
export const ERROR_BODY_MAX_BYTES = 512;

/**
 * The response-shaping fields of an `httpConfig`.
 * @public
 */
export interface HttpResponseShaping {
  /** Top-level keys of a JSON object body whose values become `"[REDACTED]"`. */
  readonly redact?: readonly string[] | undefined;
  /** A JMESPath expression applied to the (redacted) 2xx JSON body. */
  readonly responseMapping?: string | undefined;
}

/**
 * What a response means for the model: a success with the exact JSON text the
 * model sees (`resultJson`) and its parsed value, or an error whose message is
 * the model-visible text.
 * @public
 */
export type HttpInterpretation =
  | { readonly status: "success"; readonly result: JsonValue; readonly resultJson: string; readonly truncated?: true }
  | { readonly status: "error"; readonly message: string; readonly error: HttpStatusError | MappingError };

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Interprets a backend response the way Omnia's runtime does (`internal/runtime/tools/http_client.go`):
 *
 * - 200–299 with a body that is valid JSON (judged on the raw bytes; a BOM
 *   makes it invalid): the body verbatim, unless `redact` (top-level keys,
 *   then re-serialised with sorted keys) or `responseMapping` (JMESPath) is
 *   configured, in that order;
 * - 200–299 with any other body, empty included: `{"result":"<body>"}`, with
 *   no redact or mapping;
 * - any other status: an error `HTTP <status>: <body>`, the body cut at
 *   exactly 512 bytes plus `...` when longer, never parsed.
 *
 * Pure: no I/O. `options.truncated` marks a body cut at the 10 MiB read cap;
 * the success then carries `truncated: true`.
 * @public
 */
export function interpretHttpResponse(
  handler: { readonly httpConfig?: HttpResponseShaping | undefined },
  status: number,
  body: Uint8Array,
  options: { readonly truncated?: boolean; readonly retryAfter?: string | undefined } = {},
): HttpInterpretation {
  if (status < 200 || status > 299) {
    const error = new HttpStatusError(status, errorBodyText(body), options.retryAfter);
    return { status: "error", message: error.message, error };
  }
  const text = utf8.decode(body);
  const flag = options.truncated === true ? ({ truncated: true } as const) : {};
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(text) as JsonValue;
  } catch {
    const result = { result: text };
    return { status: "success", result, resultJson: goJsonMarshal(result), ...flag };
  }
  const config = handler.httpConfig ?? {};
  let value = parsed;
  let rebuilt = false;
  if (config.redact !== undefined && config.redact.length > 0 && isObject(value)) {
    value = redactTopLevel(value, config.redact);
    rebuilt = true;
  }
  if (config.responseMapping !== undefined && config.responseMapping !== "") {
    const mapped = evaluateMapping(config.responseMapping, value, (detail) => `JMESPath response mapping ${JSON.stringify(config.responseMapping)}: ${detail}`);
    if (mapped instanceof MappingError) return { status: "error", message: mapped.message, error: mapped };
    value = mapped;
    rebuilt = true;
  }
  if (!rebuilt) return { status: "success", result: value, resultJson: text, ...flag };
  // The rebuilt text is Go's encoding (a lone surrogate becomes U+FFFD, as Go decodes it): the result is what it says.
  const resultJson = goJsonMarshal(value);
  return { status: "success", result: JSON.parse(resultJson) as JsonValue, resultJson, ...flag };
}

/**
 * The error text of a non-2xx body: whole when at most 512 bytes, else the
 * first 512 bytes (a multi-byte character may be split) followed by `...`.
 * @internal Does not follow semver.
 */
export function errorBodyText(body: Uint8Array): string {
  if (body.byteLength <= ERROR_BODY_MAX_BYTES) return utf8.decode(body);
  return `${utf8.decode(body.subarray(0, ERROR_BODY_MAX_BYTES))}...`;
}

/**
 * Evaluates a JMESPath expression (the original spec, as go-jmespath 0.4.0)
 * and returns the value, `null` for a missing one, or a {@link MappingError}
 * whose message `format` builds from the library's message.
 * @internal Does not follow semver.
 */
export function evaluateMapping(expression: string, data: JsonValue, format: (detail: string) => string): JsonValue | MappingError {
  try {
    const out: unknown = jmespath().search(data, expression);
    if (out === undefined || out === null) return null;
    if (typeof out !== "object") return out as JsonValue;
    // An expression reference (`&expr`) evaluates to the library's AST node, which is not JSON
    // data: a round trip through JSON keeps what Go would marshal and drops the rest.
    return JSON.parse(JSON.stringify(out)) as JsonValue;
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    return new MappingError(format(detail), expression, { cause: e });
  }
}

function isObject(value: JsonValue): value is { [k: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function redactTopLevel(value: { [k: string]: JsonValue }, keys: readonly string[]): { [k: string]: JsonValue } {
  const out: { [k: string]: JsonValue } = { ...value };
  for (const key of keys) if (Object.prototype.hasOwnProperty.call(out, key)) out[key] = "[REDACTED]";
  return out;
}
