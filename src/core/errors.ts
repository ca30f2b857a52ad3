/**
 * The error model: every error this package throws or puts in an outcome is an
 * {@link OmniaToolsError} with a stable `code`.
 *
 * `instanceof` works across duplicate copies of the package (two versions in one
 * `node_modules`): each class carries a `Symbol.for("omnia-tools.error.<code>")`
 * brand and checks it in `Symbol.hasInstance`, as undici's errors do.
 */

/**
 * The stable error codes, one per error class, keyed by a short name. Match on
 * `error.code`, never on the message; the type of the same name is the union
 * of every value.
 * @public
 */
export const ErrorCode = {
  /** `ConfigError`: a manifest, pack or duration is invalid. Thrown at load time. */
  CONFIG: "ERR_OMNIA_CONFIG",
  /** `DuplicateToolError`: two handlers (or a handler and a platform tool) expose the same tool name. Thrown at load or create time. */
  DUPLICATE_TOOL: "ERR_OMNIA_DUPLICATE_TOOL",
  /** `InvalidOptionError`: a host option has the wrong type or range. Thrown at create (or call) time. */
  INVALID_OPTION: "ERR_OMNIA_INVALID_OPTION",
  /** `ClosedError`: the object was used after `close()` or `dispose()`, or closed under a call in flight. */
  CLOSED: "ERR_OMNIA_CLOSED",
  /** `AbortedError`: the caller's own AbortSignal fired: the call was abandoned. */
  ABORTED: "ERR_OMNIA_ABORTED",
  /** `TimeoutError`: an attempt ran past the handler's timeout, or a call past its `timeoutMs` deadline. */
  TIMEOUT: "ERR_OMNIA_TIMEOUT",
  /** `CircuitOpenError`: the tool's circuit breaker rejected the call. */
  CIRCUIT_OPEN: "ERR_OMNIA_CIRCUIT_OPEN",
  /** `RetriesExhaustedError`: every attempt of a retried call failed: `<N> attempts exhausted: <last error>`. */
  RETRIES_EXHAUSTED: "ERR_OMNIA_RETRIES_EXHAUSTED",
  /** `UnknownToolError`: the model called a tool the registry does not serve. */
  UNKNOWN_TOOL: "ERR_OMNIA_UNKNOWN_TOOL",
  /** `InvalidArgumentsError`: the arguments are not valid JSON, too large or too deep; nothing was sent. */
  INVALID_ARGUMENTS: "ERR_OMNIA_INVALID_ARGUMENTS",
  /** `AuthError`: a handler's credentials could not be resolved. */
  AUTH: "ERR_OMNIA_AUTH",
  /** `ClientToolError`: the client's tool failed. */
  CLIENT_TOOL: "ERR_OMNIA_CLIENT_TOOL",
  /** `BackendError`: a failure no more specific error describes (a host resolver threw something untyped). */
  BACKEND: "ERR_OMNIA_BACKEND",
  /** `DuplicateCallIdError`: a client call reused the id of a client call still pending. */
  DUPLICATE_CALL_ID: "ERR_OMNIA_DUPLICATE_CALL_ID",
  /** `UnknownClientCallError`: `completeClientCall()` for a call that is not pending. */
  UNKNOWN_CLIENT_CALL: "ERR_OMNIA_UNKNOWN_CLIENT_CALL",
  /** `HttpStatusError`: `HTTP <status>: <body>`. */
  HTTP_STATUS: "ERR_OMNIA_HTTP_STATUS",
  /** `HttpRequestError`: the HTTP request could not be built from the arguments. */
  HTTP_REQUEST: "ERR_OMNIA_HTTP_REQUEST",
  /** `HttpTransportError`: no HTTP status: refused, reset, DNS, too many redirects. */
  TRANSPORT: "ERR_OMNIA_TRANSPORT",
  /** `MappingError`: a `bodyMapping`/`responseMapping` JMESPath failed. */
  MAPPING: "ERR_OMNIA_MAPPING",
  /** `ToolError`: a gRPC tool answered `is_error`: `tool error: <error_message>`. */
  TOOL_ERROR: "ERR_OMNIA_TOOL_ERROR",
  /** `GrpcStatusError`: a gRPC call ended with a non-OK status. */
  GRPC_STATUS: "ERR_OMNIA_GRPC_STATUS",
  /** `McpToolError`: an MCP tool answered `isError`. */
  MCP_TOOL_ERROR: "ERR_OMNIA_MCP_TOOL_ERROR",
  /** `McpTransportError`: an MCP transport or protocol failure. */
  MCP_TRANSPORT: "ERR_OMNIA_MCP_TRANSPORT",
  /** `McpArgumentsError`: MCP arguments are not an object. */
  MCP_ARGUMENTS: "ERR_OMNIA_MCP_ARGUMENTS",
  /** `McpAuthError`: the MCP header provider failed. */
  MCP_AUTH: "ERR_OMNIA_MCP_AUTH",
  /** `McpResultTooLargeError`: an MCP tool result exceeds the 10 MiB cap. */
  MCP_RESULT_TOO_LARGE: "ERR_OMNIA_MCP_RESULT_TOO_LARGE",
  /** `OpenApiSpecError`: the OpenAPI spec could not be fetched or parsed. */
  OPENAPI_SPEC: "ERR_OMNIA_OPENAPI_SPEC",
  /** `PolicyDeniedError`: the policy denied the call (a denied outcome). */
  POLICY_DENIED: "ERR_OMNIA_POLICY_DENIED",
  /** `SandboxUnreachableError`: a conversation's sandbox did not answer its dial. */
  SANDBOX_UNREACHABLE: "ERR_OMNIA_SANDBOX_UNREACHABLE",
  /** `ConverseStateError`: a runtime handler sent after its turn ended. */
  CONVERSE_STATE: "ERR_OMNIA_CONVERSE_STATE",
  /** `TurnError`: PromptKit fails the turn (max rounds, a persisting tool loop). */
  TURN: "ERR_OMNIA_TURN",
  /** `MissingPeerError`: an optional peer package a feature needs is not installed. */
  MISSING_PEER: "ERR_OMNIA_MISSING_PEER",
} as const;

/**
 * Every error code this package uses: the union of the {@link (ErrorCode:variable)}
 * values. Each error class's `code` is one of them, as a literal type, so a
 * `switch (error.code)` is checked for exhaustiveness.
 * @public
 */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The former name of the {@link (ErrorCode:type)} union.
 * @deprecated Use `ErrorCode`, the type: the same union of every code.
 * @public
 */
export type ErrorCodeValue = ErrorCode;

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

  /** The stable error code, e.g. `ERR_OMNIA_CONFIG`; each subclass narrows it to its own literal. */
  readonly code: ErrorCode;

  constructor(message: string, options?: OmniaToolsErrorOptions & { code?: ErrorCode }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    const ctor = new.target as unknown as { code: string; name: string };
    this.name = ctor.name;
    this.code = options?.code ?? (ctor.code as ErrorCode);
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
    // A host's Proxy may throw from its `get` trap: such a value is no error of this package.
    try {
      if ((this as unknown) === OmniaToolsError) return target[BASE_BRAND] === true;
      return target[errorBrand(this.code)] === true;
    } catch {
      return false;
    }
  }
}

function defineBrand(target: object, code: string): void {
  const brand = errorBrand(code);
  if (!Object.prototype.hasOwnProperty.call(target, brand)) {
    Object.defineProperty(target, brand, { value: true });
  }
}

/**
 * Whether `value` is an error from this package (any installed copy of it)
 * with that `code`; TypeScript narrows `value` to an error whose `code` is
 * that literal. (The `omnia-tools` entry's `isOmniaToolsError` narrows to the
 * code's class.)
 * @public
 */
export function isOmniaToolsError<C extends ErrorCode>(value: unknown, code: C): value is OmniaToolsError & { readonly code: C };
/**
 * Whether `value` is an error from this package (any installed copy of it):
 * `instanceof` checks a `Symbol.for` brand, not the class object.
 * @public
 */
export function isOmniaToolsError(value: unknown, code?: ErrorCode): value is OmniaToolsError;
export function isOmniaToolsError(value: unknown, code?: ErrorCode): value is OmniaToolsError {
  return value instanceof OmniaToolsError && (code === undefined || value.code === code);
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
  static override readonly code: "ERR_OMNIA_CONFIG" | "ERR_OMNIA_DUPLICATE_TOOL" = ErrorCode.CONFIG;
  /** `ERR_OMNIA_CONFIG`, or `ERR_OMNIA_DUPLICATE_TOOL` for its subclass `DuplicateToolError`. */
  declare readonly code: "ERR_OMNIA_CONFIG" | "ERR_OMNIA_DUPLICATE_TOOL";
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
  static override readonly code = ErrorCode.INVALID_OPTION;
  declare readonly code: typeof ErrorCode.INVALID_OPTION;
}

/**
 * The object was used after `close()`/`dispose()`.
 * @public
 */
export class ClosedError extends OmniaToolsError {
  static override readonly code = ErrorCode.CLOSED;
  declare readonly code: typeof ErrorCode.CLOSED;
}

/**
 * The caller's AbortSignal fired. An abandoned call is never a breaker failure.
 * @public
 */
export class AbortedError extends OmniaToolsError {
  static override readonly code = ErrorCode.ABORTED;
  declare readonly code: typeof ErrorCode.ABORTED;
}

/**
 * A timeout fired: the message is `timed out after <ms>ms`, the text the model
 * sees. `scope` says which: `attempt` for one attempt past its handler's
 * `timeout` (a breaker failure, retried as a network error), `call` for a
 * whole call past the caller's `timeoutMs` deadline (attempts and backoff
 * sleeps included; not a breaker failure).
 * @public
 */
export class TimeoutError extends OmniaToolsError {
  static override readonly code = ErrorCode.TIMEOUT;
  declare readonly code: typeof ErrorCode.TIMEOUT;
  /** The timeout that fired, in milliseconds. */
  readonly timeoutMs: number;
  /** `attempt`: a handler's per-attempt timeout; `call`: the caller's deadline for the whole call. */
  readonly scope: "attempt" | "call";
  constructor(timeoutMs: number, options?: OmniaToolsErrorOptions & { readonly scope?: "attempt" | "call" }) {
    super(`timed out after ${timeoutMs}ms`, options);
    this.timeoutMs = timeoutMs;
    this.scope = options?.scope ?? "attempt";
  }
}

/** The text for a value that cannot be read or turned into text without throwing. */
const UNPRINTABLE = "[unprintable value]";

/**
 * Normalises anything thrown into an Error, never rethrowing a non-Error raw,
 * and never throwing itself: a host may throw a Proxy whose every trap throws,
 * or an Error whose `message` getter throws. A non-Error reads
 * `non-error thrown: <JSON or String of it>`; a value that cannot be read or
 * printed reads `[unprintable value]` there; an Error whose message cannot be
 * read becomes an Error whose message is `[unprintable value]`.
 * @internal Does not follow semver.
 */
export function toError(value: unknown): Error {
  let isError: boolean;
  try {
    isError = value instanceof Error;
  } catch {
    isError = false;
  }
  if (isError) {
    try {
      if (typeof (value as Error).message === "string") return value as Error;
    } catch {
      // fall through: the message cannot be read
    }
    return new Error(UNPRINTABLE, { cause: value });
  }
  return new Error(`non-error thrown: ${printable(value)}`, { cause: value });
}

/**
 * The text of anything thrown, as `e instanceof Error ? e.message : String(e)`
 * reads it, but never throwing: a value that cannot be read or printed reads
 * `[unprintable value]`.
 * @internal Does not follow semver.
 */
export function thrownText(value: unknown): string {
  try {
    if (value instanceof Error) {
      const message: unknown = value.message;
      return typeof message === "string" ? message : UNPRINTABLE;
    }
    return String(value);
  } catch {
    return UNPRINTABLE;
  }
}

/** JSON of a non-Error (its String where JSON has none), or `[unprintable value]`. */
function printable(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // fall through to String
  }
  try {
    return String(value);
  } catch {
    return UNPRINTABLE;
  }
}
