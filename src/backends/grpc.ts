import { ErrorCode, GRPC_PEERS, importWithPeers, systemClock, toError, type Clock, type Logger } from "../core/index.js";
import { buildOmniaGrpcMetadata, mergeGrpcToolMetadata } from "../headers/index.js";
import type { GrpcHandlerConfig } from "../manifest/index.js";
import type { CircuitBreaker } from "../breaker/index.js";
import type { ToolServiceCallOptions, ToolServiceClient } from "../grpc/index.js";
import { classifyGrpcStatus, runAbortableAttempt, type AttemptOutcome } from "../retry/index.js";
import type { Backend, BackendCall, BackendEnv, BackendSuccess, PreparedCall } from "./backend.js";
import { grpcRetrySetup } from "./retry-setup.js";

/**
 * The gRPC module (connect, protobuf and the generated ToolService), loaded on
 * an executor's first gRPC call, so that importing the package does not load connect.
 * @internal Does not follow semver.
 */
export type GrpcModule = typeof import("../grpc/index.js");

/** What one gRPC call needs before its first attempt. @internal Does not follow semver. */
export interface PreparedGrpcCall {
  readonly handler: GrpcHandlerConfig;
  readonly client: ToolServiceClient;
  /** The loaded gRPC module: its outcome mapping and status error class. */
  readonly grpc: GrpcModule;
  /** The arguments as the opaque JSON string sent in `arguments_json`. */
  readonly argumentsJson: string;
  /** Lowercase metadata: identity, tool keys, the handler's authorization, broker-injected entries. */
  readonly metadata: Readonly<Record<string, string>>;
}

/** The prefix of a failed Execute's text, as Omnia's gRPC executor writes it. */
const GRPC_EXECUTION_FAILED = "gRPC tool execution failed: ";

/**
 * One gRPC attempt: breaker admission, then Execute under the per-attempt
 * timeout (also sent as `grpc-timeout`). Breaker accounting, as Omnia's: a
 * non-OK status or a timeout is a failure; an `is_error` response is not (the
 * tool answered); an abandoned attempt counts as nothing.
 *
 * The call gets an `AbortSignal` only when something other than connect's own
 * deadline can end it early: the caller's signal, or a timeout on a clock that
 * is not the system clock (a test's manual clock). On the system clock the
 * attempt's timer and connect's `timeoutMs` deadline fire together, and
 * `close()` ends calls through the client's session. Linking a signal into
 * connect cost about 2 % of a loopback call's CPU (issue #13).
 * @internal Does not follow semver.
 */
export async function grpcAttempt(
  call: PreparedGrpcCall,
  deps: {
    readonly breaker: CircuitBreaker;
    readonly clock: Clock;
    readonly retryable: readonly string[];
    readonly logger: Logger;
    readonly closing?: AbortSignal;
  },
  signal: AbortSignal | undefined,
): Promise<AttemptOutcome<BackendSuccess>> {
  const ticket = deps.breaker.admit();
  const timeoutMs = call.handler.timeoutMs;
  // The executor's own close signal needs no link: close() ends gRPC calls through the client's session.
  const linked = (signal !== undefined && signal !== deps.closing) || (timeoutMs > 0 && deps.clock !== systemClock);
  const options: ToolServiceCallOptions = timeoutMs > 0 ? { headers: call.metadata, timeoutMs } : { headers: call.metadata };
  const { GrpcStatusError, interpretToolResponse } = call.grpc;
  const settled = await runAbortableAttempt(
    (abort) => call.client.execute(call.handler.tool.name, call.argumentsJson, linked ? { ...options, signal: abort.signal } : options),
    { clock: deps.clock, timeoutMs, signal },
  );
  switch (settled.kind) {
    case "abandoned":
      ticket.abandon();
      return { kind: "abandoned", error: settled.error };
    case "timeout":
      ticket.failure();
      return { kind: "failure", error: settled.error, ...classifyGrpcStatus("DEADLINE_EXCEEDED", deps.retryable) };
    case "error": {
      const error = settled.error;
      // The executor was closed under the call: the call is abandoned, not the backend's failure.
      if ((error as { code?: unknown }).code === ErrorCode.CLOSED) {
        ticket.abandon();
        return { kind: "failure", error, retryable: false };
      }
      ticket.failure();
      if (!(error instanceof GrpcStatusError)) return { kind: "failure", error, ...classifyGrpcStatus(undefined, deps.retryable) };
      // Omnia's executor wraps a failed Execute: the model sees `gRPC tool execution failed: rpc error: ...`.
      const wrapped = new GrpcStatusError(error.grpcCodeNumber, error.statusMessage, { cause: error, prefix: GRPC_EXECUTION_FAILED });
      return { kind: "failure", error: wrapped, ...classifyGrpcStatus(error.grpcCode, deps.retryable) };
    }
    case "success": {
      const meaning = interpretToolResponse(settled.value);
      // is_error is the tool's own answer: not a breaker failure, never retried.
      ticket.success();
      if (meaning.status === "success") return { kind: "success", value: { result: meaning.result, resultJson: meaning.resultJson } };
      return { kind: "failure", error: meaning.error, retryable: false };
    }
  }
}

/** connect and protobuf, or a MissingPeerError naming them when they are not installed. */
function importGrpcModule(): Promise<GrpcModule> {
  return importWithPeers(() => import("../grpc/index.js"), "the gRPC backend", GRPC_PEERS);
}

/**
 * The `grpc` backend: ToolService/Execute over one client (one HTTP/2 session)
 * per handler, created on the handler's first call and closed with the executor.
 * `importGrpc` loads connect and protobuf (on the first call); tests hold it to
 * close the executor while the module loads.
 * @internal Does not follow semver.
 */
export function createGrpcBackend(env: BackendEnv, importGrpc: () => Promise<GrpcModule> = importGrpcModule): Backend {
  const clients = new Map<string, ToolServiceClient>();
  let grpc: GrpcModule | undefined;
  let loading: Promise<GrpcModule> | undefined;
  /** The gRPC module, imported on the first call; a failed import is retried by the next call. */
  const loadGrpc = (): Promise<GrpcModule> =>
    (loading ??= importGrpc().then(
      (m) => (grpc = m),
      (e: unknown) => {
        loading = undefined;
        throw e;
      },
    ));
  const clientOf = (m: GrpcModule, handler: GrpcHandlerConfig): ToolServiceClient => {
    let client = clients.get(handler.name);
    if (client === undefined) {
      const g = handler.grpcConfig;
      client = m.createToolServiceClient({
        endpoint: g.endpoint,
        tls: g.tls,
        tlsInsecureSkipVerify: g.tlsInsecureSkipVerify,
        ...(g.tlsCertPath === undefined ? {} : { tlsCertPath: g.tlsCertPath }),
        ...(g.tlsKeyPath === undefined ? {} : { tlsKeyPath: g.tlsKeyPath }),
        ...(g.tlsCAPath === undefined ? {} : { tlsCAPath: g.tlsCAPath }),
        logger: env.logger,
      });
      clients.set(handler.name, client);
    }
    return client;
  };
  return {
    async probe(handler, auth, signal) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(auth)) headers[name.toLowerCase()] = value;
      let status: string;
      try {
        status = await clientOf(grpc ?? (await loadGrpc()), handler as GrpcHandlerConfig).checkHealth({ headers, signal });
      } catch (e) {
        if (signal.aborted) throw e;
        throw new Error(`health check failed: ${(e as Error).message}`, { cause: e });
      }
      if (status !== "SERVING") throw new Error(`health check: ${status}`);
      return status;
    },
    prepare(call: BackendCall): PreparedCall {
      const handler = call.handler as GrpcHandlerConfig;
      // Most handlers have no auth and no injected headers: no rest/spread copies for them.
      let authorization: string | undefined;
      let extra: Readonly<Record<string, string>> | undefined = call.injected;
      if (handler.auth !== undefined) {
        const { Authorization, ...otherAuth } = call.auth;
        authorization = Authorization;
        extra = { ...otherAuth, ...call.injected };
      }
      const argumentsJson = typeof call.rawArgs === "string" ? call.rawArgs : JSON.stringify(call.args ?? {});
      const metadata = mergeGrpcToolMetadata(
        {
          omnia: buildOmniaGrpcMetadata({
            identity: call.identity,
            agent: env.agent,
            toolName: call.toolName,
            handlerName: handler.name,
            delegationToken: call.delegationToken,
            logger: env.logger,
          }),
          authorization,
          injected: extra,
        },
        { logger: env.logger },
      );
      // Opt-in (telemetry.grpcMetadata): W3C trace context, written last over any entry of the same name.
      if (call.injectTrace !== undefined) call.injectTrace(metadata);
      const setup = grpcRetrySetup(handler);
      const deps = { breaker: call.breaker!, clock: env.clock, retryable: setup.retryable, logger: env.logger, closing: env.closing };
      const preparedWith = (m: GrpcModule): PreparedGrpcCall => ({ handler, client: clientOf(m, handler), grpc: m, argumentsJson, metadata });
      if (grpc !== undefined) {
        const prepared = preparedWith(grpc);
        return { policy: setup.policy, attempt: (signal) => grpcAttempt(prepared, deps, signal) };
      }
      // The executor's first gRPC call: the module loads before the first attempt (a failed load is that attempt's failure).
      let prepared: PreparedGrpcCall | undefined;
      return {
        policy: setup.policy,
        async attempt(signal) {
          if (prepared === undefined) {
            let m: GrpcModule;
            try {
              m = await loadGrpc();
            } catch (e) {
              return { kind: "failure", error: toError(e), retryable: false };
            }
            // Closed while the module loaded: no client (and no HTTP/2 session) is opened past close().
            if (env.closing.aborted) return { kind: "abandoned", error: toError(env.closing.reason) };
            prepared = preparedWith(m);
          }
          return grpcAttempt(prepared, deps, signal);
        },
      };
    },
    async close() {
      await Promise.all([...clients.values()].map((c) => c.close()));
      clients.clear();
    },
  };
}
