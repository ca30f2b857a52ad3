import type { Logger } from "../core/index.js";
import { goFormatFloat } from "./go-format.js";
import { newHeaderRecord } from "./header-record.js";
import { OmniaHeader } from "./keys.js";
import { toPascalCase } from "./pascal-case.js";
import { NameCache } from "./name-cache.js";
import { isValidHeaderName, isValidHeaderValue } from "./validity.js";

/**
 * An argument name's `x-omnia-param-<PascalCase>` header: the key, its lower
 * case (for de-duplication), whether it is a legal name, and the last value
 * that passed the header-value check under it (argument values such as an id
 * or a page size repeat from call to call; a repeat needs no second scan).
 */
class ParamKey {
  readonly key: string;
  readonly lower: string;
  readonly valid: boolean;
  last = "";

  constructor(name: string) {
    const key = OmniaHeader.PARAM_PREFIX + toPascalCase(name);
    this.key = key;
    this.lower = key.toLowerCase();
    this.valid = isValidHeaderName(key);
  }

  okValue(value: string): boolean {
    if (value === this.last) return true;
    if (!isValidHeaderValue(value)) return false;
    this.last = value;
    return true;
  }
}

/** Past this many distinct parameter headers, de-duplication switches from a list to a Map. */
const SHORT_LIST = 16;

/** Argument name → its `x-omnia-param-<PascalCase>` header. */
function paramKey(name: string): ParamKey {
  return new ParamKey(name);
}

/** The memo of {@link paramKey} for the names of typical calls (which repeat from call to call). */
const PARAM_KEYS = new NameCache<ParamKey>(paramKey);

/**
 * Past this many arguments in one call the memo is bypassed: such names rarely repeat, and a
 * memo that fills and empties every 512 names is one more hash table per key to grow and miss.
 */
const MEMO_ARGS = 64;

/**
 * Options of the header builders.
 * @public
 */
export interface HeaderBuildOptions {
  /** Receives one line per skipped entry (names only, never values). Default: discard. */
  logger?: Logger | undefined;
}

/**
 * The tool-call arguments as a plain object, or `undefined` when they are not
 * one. A string is JSON text (as the model produced it) and is parsed; a
 * string that is not JSON, or JSON that is not an object, gives `undefined`.
 * @internal Does not follow semver.
 */
export function argsObject(args: unknown): Record<string, unknown> | undefined {
  let v = args;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
  return v as Record<string, unknown>;
}

/**
 * Omnia's `PromoteScalarParams` (contract 1.9.0): one
 * `x-omnia-param-<PascalCase(name)>` header per top-level scalar argument.
 * - `args` is the tool call's arguments: JSON text or a parsed value. Anything
 *   that is not a JSON object (an array, a string, invalid JSON, nothing) gives `{}`.
 * - Strings are sent as they are (an empty string gives an empty value);
 *   booleans as `true`/`false`; numbers in Go `%g` ({@link goFormatFloat}:
 *   `1000000` → `1e+06`). null, arrays and objects are skipped.
 * - A value that is not a valid header value (CR, LF, NUL or another control
 *   character except TAB) is skipped, as 1.9.0 does; 1.3.0 failed the request.
 * - A name whose PascalCase form is not a valid header name (`with space`,
 *   `ñame`) is skipped.
 * - Names that land on the same header case-insensitively (`user_id`,
 *   `userId`, `UserID`) resolve deterministically: the later argument wins.
 *
 * Keys keep their PascalCase (`x-omnia-param-CustomerId`); Go's HTTP client
 * sends them MIME-canonicalised (`X-Omnia-Param-Customerid`), which is the
 * same header. Never used on a gRPC tool call.
 * @public
 */
export function promoteScalarParams(args: unknown, options?: HeaderBuildOptions): Record<string, string> {
  const obj = argsObject(args);
  if (obj === undefined) return {};
  const out = newHeaderRecord();
  putScalarParams(out, obj, options?.logger);
  return out;
}

/**
 * {@link promoteScalarParams} of an arguments object, written into `out`
 * (which holds no `x-omnia-param-*` key yet).
 * @internal Does not follow semver.
 */
export function putScalarParams(out: Record<string, string>, obj: Record<string, unknown>, logger: Logger | undefined): void {
  // The written list (lower-cased header name -> the key written for it) lives
  // in two scratch arrays reused from call to call; a call that starts while
  // another is running (a logger that builds headers) takes its own.
  if (scratchBusy) {
    putScalarParamsInto(out, obj, logger, [], []);
    return;
  }
  scratchBusy = true;
  try {
    putScalarParamsInto(out, obj, logger, SCRATCH_LOWERS, SCRATCH_KEYS);
  } finally {
    scratchBusy = false;
  }
}

const SCRATCH_LOWERS: string[] = [];
const SCRATCH_KEYS: string[] = [];
let scratchBusy = false;

function putScalarParamsInto(
  out: Record<string, string>,
  obj: Record<string, unknown>,
  logger: Logger | undefined,
  lowers: string[],
  keys: string[],
): void {
  // Lower-cased header name -> the key written for it: the first `listed`
  // entries of the two arrays while there are few (cheaper than a Map for a
  // typical call), a Map past SHORT_LIST entries, so that lookups stay linear overall.
  let listed = 0;
  let written: Map<string, string> | undefined;
  let seen = 0;
  for (const name in obj) {
    if (!Object.prototype.hasOwnProperty.call(obj, name)) continue;
    const v = obj[name];
    let s: string;
    // Only a string can hold a character a header value may not: a number's
    // or a boolean's text is digits, letters, '.', '+' and '-'.
    let text = false;
    if (typeof v === "string") {
      s = v;
      text = true;
    } else if (typeof v === "number") s = goFormatFloat(v);
    else if (typeof v === "boolean") s = v ? "true" : "false";
    else continue;
    const param = ++seen <= MEMO_ARGS ? PARAM_KEYS.get(name) : paramKey(name);
    if (!param.valid) {
      logger?.debug("headers: skipped a parameter header with an invalid name", { header: param.key });
      continue;
    }
    if (text && !param.okValue(s)) {
      logger?.debug("headers: skipped a parameter header with an invalid value", { header: param.key });
      continue;
    }
    // Case-insensitive de-duplication: the later argument wins.
    const lower = param.lower;
    if (written !== undefined) {
      const prior = written.get(lower);
      if (prior !== undefined && prior !== param.key) delete out[prior];
      written.set(lower, param.key);
    } else {
      let at = 0;
      while (at < listed && lowers[at] !== lower) at++;
      if (at < listed) {
        delete out[keys[at]!];
        keys[at] = param.key;
      } else if (listed < SHORT_LIST) {
        lowers[listed] = lower;
        keys[listed] = param.key;
        listed++;
      } else {
        written = new Map();
        for (let i = 0; i < listed; i++) written.set(lowers[i]!, keys[i]!);
        written.set(lower, param.key);
      }
    }
    out[param.key] = s;
  }
}
