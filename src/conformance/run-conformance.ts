import { createClient, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { RuntimeService } from "../contract/index.js";
import { AbortedError, InvalidOptionError, systemClock, type Clock } from "../core/index.js";
import { runtimeBaseUrl } from "./addr.js";
import { checkDuplexHonesty, checkHealth, checkInvokeHonesty, checkMalformedInput, checkTextTurn, type CheckContext } from "./checks.js";
import type { CheckResult } from "./constants.js";
import { openScope } from "./deadline.js";

/**
 * The overall timeout of a run when `timeoutMs` is not given: 30 s, the
 * `runtime-conformance` CLI's `--timeout` default.
 * @public
 */
export const DEFAULT_CONFORMANCE_TIMEOUT_MS = 30_000;

/**
 * Where the runtime under test is: exactly one of `addr` or `transport`.
 * @public
 */
export type ConformanceTarget =
  | {
      /**
       * The runtime's gRPC endpoint as `host:port` (`127.0.0.1:9000`,
       * `runtime.local:9000`, `[::1]:9000`). The suite dials it with plaintext
       * HTTP/2 (h2c, prior knowledge), as Omnia's facade does, and closes the
       * HTTP/2 session before it returns.
       */
      readonly addr: string;
      readonly transport?: undefined;
    }
  | {
      /**
       * Any connect transport speaking to a RuntimeService (gRPC, gRPC-web,
       * Connect, or an in-memory router transport). The caller owns it: the
       * suite does not close it.
       */
      readonly transport: Transport;
      readonly addr?: undefined;
    };

/**
 * Options of {@link runConformance}.
 * @public
 */
export type RunConformanceOptions = ConformanceTarget & {
  /**
   * The overall time limit of the whole run, in milliseconds (Go's `ctx`
   * deadline). Health runs under it alone; each Converse and Invoke probe also
   * has its own 10 s limit (`CONFORMANCE.PROBE_TIMEOUT_MS`). Checks that run
   * out of time fail or pass exactly as a deadline-exceeded RPC makes them;
   * the run still returns a result. `Infinity` means no overall limit.
   * Default: 30 000 ({@link DEFAULT_CONFORMANCE_TIMEOUT_MS}).
   */
  readonly timeoutMs?: number;
  /** Aborting it abandons the run: `runConformance` rejects with `AbortedError`. */
  readonly signal?: AbortSignal;
  /** The clock that times the overall and per-probe limits. Default: `systemClock`. */
  readonly clock?: Clock;
};

/**
 * The outcome of a conformance run.
 * @public
 */
export interface ConformanceResult {
  /** `true` when no check failed (skips never fail a run). */
  readonly passed: boolean;
  /** Every check, in run order: `health/contract`, `hello-first`, `text-turn-shape`, `graceful-malformed-input`, `invoke-honesty`, `duplex-honesty`. */
  readonly checks: readonly CheckResult[];
}

/**
 * Runs the omnia.runtime.v1 protocol conformance suite against a runtime, with
 * the checks, skip rules and detail strings of Omnia's `pkg/runtime/conformance`
 * (`checks.go`, `conformance.go`):
 *
 * 1. `health/contract`: Health answers `healthy: true` and a `N.N.N` `contract_version`.
 *    If it fails, every other check is skipped.
 * 2. `hello-first`: on a text turn, frame 0 is a `RuntimeHello` whose capabilities equal Health's.
 * 3. `text-turn-shape`: the text turn ends with a `done` within 16 frames, never before the hello.
 *    A runtime advertising no capabilities is legacy (pre-negotiation): checks 2 and 3 are skipped.
 * 4. `graceful-malformed-input`: an empty message does not crash the stream (`Internal`, `Unknown`, `DataLoss`).
 * 5. `invoke-honesty`: `Invoke` answers Unimplemented exactly when `invoke` is not advertised.
 * 6. `duplex-honesty`: an advertised `duplex_audio` session emits a first frame; skipped when not advertised.
 *
 * The suite is protocol-only: it never checks response content. It keeps the Go
 * suite's known weaknesses for parity: any first duplex frame passes (even an
 * `error` frame), any non-Unimplemented Invoke outcome passes when `invoke` is
 * advertised, and a runtime that sends more than 15 frames before `done` fails
 * `text-turn-shape`.
 *
 * A failure to reach the runtime is not thrown: it is a failed `health/contract`
 * check (`Health RPC failed: …`).
 *
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for a bad option, e.g. an `addr` that is not `host:port`
 * @throws AbortedError (`ERR_OMNIA_ABORTED`) when `signal` aborts
 * @example
 * ```ts
 * import { runConformance } from "omnia-tools/conformance";
 *
 * const { passed, checks } = await runConformance({ addr: "127.0.0.1:9000", timeoutMs: 10_000 });
 * for (const c of checks) console.log(c.name, c.status, c.detail);
 * process.exitCode = passed ? 0 : 1;
 * ```
 * @public
 */
export async function runConformance(options: RunConformanceOptions): Promise<ConformanceResult> {
  const { baseUrl, transport: given, timeoutMs, signal, clock } = validate(options);
  if (signal?.aborted === true) throw aborted(signal);
  const sessionManager = baseUrl === undefined ? undefined : new Http2SessionManager(baseUrl);
  const transport = given ?? createGrpcTransport({ baseUrl: baseUrl as string, ...(sessionManager === undefined ? {} : { sessionManager }) });
  const run = openScope(clock, timeoutMs, signal);
  try {
    const ctx: CheckContext = { client: createClient(RuntimeService, transport), clock, run };
    const checks: CheckResult[] = [];
    const health = await checkHealth(ctx);
    checks.push(health.result);
    checks.push(...(await checkTextTurn(ctx, health.caps)));
    checks.push(await checkMalformedInput(ctx, health.caps));
    checks.push(await checkInvokeHonesty(ctx, health.caps));
    checks.push(await checkDuplexHonesty(ctx, health.caps));
    // The checks ran to the end under an aborted signal (their RPCs were cancelled): the result is moot.
    if (isAborted(signal)) throw aborted(signal as AbortSignal);
    return { passed: checks.every((c) => c.status !== "fail"), checks };
  } finally {
    run.dispose();
    // connect-node keeps an HTTP/2 session open after the last call; end ours.
    sessionManager?.abort();
  }
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function aborted(signal: AbortSignal): AbortedError {
  return new AbortedError("runConformance: aborted by the caller's signal", { cause: signal.reason });
}

interface Validated {
  readonly baseUrl: string | undefined;
  readonly transport: Transport | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly clock: Clock;
}

function validate(options: RunConformanceOptions): Validated {
  if (typeof options !== "object" || options === null) {
    throw new InvalidOptionError(`runConformance: options must be an object; got ${describe(options)}`);
  }
  const { addr, transport, timeoutMs = DEFAULT_CONFORMANCE_TIMEOUT_MS, signal, clock = systemClock } = options;
  if ((addr === undefined) === (transport === undefined)) {
    throw new InvalidOptionError(
      `runConformance: exactly one of addr or transport is required; got ${addr === undefined ? "neither" : "both"}`,
    );
  }
  if (addr !== undefined && typeof addr !== "string") throw new InvalidOptionError(`runConformance: addr must be a string; got ${describe(addr)}`);
  if (transport !== undefined && (typeof transport !== "object" || transport === null || typeof transport.stream !== "function" || typeof transport.unary !== "function")) {
    throw new InvalidOptionError(`runConformance: transport must be a connect Transport; got ${describe(transport)}`);
  }
  if (typeof timeoutMs !== "number" || Number.isNaN(timeoutMs) || timeoutMs < 0) {
    throw new InvalidOptionError(`runConformance: timeoutMs must be a number >= 0 (Infinity for no limit); got ${describe(timeoutMs)}`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new InvalidOptionError(`runConformance: signal must be an AbortSignal; got ${describe(signal)}`);
  }
  if (typeof clock !== "object" || clock === null || typeof clock.now !== "function" || typeof clock.setTimeout !== "function") {
    throw new InvalidOptionError(`runConformance: clock must have now() and setTimeout(); got ${describe(clock)}`);
  }
  return {
    baseUrl: addr === undefined ? undefined : runtimeBaseUrl(addr, "runConformance"),
    transport,
    timeoutMs,
    signal,
    clock,
  };
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || value === undefined || value === null) return String(value);
  return typeof value;
}
