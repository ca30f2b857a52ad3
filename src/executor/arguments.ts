import { jsonDepthMessage, jsonTextTooDeep, jsonValueTooDeep, type JsonValue } from "../core/index.js";

type ParsedArgs = { ok: true; value: JsonValue | undefined } | { ok: false; message: string };

/** The default bound on the argument text, in UTF-8 bytes: 10 MiB, as the response read cap. @internal Does not follow semver. */
export const DEFAULT_MAX_ARGUMENT_BYTES = 10 * 1024 * 1024;

/**
 * Arguments as JSON text must parse (empty text means none); a parsed value is
 * taken as is. Either is refused when it is nested deeper than 1 000 levels
 * (no later step can then recurse past the stack), and text larger than
 * `maxBytes` UTF-8 bytes is refused before it is parsed. Each check is linear
 * in the input; text of at most `maxBytes / 3` characters is not measured.
 * @internal Does not follow semver.
 */
export function parseArguments(args: string | JsonValue, maxBytes: number = DEFAULT_MAX_ARGUMENT_BYTES): ParsedArgs {
  if (typeof args !== "string") return jsonValueTooDeep(args) ? { ok: false, message: `JSON ${jsonDepthMessage()}` } : { ok: true, value: args };
  if (args.length * 3 > maxBytes) {
    const bytes = Buffer.byteLength(args, "utf8");
    if (bytes > maxBytes) return { ok: false, message: `arguments of ${bytes} bytes exceed the limit of ${maxBytes} bytes` };
  }
  if (args.trim() === "") return { ok: true, value: undefined };
  if (jsonTextTooDeep(args)) return { ok: false, message: `JSON ${jsonDepthMessage()}` };
  try {
    return { ok: true, value: JSON.parse(args) as JsonValue };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}
