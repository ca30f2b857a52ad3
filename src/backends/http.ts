import { ErrorCode, type Clock, type JsonValue, type Logger } from "../core/index.js";
import type { HttpHandlerConfig } from "../manifest/index.js";
import type { BreakerTicket, CircuitBreaker } from "../breaker/index.js";
import {
  buildParsedHttpRequest,
  fixedQueryKeys,
  HttpStatusError,
  HttpTransportError,
  interpretHttpResponse,
  sendHttpRequest,
  startHttpRequest,
  sensitiveHeaderNames,
  type HttpHeaderContext,
  type HttpInterpretation,
  type HttpRequestShape,
  type HttpResponseSink,
  type SendOptions,
  type HttpWireResponse,
} from "../http/index.js";
import {
  callAbortListener,
  classifyHttpError,
  classifyHttpStatus,
  runAbortableAttempt,
  type AbortHook,
  type AbortListener,
  type AttemptAbort,
  type AttemptOutcome,
  type AttemptSink,
  type AttemptSettlement,
  type HttpRetryRules,
} from "../retry/index.js";
import type { Backend, BackendCall, BackendEnv, BackendSuccess, PreparedCall } from "./backend.js";
import { httpRetrySetup } from "./retry-setup.js";
import { admitAttempt, attemptPromise, AttemptRun } from "./attempt-run.js";

/** One HTTP exchange: what came back and what it means for the model. @internal Does not follow semver. */
export interface HttpExchange {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly interpretation: HttpInterpretation;
}

/**
 * The request of an `http` call, built once per call (Go's executor rebuilds
 * it for each attempt, from the same arguments and credentials, to the same
 * bytes), with the trace context last, and the credential header names a
 * redirect to another origin drops. A request that cannot be built throws
 * here, before any attempt: the call fails with nothing sent and no breaker
 * event.
 * @throws HttpRequestError (or InvalidArgumentsError) for arguments the handler cannot shape into a request
 */
function buildHttpExchangeRequest(
  handler: HttpHandlerConfig,
  args: string | JsonValue | undefined,
  context: HttpHeaderContext,
  parsed: JsonValue | undefined,
  injectTrace: ((headers: Record<string, string>) => void) | undefined,
): { readonly request: HttpRequestShape; readonly sensitiveHeaders: ReadonlySet<string> | undefined } {
  // `parsed`: the executor's own parse of the argument text, so it is not parsed again here.
  const request = buildParsedHttpRequest(handler, args, parsed, context);
  // Trace context goes in last, after every other header (Omnia's executor injects into the built request).
  if (injectTrace !== undefined) injectTrace(request.headers as Record<string, string>);
  // Never sent on a redirect to another origin: the static headers' and the credentials' names (the transport drops
  // Authorization, Cookie, x-omnia-* and the trace context always).
  return { request, sensitiveHeaders: credentialHeaderNames(handler.httpConfig.headers, context.auth, context.headersFromSecret, context.injected) };
}

/** What one response means: its status, its first Retry-After, and the handler's interpretation. */
function interpretExchange(handler: HttpHandlerConfig, response: HttpWireResponse): HttpExchange {
  const raw = response.headers["retry-after"];
  const retryAfter = Array.isArray(raw) ? raw[0] : raw;
  return { status: response.status, retryAfter, interpretation: interpretHttpResponse(handler, response.status, response.body, { truncated: response.truncated, retryAfter }) };
}

/** The lower-cased names of a handler's static headers, built once per headers object. */
const STATIC_HEADER_NAMES = new WeakMap<object, ReadonlySet<string>>();

/**
 * The names of every header of a call that must not reach another origin on a
 * redirect, beyond those the transport always drops: the manifest's static
 * headers (operators put API keys there) and the call's credentials (auth,
 * `headersFromSecret`, broker-injected). Undefined when there is none (most
 * calls: no set is built); a handler with only static headers reuses one set.
 * @internal Does not follow semver.
 */
export function credentialHeaderNames(
  staticHeaders: Readonly<Record<string, string>> | undefined,
  ...records: readonly (Readonly<Record<string, string>> | undefined)[]
): ReadonlySet<string> | undefined {
  for (const record of records) if (record !== undefined) for (const _ in record) return sensitiveHeaderNames(staticHeaders, ...records);
  if (staticHeaders === undefined) return undefined;
  let names = STATIC_HEADER_NAMES.get(staticHeaders);
  if (names === undefined) {
    names = sensitiveHeaderNames(staticHeaders);
    STATIC_HEADER_NAMES.set(staticHeaders, names);
  }
  return names.size === 0 ? undefined : names;
}

/**
 * One HTTP-transport attempt (http and openapi handlers): breaker admission,
 * then the exchange under the per-attempt timeout, then classification.
 * Breaker accounting: 2xx and 4xx are successes; 5xx, other statuses,
 * transport errors, timeouts, build and mapping errors are failures; an
 * abandoned attempt counts as nothing.
 * @internal Does not follow semver.
 */
export function httpAttempt(
  exchange: (abort: AttemptAbort) => Promise<HttpExchange>,
  deps: HttpAttemptDeps,
  signal: AbortSignal | undefined,
): Promise<AttemptOutcome<BackendSuccess>> {
  // Not an async function: a suspended async frame would stay on the heap while the call is in flight.
  let ticket: BreakerTicket;
  try {
    ticket = deps.breaker.admit(); // throws CircuitOpenError: the loop reads it as a rejection
  } catch (e) {
    return Promise.reject(e);
  }
  return runAbortableAttempt(exchange, { clock: deps.clock, timeoutMs: deps.timeoutMs, signal }).then((settled) => settleAttempt(settled, ticket, deps));
}

/** What {@link httpAttempt} needs besides the exchange. @internal Does not follow semver. */
export interface HttpAttemptDeps {
  readonly breaker: CircuitBreaker;
  readonly clock: Clock;
  readonly timeoutMs: number;
  readonly rules: HttpRetryRules;
  readonly logger: Logger;
  readonly toolName: string;
}

/** The breaker accounting and the retry classification of one settled attempt. */
function settleAttempt(settled: AttemptSettlement<HttpExchange>, ticket: BreakerTicket, deps: HttpAttemptDeps): AttemptOutcome<BackendSuccess> {
  switch (settled.kind) {
    case "abandoned":
      ticket.abandon();
      return { kind: "abandoned", error: settled.error };
    case "timeout":
      ticket.failure();
      return { kind: "failure", error: settled.error, retryable: deps.rules.retryOnNetworkError };
    case "error": {
      const error = settled.error;
      // The executor closed its own dispatcher under the call: abandoned, not the backend's failure.
      if ((error as { causeCode?: unknown }).causeCode === "UND_ERR_DESTROYED" || (error as { code?: unknown }).code === ErrorCode.CLOSED) {
        ticket.abandon();
        return { kind: "failure", error, retryable: false };
      }
      ticket.failure();
      // The headers arrived, then the body broke off: retries go by the status.
      if (error instanceof HttpTransportError && error.status !== undefined) {
        return { kind: "failure", error, ...classifyHttpStatus(error.status, undefined, deps.rules, deps.clock.now()) };
      }
      return { kind: "failure", error, ...classifyHttpError(error, deps.rules) };
    }
    case "success": {
      const { status, retryAfter, interpretation } = settled.value;
      if (interpretation.status === "success") {
        ticket.success();
        if (interpretation.truncated === true) deps.logger.warn("HTTP tool response cut at the 10 MiB read cap", { tool: deps.toolName });
        const { result, resultJson } = interpretation;
        return { kind: "success", value: interpretation.truncated === true ? { result, resultJson, truncated: true } : { result, resultJson } };
      }
      // A 4xx is not a breaker failure: the backend answered; the request was wrong.
      if (interpretation.error instanceof HttpStatusError && status >= 400 && status <= 499) ticket.success();
      else ticket.failure();
      return { kind: "failure", error: interpretation.error, ...classifyHttpStatus(status, retryAfter, deps.rules, deps.clock.now()) };
    }
  }
}

/**
 * The `http` backend: one request per attempt, built from the manifest and the
 * arguments, with the identity, auth, secret, injected and delegation headers.
 * @internal Does not follow semver.
 */
export function createHttpBackend(env: BackendEnv): Backend {
  return {
    probe: (handler, auth, signal) => probeHttp(env, (handler as HttpHandlerConfig).httpConfig.endpoint ?? handler.endpoint, auth, signal),
    prepare: (call: BackendCall): PreparedCall => new HttpCall(env, call),
  };
}

/**
 * One call of an `http` handler, prepared: the request (built once, by
 * {@link buildHttpExchangeRequest}), the retry setup, and what each attempt
 * needs, in one object that is also the call's {@link PreparedCall} and the
 * {@link HttpAttemptDeps} of its attempts (no closures per call). Each
 * attempt is one {@link HttpAttemptRun}: the rules of {@link httpAttempt}
 * (send, read at most 10 MiB, interpret), with one promise per attempt.
 */
class HttpCall implements PreparedCall, HttpAttemptDeps {
  readonly request: HttpRequestShape;
  /** The options every attempt sends with, but for its abort hook. */
  readonly sensitiveHeaders: ReadonlySet<string> | undefined;
  // The rest is read through the call, the environment and the handler's (shared) retry setup: five fields, not eleven.
  readonly #env: BackendEnv;
  readonly #call: BackendCall;
  readonly #setup: ReturnType<typeof httpRetrySetup>;

  constructor(env: BackendEnv, call: BackendCall) {
    const handler = call.handler as HttpHandlerConfig;
    const built = buildHttpExchangeRequest(
      handler,
      call.rawArgs,
      {
        identity: call.identity,
        agent: env.agent,
        auth: call.auth,
        headersFromSecret: call.secretHeaders,
        injected: call.injected,
        delegationToken: call.delegationToken,
        logger: env.logger,
      },
      call.args,
      call.injectTrace,
    );
    this.#setup = httpRetrySetup(handler.httpConfig.retryPolicy);
    this.#env = env;
    this.#call = call;
    this.request = built.request;
    this.sensitiveHeaders = built.sensitiveHeaders;
  }

  get policy(): PreparedCall["policy"] {
    return this.#setup.policy;
  }
  get rules(): HttpRetryRules {
    return this.#setup.rules;
  }
  get breaker(): CircuitBreaker {
    return this.#call.breaker!;
  }
  get clock(): Clock {
    return this.#env.clock;
  }
  get logger(): Logger {
    return this.#env.logger;
  }
  get toolName(): string {
    return this.#call.toolName;
  }
  get handler(): HttpHandlerConfig {
    return this.#call.handler as HttpHandlerConfig;
  }
  get timeoutMs(): number {
    return this.#call.handler.timeoutMs;
  }

  attempt(signal: AbortSignal | undefined): Promise<AttemptOutcome<BackendSuccess>> {
    return attemptPromise(this, signal);
  }

  /** One attempt, delivered into `sink` on a later microtask (never inside undici's callbacks). */
  attemptInto(signal: AbortSignal | undefined, sink: AttemptSink<BackendSuccess>): void {
    const ticket = admitAttempt(this.breaker, sink);
    if (ticket !== undefined) new HttpAttemptRun(this, ticket, signal, sink).start(this.#env);
  }
}


/**
 * One attempt of an {@link HttpCall}, in one object: besides what every
 * {@link AttemptRun} is, the abort hook the transport watches and the sink of
 * the exchange. It settles as {@link httpAttempt} does: the exchange, the
 * per-attempt timeout or the caller's abort, the first of them; then the
 * breaker accounting and the classification.
 */
class HttpAttemptRun extends AttemptRun<HttpExchange> implements AbortHook, HttpResponseSink, SendOptions {
  aborted = false;
  reason: unknown = undefined;
  #listener: AbortListener | undefined = undefined;
  readonly #call: HttpCall;

  constructor(call: HttpCall, ticket: BreakerTicket, signal: AbortSignal | undefined, sink: AttemptSink<BackendSuccess>) {
    super(ticket, signal, sink, call.timeoutMs);
    this.#call = call;
  }

  /** Sends the request, unless the caller's signal had aborted before the attempt started (abandoned, nothing sent). */
  start(env: BackendEnv): void {
    const call = this.#call;
    if (!this.watch(call.clock)) return;
    try {
      // This object is the send options too: its abort hook is itself.
      startHttpRequest(env.dispatcher(), call.request, this, this);
    } catch (error) {
      this.failed(error);
    }
  }

  /** The exchange's response: interpreted, then settled (abandoned when the caller's signal has aborted). */
  received(response: HttpWireResponse): void {
    if (this.settled) return;
    let value: HttpExchange;
    try {
      value = interpretExchange(this.#call.handler, response);
    } catch (error) {
      this.failed(error);
      return;
    }
    this.succeeded(value);
  }

  /** As send options: the attempt's abort hook. */
  get abort(): AbortHook {
    return this;
  }

  /** As send options: the call's credential header names. */
  get sensitiveHeaders(): ReadonlySet<string> | undefined {
    return this.#call.sensitiveHeaders;
  }

  onAbort(listener: AbortListener | undefined): void {
    if (listener !== undefined && this.aborted) {
      callAbortListener(listener, this.reason);
      return;
    }
    this.#listener = listener;
  }

  protected abortExchange(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listener = this.#listener;
    this.#listener = undefined;
    if (listener !== undefined) callAbortListener(listener, reason);
  }

  protected outcomeOf(settlement: AttemptSettlement<HttpExchange>, ticket: BreakerTicket): AttemptOutcome<BackendSuccess> {
    return settleAttempt(settlement, ticket, this.#call);
  }
}

/**
 * Omnia's HTTP health probe: `HEAD` the endpoint; a 5xx is unhealthy
 * (`health check: HTTP 503`), a transport error too (`health check failed:
 * Head "…": …`); any other status is healthy.
 * @internal Does not follow semver.
 */
export async function probeHttp(env: BackendEnv, url: string, auth: Readonly<Record<string, string>>, signal: AbortSignal): Promise<string> {
  let status: number;
  try {
    // The probe carries the handler's credentials: none follows a redirect to another origin, as on a tool call.
    // The endpoint's own query values are the manifest's, as on a call: an error text shows them as ***.
    status = (await sendHttpRequest(env.dispatcher(), { method: "HEAD", url, headers: auth, redactQuery: [...fixedQueryKeys(url, {}).keys()] }, { signal, maxErrorBodyBytes: 0, sensitiveHeaders: credentialHeaderNames(undefined, auth) })).status;
  } catch (e) {
    if (signal.aborted) throw e;
    throw new Error(`health check failed: ${(e as Error).message}`, { cause: e });
  }
  if (status >= 500) throw new Error(`health check: HTTP ${status}`);
  return `HTTP ${status}`;
}
