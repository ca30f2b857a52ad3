import { isOmniaToolsError as isError } from "../core/index.js";
import type {
  AbortedError,
  AuthError,
  BackendError,
  ClientToolError,
  ClosedError,
  ConfigError,
  DuplicateCallIdError,
  ErrorCode,
  InvalidArgumentsError,
  InvalidOptionError,
  MissingPeerError,
  OmniaToolsError,
  TimeoutError,
  UnknownToolError,
} from "../core/index.js";
import type { CircuitOpenError } from "../breaker/index.js";
import type { RetriesExhaustedError } from "../retry/index.js";
import type { DuplicateToolError } from "../manifest/index.js";
import type { HttpRequestError, HttpStatusError, HttpTransportError, MappingError } from "../http/index.js";
import type { GrpcStatusError, ToolError } from "../grpc/index.js";
import type { McpArgumentsError, McpAuthError, McpResultTooLargeError, McpToolError, McpTransportError } from "../mcp/index.js";
import type { OpenApiSpecError } from "../openapi/index.js";
import type { PolicyDeniedError } from "../policy/index.js";
import type { UnknownClientCallError } from "../client-tools/index.js";
import type { SandboxUnreachableError } from "../executor/index.js";
import type { TurnError } from "../turn/index.js";

/**
 * The error class of each {@link (ErrorCode:type)}: what
 * {@link isOmniaToolsError} narrows to when given a code. `ConfigError` and
 * `McpToolError` are listed under their own code only: a `DuplicateToolError`
 * (`ERR_OMNIA_DUPLICATE_TOOL`) is also a `ConfigError`, and a
 * `McpResultTooLargeError` an `McpToolError`.
 * @public
 */
export interface OmniaToolsErrorByCode {
  ERR_OMNIA_CONFIG: ConfigError & { readonly code: "ERR_OMNIA_CONFIG" };
  ERR_OMNIA_DUPLICATE_TOOL: DuplicateToolError;
  ERR_OMNIA_INVALID_OPTION: InvalidOptionError;
  ERR_OMNIA_CLOSED: ClosedError;
  ERR_OMNIA_ABORTED: AbortedError;
  ERR_OMNIA_TIMEOUT: TimeoutError;
  ERR_OMNIA_CIRCUIT_OPEN: CircuitOpenError;
  ERR_OMNIA_RETRIES_EXHAUSTED: RetriesExhaustedError;
  ERR_OMNIA_UNKNOWN_TOOL: UnknownToolError;
  ERR_OMNIA_INVALID_ARGUMENTS: InvalidArgumentsError;
  ERR_OMNIA_AUTH: AuthError;
  ERR_OMNIA_CLIENT_TOOL: ClientToolError;
  ERR_OMNIA_BACKEND: BackendError;
  ERR_OMNIA_DUPLICATE_CALL_ID: DuplicateCallIdError;
  ERR_OMNIA_UNKNOWN_CLIENT_CALL: UnknownClientCallError;
  ERR_OMNIA_HTTP_STATUS: HttpStatusError;
  ERR_OMNIA_HTTP_REQUEST: HttpRequestError;
  ERR_OMNIA_TRANSPORT: HttpTransportError;
  ERR_OMNIA_MAPPING: MappingError;
  ERR_OMNIA_TOOL_ERROR: ToolError;
  ERR_OMNIA_GRPC_STATUS: GrpcStatusError;
  ERR_OMNIA_MCP_TOOL_ERROR: McpToolError & { readonly code: "ERR_OMNIA_MCP_TOOL_ERROR" };
  ERR_OMNIA_MCP_TRANSPORT: McpTransportError;
  ERR_OMNIA_MCP_ARGUMENTS: McpArgumentsError;
  ERR_OMNIA_MCP_AUTH: McpAuthError;
  ERR_OMNIA_MCP_RESULT_TOO_LARGE: McpResultTooLargeError;
  ERR_OMNIA_OPENAPI_SPEC: OpenApiSpecError;
  ERR_OMNIA_POLICY_DENIED: PolicyDeniedError;
  ERR_OMNIA_SANDBOX_UNREACHABLE: SandboxUnreachableError;
  /** `ConverseStateError`, exported by `omnia-tools/runtime`. */
  ERR_OMNIA_CONVERSE_STATE: OmniaToolsError & { readonly code: "ERR_OMNIA_CONVERSE_STATE" };
  ERR_OMNIA_TURN: TurnError;
  ERR_OMNIA_MISSING_PEER: MissingPeerError;
}

// Every code has exactly one entry, and each entry's `code` is its key: a code added to ErrorCode without a class here fails to compile.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
type EveryCodeMapped = Holds<Exactly<keyof OmniaToolsErrorByCode, ErrorCode>>;
type EntriesMatchTheirCode = Holds<Exactly<{ [C in ErrorCode]: Exactly<OmniaToolsErrorByCode[C]["code"], C> }[ErrorCode], true>>;

/**
 * Whether `value` is an error from this package, from any installed copy of
 * it (`instanceof` checks a `Symbol.for` brand, not the class object). Given a
 * `code`, whether it is the error of that code, and TypeScript narrows `value`
 * to that code's class (`isOmniaToolsError(e, "ERR_OMNIA_HTTP_STATUS")` gives
 * an `HttpStatusError`, with its `status`).
 *
 * @example
 * ```ts
 * const outcome = await executor.execute(call);
 * if (outcome.status === "error" && isOmniaToolsError(outcome.error, "ERR_OMNIA_HTTP_STATUS")) {
 *   console.log(outcome.error.status); // 503
 * }
 * ```
 * @public
 */
export const isOmniaToolsError: {
  <C extends ErrorCode>(value: unknown, code: C): value is OmniaToolsErrorByCode[C];
  (value: unknown): value is OmniaToolsError;
} = isError;
