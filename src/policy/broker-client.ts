import { createRequire } from "node:module";
import type * as Undici from "undici";
import type { Agent, Dispatcher } from "undici";
import { InvalidOptionError, noopLogger, offSharedAbort, onSharedAbort, rejectUnknownOptions, systemClock, TimeoutError, toError, type Clock, type HttpDispatcher, type Logger } from "../core/index.js";
import { marshalDecisionRequest } from "./broker-request.js";
import { decodeDecisionResponse, type DecisionResponse } from "./broker-response.js";
import { boundPeerText, goQuote } from "../core/index.js";
import { POLICY_UNREACHABLE_REASON, type Decision, type DecisionRequest, type PolicyAudit } from "./types.js";

/** undici, loaded on the first decision sent through the client's own `Agent`, so that importing the package does not load it (CommonJS: `require` gives the instance `import` would). */
let undiciModule: typeof Undici | undefined;
function undici(): typeof Undici {
  return (undiciModule ??= createRequire(import.meta.url)("undici") as typeof Undici);
}

/** The broker's decision endpoint, appended to the base URL (Omnia `policyBrokerDecisionPath`). @public */
export const POLICY_BROKER_DECISION_PATH = "/v1/decision";

/** How long one decision may take, request and response body together: 2 s (Omnia `policyBrokerTimeout`). @public */
export const DEFAULT_POLICY_BROKER_TIMEOUT_MS = 2_000;

/** The `deniedBy` of the synthetic denial when the broker cannot be reached and the client fails closed. @public */
export const POLICY_BROKER_UNREACHABLE_RULE = "policy-broker-unreachable";

/**
 * The most of a decision response read. The broker's answers are a few hundred
 * bytes; a larger body is an undecodable one (a transport failure). Go reads
 * without a cap; 1 MiB mirrors the broker's own request-body cap.
 */
const MAX_DECISION_RESPONSE_BYTES = 1024 * 1024;

/**
 * Options of {@link createPolicyBrokerClient}.
 * @public
 */
export interface PolicyBrokerClientOptions {
  /**
   * The broker's base URL (`POLICY_BROKER_URL`), e.g. `http://localhost:8083`;
   * decisions are POSTed to `<url>/v1/decision` (trailing `/` on the base
   * ignored). An empty string disables the client, as an unset
   * `POLICY_BROKER_URL` does: every decision is an allow with no injected
   * headers and no request is made.
   */
  readonly url: string;
  /** Per-decision timeout in ms, covering the request and the response body. Default 2000. */
  readonly timeoutMs?: number | undefined;
  /**
   * When the broker cannot be reached (refused, timeout, non-200, undecodable
   * body): `false` (default) denies the call — fail closed, with reason
   * `policy broker unreachable; failing closed (rule "policy-broker-unreachable")`;
   * `true` allows it with no injected headers. `POLICY_BROKER_FAIL_MODE=open`
   * is `failOpen: true`; any other value is `false`.
   */
  readonly failOpen?: boolean | undefined;
  /** The dispatcher decisions are sent through (an undici 7 or 8 `Agent`, `Pool` or composed dispatcher). Default: an `Agent` the client creates on first use and closes in `close()`. */
  readonly dispatcher?: HttpDispatcher | undefined;
  /** The timeout runs on it. Default `systemClock`. */
  readonly clock?: Clock | undefined;
  /** Receives `policy broker unreachable` (error) and audit-mode would-be denials (info). Default: discard. */
  readonly logger?: Logger | undefined;
}

/**
 * A client of Omnia's ToolPolicy decision broker. Pass it as the executor's
 * `policy` option as is: it is a `{ decide, failOpen }` policy.
 * @public
 */
export interface PolicyBrokerClient {
  /**
   * Asks the broker about one call. Never rejects: a transport failure is
   * resolved into a decision by the fail mode, and so is `signal` aborting
   * (the call was abandoned: the decision request is cancelled).
   */
  readonly decide: (request: DecisionRequest, signal?: AbortSignal) => Promise<Decision>;
  /** The configured fail mode. */
  readonly failOpen: boolean;
  /** False when `url` was empty: every decision is an allow and nothing is sent. */
  readonly enabled: boolean;
  /** The decision endpoint, `<url>/v1/decision`; empty when disabled. */
  readonly endpoint: string;
  /** Closes the client's own `Agent` (not a dispatcher passed in). A second or concurrent call returns the first one's promise, which never rejects. Decisions after it fail per the fail mode. */
  close(): Promise<void>;
}

const KNOWN_OPTIONS = new Set(["url", "timeoutMs", "failOpen", "dispatcher", "clock", "logger"]);

/**
 * Creates a client of the ToolPolicy decision broker, as Omnia's runtime calls it
 * (`internal/runtime/tools/policy_broker_client.go`, wire types in `pkg/policy/broker_contract.go`).
 *
 * Each decision is one `POST <url>/v1/decision` with JSON
 * `{headers, body, identity}` built from the {@link DecisionRequest}, under a
 * 2 s timeout on the clock. The answer:
 * - proceeds iff `allow || wouldDeny`: audit mode proceeds whatever `allow`
 *   says, and the decision carries `audit: { deniedBy, message }` so the
 *   would-be denial is recorded; `injectedHeaders` (when non-empty) become the
 *   decision's `headers`;
 * - otherwise denies with reason `<message> (rule "<deniedBy>")`, so the
 *   outcome reads `tool call denied by policy: nope (rule "rule1")` (and
 *   `tool call denied by policy:  (rule "")` for a `{}` answer);
 * - `message` and `deniedBy` are each cut at 512 UTF-8 bytes (a character
 *   boundary), then `...`, in the reason and in the audit;
 * - a transport failure (refused, timeout, non-200, undecodable body, the
 *   call's signal aborting) is logged as `policy broker unreachable` and
 *   denies, fail closed, unless `failOpen`.
 *
 * @example
 * ```ts
 * const policy = createPolicyBrokerClient({ url: "http://localhost:8083" });
 * const executor = createToolExecutor({ registry, policy });
 * // ... on shutdown
 * await executor.close();
 * await policy.close();
 * ```
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for an unknown option, a URL that is not http(s), or a timeout that is not a positive number
 * @public
 */
export function createPolicyBrokerClient(options: PolicyBrokerClientOptions): PolicyBrokerClient {
  validateOptions(options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_POLICY_BROKER_TIMEOUT_MS;
  const failOpen = options.failOpen === true;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? noopLogger;
  const base = options.url.replace(/\/+$/, "");
  const enabled = base !== "";
  const endpoint = enabled ? new URL(`${base}${POLICY_BROKER_DECISION_PATH}`) : undefined;
  let ownAgent: Agent | undefined;
  let closed = false;
  let closeDone: Promise<void> | undefined;

  logger.info("policy broker client initialized", { enabled, ...(enabled ? { url: base, failOpen } : {}) });

  const dispatcher = (): Dispatcher => (options.dispatcher as Dispatcher | undefined) ?? (ownAgent ??= new (undici().Agent)());

  async function post(request: DecisionRequest, signal: AbortSignal | undefined): Promise<DecisionResponse> {
    if (closed) throw new Error("the policy broker client is closed");
    const url = endpoint as URL;
    const controller = new AbortController();
    const timer = clock.setTimeout(() => controller.abort(new TimeoutError(timeoutMs)), timeoutMs);
    const onAbort = (): void => controller.abort(signal?.reason);
    // One shared listener per signal, however many calls of one conversation wait on it.
    if (signal?.aborted === true) onAbort();
    else if (signal !== undefined) onSharedAbort(signal, onAbort);
    try {
      let response: Dispatcher.ResponseData;
      try {
        // undici's request() calls only dispatch() on the dispatcher: the structural type is what it uses.
        response = await undici().request(url, {
          dispatcher: dispatcher(),
          method: "POST",
          headers: { "content-type": "application/json" },
          body: marshalDecisionRequest(request),
          signal: controller.signal,
        });
      } catch (e) {
        throw new Error(`decision request failed: ${reasonOf(e, controller.signal)}`);
      }
      if (response.statusCode !== 200) {
        await response.body.dump({ limit: 64 * 1024 }).catch(() => {});
        throw new Error(`decision endpoint returned status ${response.statusCode}`);
      }
      let bytes: Uint8Array;
      try {
        bytes = await readCapped(response.body, MAX_DECISION_RESPONSE_BYTES);
      } catch (e) {
        throw new Error(`decode decision response: ${reasonOf(e, controller.signal)}`);
      }
      try {
        return decodeDecisionResponse(bytes);
      } catch (e) {
        throw new Error(`decode decision response: ${toError(e).message}`);
      }
    } finally {
      timer.clear();
      if (signal !== undefined) offSharedAbort(signal, onAbort);
    }
  }

  async function decide(request: DecisionRequest, signal?: AbortSignal): Promise<Decision> {
    if (!enabled) return { allow: true };
    let response: DecisionResponse;
    try {
      response = await post(request, signal);
    } catch (e) {
      logger.error("policy broker unreachable", {
        toolName: request.toolName,
        registryName: request.registryName,
        failOpen,
        error: toError(e).message,
      });
      return failOpen ? { allow: true } : { allow: false, reason: POLICY_UNREACHABLE_REASON };
    }
    return toDecision(response, request, logger);
  }

  return {
    decide,
    failOpen,
    enabled,
    endpoint: endpoint?.href ?? "",
    close() {
      // A second or concurrent close() gets the first one's promise; it never rejects.
      return (closeDone ??= (async () => {
        closed = true;
        try {
          await ownAgent?.close();
        } catch (e) {
          logger.error("policy broker client: its agent failed to close", { error: toError(e).message });
        }
      })());
    },
  };
}

/**
 * Maps a broker answer to a decision: proceed iff `allow || wouldDeny`
 * (Omnia `enforcePolicy`); a denial's reason is `<message> (rule %q)`.
 */
function toDecision(response: DecisionResponse, request: DecisionRequest, logger: Logger): Decision {
  // The broker's texts reach the model (a denial) and the record (an audit): each is cut at
  // 512 UTF-8 bytes, then `...`, as every peer text is (issue #31).
  const message = boundPeerText(response.message);
  const deniedBy = boundPeerText(response.deniedBy);
  if (!response.allow && !response.wouldDeny) {
    return { allow: false, reason: policyDenialReason(message, deniedBy) };
  }
  const injected = response.injectedHeaders;
  const headers = injected !== null && Object.keys(injected).length > 0 ? { ...injected } : undefined;
  let audit: PolicyAudit | undefined;
  if (response.wouldDeny) {
    audit = { deniedBy, message };
    logger.info("policy would deny (audit mode)", {
      toolName: request.toolName,
      registryName: request.registryName,
      deniedBy,
      message,
      mode: response.mode,
    });
  }
  return { allow: true, ...(headers === undefined ? {} : { headers }), ...(audit === undefined ? {} : { audit }) };
}

/**
 * The reason of a broker denial, `<message> (rule "<deniedBy>")`: Omnia's
 * `fmt.Errorf("%w: %s (rule %q)", errPolicyDenied, message, deniedBy)` without
 * the `tool call denied by policy: ` prefix the executor adds.
 * @internal Does not follow semver.
 */
export function policyDenialReason(message: string, deniedBy: string): string {
  return `${message} (rule ${goQuote(deniedBy)})`;
}

async function readCapped(body: Dispatcher.ResponseData["body"], cap: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.byteLength;
      if (total > cap) throw new Error(`response body larger than ${cap} bytes`);
      chunks.push(chunk);
    }
  } finally {
    if (!body.destroyed) body.destroy();
  }
  return Buffer.concat(chunks, total);
}

function reasonOf(e: unknown, signal: AbortSignal): string {
  if (signal.aborted) {
    const reason = signal.reason as unknown;
    if (reason instanceof TimeoutError) return reason.message;
    return `aborted: ${reason === undefined ? "the call was abandoned" : toError(reason).message}`;
  }
  const error = toError(e);
  const code = (error as { code?: unknown }).code;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail = typeof cause?.code === "string" ? cause.code : typeof code === "string" ? code : undefined;
  return detail === undefined || error.message.includes(detail) ? error.message : `${error.message} (${detail})`;
}

function validateOptions(options: PolicyBrokerClientOptions): void {
  if (options === null || typeof options !== "object") {
    throw new InvalidOptionError(`createPolicyBrokerClient: options must be an object; got ${String(options)}`);
  }
  rejectUnknownOptions("createPolicyBrokerClient", options, KNOWN_OPTIONS);
  const url = options.url as unknown;
  if (typeof url !== "string") throw new InvalidOptionError(`createPolicyBrokerClient: url must be a string (empty to disable); got ${typeof url}`);
  if (url !== "") {
    let parsed: URL | undefined;
    try {
      parsed = new URL(`${url.replace(/\/+$/, "")}${POLICY_BROKER_DECISION_PATH}`);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
      throw new InvalidOptionError(`createPolicyBrokerClient: url must be an http:// or https:// URL; got ${JSON.stringify(url)}`);
    }
  }
  const t = options.timeoutMs;
  if (t !== undefined && !(typeof t === "number" && Number.isFinite(t) && t > 0)) {
    throw new InvalidOptionError(`createPolicyBrokerClient: timeoutMs must be a positive number of ms; got ${String(t)}`);
  }
  if (options.failOpen !== undefined && typeof options.failOpen !== "boolean") {
    throw new InvalidOptionError(`createPolicyBrokerClient: failOpen must be a boolean; got ${JSON.stringify(options.failOpen)}`);
  }
}
