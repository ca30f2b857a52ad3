/**
 * The error model: every error this package throws or puts in an outcome is an
 * {@link OmniaToolsError} with a stable `code`.
 *
 * `instanceof` works across duplicate copies of the package (two versions in one
 * `node_modules`): each class carries a `Symbol.for("omnia-tools.error.<code>")`
 * brand and checks it in `Symbol.hasInstance`, as undici's errors do.
 */

/**
 * The stable error codes. Match on `error.code`, never on the message.
 * @public
 */
export const ErrorCode = {
  /** A manifest, pack or option is invalid. Thrown at load or create time. */
  CONFIG: "ERR_OMNIA_CONFIG",
  /** Two handlers expose the same tool name. Thrown at load time. */
  DUPLICATE_TOOL: "ERR_OMNIA_DUPLICATE_TOOL",
  /** A host option has the wrong type or range. Thrown at create time. */
  INVALID_OPTION: "ERR_OMNIA_INVALID_OPTION",
  /** The object was used after `close()` or `dispose()`. */
  CLOSED: "ERR_OMNIA_CLOSED",
  /** The caller's own AbortSignal fired: the call was abandoned. */
  ABORTED: "ERR_OMNIA_ABORTED",
  /** An attempt ran past the handler's timeout. */
  TIMEOUT: "ERR_OMNIA_TIMEOUT",
  /** The tool's circuit breaker rejected the call. */
  CIRCUIT_OPEN: "ERR_OMNIA_CIRCUIT_OPEN",
  /** Every attempt of a retried call failed: `<N> attempts exhausted: <last error>`. */
  RETRIES_EXHAUSTED: "ERR_OMNIA_RETRIES_EXHAUSTED",
} as const;

/**
 * One of the {@link ErrorCode} values, or a code defined by a later module.
 * @public
 */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode] | (string & {});

const BASE_BRAND = Symbol.for("omnia-tools.error");

/**
 * The brand symbol of an error code: `Symbol.for("omnia-tools.error.<code>")`.
 * @public
 */
export function errorBrand(code: string): symbol {
  return Symbol.for(`omnia-tools.error.${code}`);
}

/** Options every error constructor accepts. @public */
export interface OmniaToolsErrorOptions {
  /** The underlying error, kept as `error.cause`. */
  cause?: unknown;
}

/**
 * The base class of every error in this package.
 *
 * Subclasses set a static `code`; the constructor brands the instance with the
 * code of every class in its chain, so `instanceof` answers the same for a copy
 * of the class from another installed version of the package.
 * @public
 */
export class OmniaToolsError extends Error {
  /** The code of this class. Subclasses override it. */
  static readonly code: string = "ERR_OMNIA";

  /** The stable error code, e.g. `ERR_OMNIA_CONFIG`. */
  readonly code: string;

  constructor(message: string, options?: OmniaToolsErrorOptions & { code?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    const ctor = new.target as unknown as { code: string; name: string };
    this.name = ctor.name;
    this.code = options?.code ?? ctor.code;
    Object.defineProperty(this, BASE_BRAND, { value: true });
    // Brand with the code of every class in the chain (base excluded), and with the instance code.
    let proto: unknown = ctor;
    while (typeof proto === "function" && proto !== OmniaToolsError) {
      const code = (proto as { code?: unknown }).code;
      if (typeof code === "string") defineBrand(this, code);
      proto = Object.getPrototypeOf(proto);
    }
    defineBrand(this, this.code);
  }

  static override [Symbol.hasInstance](this: { code: string }, value: unknown): boolean {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) return false;
    const target = value as Record<symbol, unknown>;
    if ((this as unknown) === OmniaToolsError) return target[BASE_BRAND] === true;
    return target[errorBrand(this.code)] === true;
  }
}

function defineBrand(target: object, code: string): void {
  const brand = errorBrand(code);
  if (!Object.prototype.hasOwnProperty.call(target, brand)) {
    Object.defineProperty(target, brand, { value: true });
  }
}

/**
 * Whether `value` is an error from this package (any installed copy of it).
 * @public
 */
export function isOmniaToolsError(value: unknown): value is OmniaToolsError {
  return value instanceof OmniaToolsError;
}

/**
 * One problem found in a manifest, pack or option set.
 * @public
 */
export interface ConfigIssue {
  /** Where the problem is, e.g. `spec.handlers[2].httpConfig.method`. Empty for the document itself. */
  readonly path: string;
  /** What is wrong, e.g. `expected one of GET|POST; got "FETCH"`. */
  readonly message: string;
}

/**
 * Invalid configuration. `issues` holds **every** problem found, each with its
 * path; the message lists them one per line as `<path>: <message>`.
 * @public
 */
export class ConfigError extends OmniaToolsError {
  static override readonly code: string = ErrorCode.CONFIG;
  /** Every problem found, in document order. */
  readonly issues: readonly ConfigIssue[];

  constructor(issues: ConfigIssue | readonly ConfigIssue[], options?: OmniaToolsErrorOptions) {
    const list = Object.freeze((Array.isArray(issues) ? [...issues] : [issues as ConfigIssue]).map((i) => Object.freeze({ ...i })));
    super(list.map(formatIssue).join("\n"), options);
    this.issues = list;
  }
}

/** `<path>: <message>`, or the message alone when the path is empty. */
function formatIssue(issue: ConfigIssue): string {
  return issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`;
}

/**
 * A host option is of the wrong type or out of range. Thrown at create time.
 * @public
 */
export class InvalidOptionError extends OmniaToolsError {
  static override readonly code: string = ErrorCode.INVALID_OPTION;
}

/**
 * The object was used after `close()`/`dispose()`.
 * @public
 */
export class ClosedError extends OmniaToolsError {
  static override readonly code: string = ErrorCode.CLOSED;
}

/**
 * The caller's AbortSignal fired. An abandoned call is never a breaker failure.
 * @public
 */
export class AbortedError extends OmniaToolsError {
  static override readonly code: string = ErrorCode.ABORTED;
}

/**
 * An attempt ran past its timeout. The message is `timed out after <ms>ms`.
 * @public
 */
export class TimeoutError extends OmniaToolsError {
  static override readonly code: string = ErrorCode.TIMEOUT;
  /** The timeout that fired, in milliseconds. */
  readonly timeoutMs: number;
  constructor(timeoutMs: number, options?: OmniaToolsErrorOptions) {
    super(`timed out after ${timeoutMs}ms`, options);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * Normalises anything thrown into an Error, never rethrowing a non-Error raw.
 * @internal Does not follow semver.
 */
export function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  let text: string;
  try {
    text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return new Error(`non-error thrown: ${text}`, { cause: value });
}
