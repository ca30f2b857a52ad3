/**
 * The broker's DecisionResponse (`pkg/policy/broker_contract.go`), decoded the way Go's
 * `json.NewDecoder(resp.Body).Decode(&decision)` decodes it into Omnia's
 * `policy.DecisionResponse` struct. Missing fields keep their zero values.
 * @internal Does not follow semver.
 */
export interface DecisionResponse {
  readonly allow: boolean;
  readonly deniedBy: string;
  readonly message: string;
  readonly mode: string;
  readonly wouldDeny: boolean;
  readonly injectedHeaders: Readonly<Record<string, string>> | null;
}

/**
 * Decodes a decision response body with Go's `encoding/json` rules, so that
 * whatever Omnia's runtime accepts is accepted and whatever it rejects is a
 * transport failure here too:
 * - only the **first** JSON value is read (a `json.Decoder`): bytes after it are
 *   ignored; an empty body is an error (`EOF`);
 * - a top-level `null` decodes to the zero response (so it denies, like `{}`);
 *   any other non-object value is an error;
 * - keys match the struct's fields exactly or **case-insensitively** (Go's
 *   fold: ASCII letters, plus `ſ` → `s` and the Kelvin sign → `k`); unknown keys
 *   are ignored; a later key for the same field wins;
 * - a field of the wrong JSON type is an error; `null` leaves a field as it
 *   was, except that `injectedHeaders: null` clears the map and a `null` header
 *   value becomes `""`.
 *
 * @throws Error `<why>` when Go's decoder would return an error
 * @internal Does not follow semver.
 */
export function decodeDecisionResponse(bytes: Uint8Array): DecisionResponse {
  // ignoreBOM keeps a leading U+FEFF in the text: Go rejects it as an invalid character.
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  const start = skipWhitespace(text, 0);
  if (start === text.length) throw new Error("EOF");
  const first = text[start];
  if (first === "n" && text.startsWith("null", start)) return zeroResponse();
  if (first !== "{") throw new Error(`invalid decision response: expected a JSON object; got ${JSON.stringify(text.slice(start, start + 32))}`);
  const end = objectEnd(text, start);
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end));
  } catch (e) {
    throw new Error(`invalid character in decision response: ${e instanceof Error ? e.message : String(e)}`);
  }
  return fromObject(value as Record<string, unknown>);
}

type Field = "allow" | "deniedBy" | "message" | "mode" | "wouldDeny" | "injectedHeaders";

const FIELDS_BY_FOLDED: ReadonlyMap<string, Field> = new Map(
  (["allow", "deniedBy", "message", "mode", "wouldDeny", "injectedHeaders"] as const).map((f) => [foldName(f), f]),
);

function fromObject(object: Record<string, unknown>): DecisionResponse {
  const out = { allow: false, deniedBy: "", message: "", mode: "", wouldDeny: false, injectedHeaders: null as Record<string, string> | null };
  let typeError: string | undefined;
  const mismatch = (key: string, want: string, got: unknown): void => {
    typeError ??= `cannot unmarshal ${jsonKind(got)} into Go struct field DecisionResponse.${key} of type ${want}`;
  };
  for (const [key, value] of Object.entries(object)) {
    const field = FIELDS_BY_FOLDED.get(foldName(key));
    if (field === undefined || value === null) {
      if (field === "injectedHeaders") out.injectedHeaders = null;
      continue;
    }
    switch (field) {
      case "allow":
      case "wouldDeny":
        if (typeof value === "boolean") out[field] = value;
        else mismatch(field, "bool", value);
        break;
      case "deniedBy":
      case "message":
      case "mode":
        if (typeof value === "string") out[field] = value;
        else mismatch(field, "string", value);
        break;
      case "injectedHeaders": {
        if (typeof value !== "object" || Array.isArray(value)) {
          mismatch(field, "map[string]string", value);
          break;
        }
        // Go decodes into the existing map when there is one.
        const headers = out.injectedHeaders ?? (Object.create(null) as Record<string, string>);
        for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
          if (v === null) headers[name] = "";
          else if (typeof v === "string") headers[name] = v;
          else mismatch(`${field}`, "string", v);
        }
        out.injectedHeaders = headers;
        break;
      }
    }
  }
  // Go keeps decoding after a type mismatch and then returns the first one.
  if (typeError !== undefined) throw new Error(`json: ${typeError}`);
  return out;
}

function zeroResponse(): DecisionResponse {
  return { allow: false, deniedBy: "", message: "", mode: "", wouldDeny: false, injectedHeaders: null };
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (typeof value === "object") return "object";
  return typeof value;
}

/** Go's `encoding/json` field-name fold: ASCII letters upper-cased, other runes to the smallest of their fold set. */
function foldName(name: string): string {
  let out = "";
  for (const ch of name) {
    const c = ch.codePointAt(0) as number;
    if (c >= 0x61 && c <= 0x7a) out += String.fromCharCode(c - 0x20);
    else if (c === 0x17f) out += "S"; // ſ folds with s and S
    else if (c === 0x212a) out += "K"; // the Kelvin sign folds with k and K
    else out += ch;
  }
  return out;
}

function skipWhitespace(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  return i;
}

/**
 * The index just past the object that starts at `start`: Go's decoder stops
 * there. Brackets inside strings are skipped. An object that never closes is
 * `unexpected EOF`. Validity is JSON.parse's job.
 */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      if (i >= text.length) break;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new Error("unexpected EOF");
}
