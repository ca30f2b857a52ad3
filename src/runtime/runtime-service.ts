import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, type ContextValues, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { toError } from "../core/index.js";
import {
  CONTRACT_VERSION,
  ResumeState,
  RuntimeService,
  type ClientMessage,
  type EndConversationRequest,
  type HasConversationRequest,
  type HasConversationResponseSchema,
  type InvocationProgressSchema,
  type InvocationRequest,
  type InvocationResponseSchema,
  type WatchInvocationRequest,
} from "../contract/index.js";
import { identityFromMetadata } from "../headers/index.js";
import { resolveCapabilities } from "./capabilities.js";
import { RuntimeMessages } from "./constants.js";
import { ConverseSession, type ServerFrame } from "./converse-session.js";
import { registerHealth } from "../grpc/index.js";
import { InvocationHub } from "./invocation-hub.js";
import { resolveServiceOptions, type RuntimeServiceOptions } from "./options.js";
import { toInt64, usageToProto } from "./parts.js";
import { RUNTIME_PEER_ADDRESS, runtimeContextValues } from "./peer.js";
import type { ConversationProbeResult, InvocationEvent, InvocationResult, RuntimeCallContext, RuntimeHandler } from "./types.js";
import { createRecordSequence } from "./record-sequence.js";

const INT32_MAX = 2_147_483_647;

/**
 * What `createRuntimeService` returns: connect routes that register
 * `omnia.runtime.v1.RuntimeService` (and, unless `grpcHealth` is false, the
 * standard `grpc.health.v1.Health`), for `connectNodeAdapter({ routes })` or
 * any `ConnectRouter`. Pass `contextValues` to the adapter as well, so that
 * `WatchInvocation` can see the peer address (without it, every peer is
 * unknown and gets `PermissionDenied`).
 * @public
 */
export interface RuntimeRoutes {
  (router: ConnectRouter): void;
  /** The service implementation itself, for `router.service(RuntimeService, routes.service)`. */
  readonly service: ServiceImpl<typeof RuntimeService>;
  /** Sets `RUNTIME_PEER_ADDRESS` from the request's socket; shaped for `connectNodeAdapter({ contextValues })`. */
  readonly contextValues: (req: { readonly socket?: { readonly remoteAddress?: string | undefined } | null | undefined }) => ContextValues;
}

type ProgressFrame = MessageInitShape<typeof InvocationProgressSchema>;

function progressFrame(event: InvocationEvent): ProgressFrame {
  return event.type === "tool_call"
    ? { progress: { case: "toolCall", value: { callId: event.callId, name: event.name } } }
    : { progress: { case: "toolResult", value: { callId: event.callId, name: event.name, ok: event.ok, durationMs: event.durationMs } } };
}

function resumeState(result: ConversationProbeResult): MessageInitShape<typeof HasConversationResponseSchema> {
  const state = typeof result === "object" && result !== null ? result.state : result;
  if (state === "resumable") return { state: ResumeState.RESUMABLE };
  if (state === "notFound") return { state: ResumeState.NOT_FOUND };
  const detail = typeof result === "object" && result !== null && typeof result.detail === "string" ? result.detail : "";
  return { state: ResumeState.UNAVAILABLE, detail };
}

/** Thrown when a call's signal aborts before its hook settled. */
class CallAborted {
  readonly error: ConnectError;
  constructor(signal: AbortSignal) {
    const reason: unknown = signal.reason;
    this.error = reason instanceof ConnectError ? reason : new ConnectError("the call was cancelled", Code.Canceled);
  }
}

/**
 * Settles with the hook's result, or rejects with a {@link CallAborted} as soon
 * as the call's signal aborts, so a hook that ignores its signal cannot hold a
 * cancelled call (or the server's shutdown) open.
 */
function untilAborted<T>(value: T | Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new CallAborted(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new CallAborted(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(value).then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

function clampDuration(ms: number): number {
  return Number.isFinite(ms) ? Math.min(INT32_MAX, Math.max(0, Math.round(ms))) : 0;
}

/**
 * Builds the `omnia.runtime.v1.RuntimeService` for a {@link RuntimeHandler}
 * (contract 1.9.0; the behaviour of Omnia's Go SDK, `pkg/runtime/service.go`):
 *
 * - `Converse`: a `RuntimeHello` (capabilities equal to Health's) as the
 *   first frame of every stream; identity and the facade-hop keys rehydrated
 *   once per stream; turns strictly in order; a `heartbeat` every
 *   `heartbeatIntervalMs` while a turn runs; a stream opened with
 *   `duplex_start` served by `handler.duplex` (the counter-offer of
 *   `handler.negotiateDuplex` in its hello); `duplex_start` without a `duplex`
 *   handler, or on a later message, and `audio_input` outside a duplex session
 *   answered with `DUPLEX_UNSUPPORTED` (never a turn); text sent beside a
 *   `client_tool_result` refused with a warning; a failing
 *   turn answered with the fixed `INTERNAL_ERROR` frame; an empty `Done` when
 *   the handler returns without one. Malformed input never ends the stream
 *   with `Internal` or `Unknown`.
 * - `Invoke`, `HasConversation`, `EndConversation`, `Health` and
 *   `WatchInvocation` (loopback peers only by default).
 * - `grpc.health.v1.Health`: `Check("")` answers `SERVING`.
 *
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for a handler
 * without `converse`, an unknown option or an out-of-range value.
 * @example
 * ```ts
 * import * as http2 from "node:http2";
 * import { connectNodeAdapter } from "@connectrpc/connect-node";
 * import { createRuntimeService } from "omnia-tools/runtime";
 *
 * const routes = createRuntimeService(handler, { heartbeatIntervalMs: 30_000 });
 * http2.createServer(connectNodeAdapter({ routes, contextValues: routes.contextValues })).listen(9000);
 * ```
 * @public
 */
export function createRuntimeService(handler: RuntimeHandler, options?: RuntimeServiceOptions): RuntimeRoutes {
  return buildRuntimeService("createRuntimeService", handler, options, []);
}

/** {@link createRuntimeService} with a caller name and extra option keys (for `serveRuntime`). @internal Does not follow semver. */
export function buildRuntimeService(
  where: string,
  handler: RuntimeHandler,
  options: RuntimeServiceOptions | undefined,
  extraKeys: readonly string[],
): RuntimeRoutes {
  const o = resolveServiceOptions(where, handler, options, extraKeys);
  const { logger, clock } = o;
  const hub = new InvocationHub(logger);
  const capabilities = (): string[] => resolveCapabilities(handler, o.capabilities);
  const deps = { handler, capabilities, heartbeatIntervalMs: o.heartbeatIntervalMs, clock, logger };
  const callContext = (ctx: HandlerContext): RuntimeCallContext => ({
    identity: identityFromMetadata(ctx.requestHeader, { logger }).identity,
    signal: ctx.signal,
  });

  const service: ServiceImpl<typeof RuntimeService> = {
    converse(requests: AsyncIterable<ClientMessage>, ctx: HandlerContext): AsyncIterable<ServerFrame> {
      const incoming = identityFromMetadata(ctx.requestHeader, { logger });
      return new ConverseSession(deps, requests, incoming, ctx.signal).frames();
    },

    async invoke(req: InvocationRequest, ctx: HandlerContext): Promise<MessageInitShape<typeof InvocationResponseSchema>> {
      const invoke = handler.invoke;
      if (typeof invoke !== "function") throw new ConnectError(RuntimeMessages.INVOKE_UNSUPPORTED, Code.Unimplemented);
      if (req.invocationId === "" || req.inputJson === "") throw new ConnectError(RuntimeMessages.INVOKE_ARGS_REQUIRED, Code.InvalidArgument);
      const started = clock.now();
      const run = hub.start(req.invocationId);
      const recordSequence = createRecordSequence(req.recordSequenceBase);
      let result: InvocationResult;
      try {
        result = await untilAborted(
          invoke.call(handler, {
            ...callContext(ctx),
            inputJson: req.inputJson,
            invocationId: req.invocationId,
            metadata: { ...req.metadata },
            recordSequenceBase: req.recordSequenceBase,
            recordSequence,
            progress: run.events,
          }),
          ctx.signal,
        );
        if (result === null || typeof result !== "object" || typeof result.outputJson !== "string") {
          throw new TypeError(`invoke: the handler must return { outputJson: string }; got ${result === null ? "null" : typeof result}`);
        }
        return {
          outputJson: result.outputJson,
          ...(result.usage === undefined ? {} : { usage: usageToProto(result.usage) }),
          durationMs: clampDuration(result.durationMs ?? clock.now() - started),
          invocationId: req.invocationId,
          recordSequenceHighWater: toInt64(result.recordSequenceHighWater, recordSequence.last),
        };
      } catch (err) {
        if (err instanceof CallAborted) throw err.error;
        logger.error("runtime: invoke handler failed", { invocationId: req.invocationId, error: toError(err).message });
        throw new ConnectError(RuntimeMessages.INVOKE_FAILED, Code.Internal);
      } finally {
        run.finish();
      }
    },

    health() {
      let caps: string[];
      try {
        caps = capabilities();
      } catch (err) {
        logger.error("runtime: capabilities() failed", { error: toError(err).message });
        throw new ConnectError("runtime capabilities are unavailable", Code.Unavailable);
      }
      return { healthy: true, status: RuntimeMessages.HEALTH_STATUS, contractVersion: CONTRACT_VERSION, capabilities: caps };
    },

    async hasConversation(req: HasConversationRequest, ctx: HandlerContext): Promise<MessageInitShape<typeof HasConversationResponseSchema>> {
      if (req.sessionId === "") throw new ConnectError(RuntimeMessages.SESSION_ID_REQUIRED, Code.InvalidArgument);
      const probe = handler.hasConversation;
      if (typeof probe !== "function") return { state: ResumeState.UNAVAILABLE, detail: RuntimeMessages.RESUME_UNSUPPORTED };
      try {
        return resumeState(await untilAborted(probe.call(handler, req.sessionId, callContext(ctx)), ctx.signal));
      } catch (err) {
        if (err instanceof CallAborted) throw err.error;
        logger.error("runtime: hasConversation handler failed", { sessionId: req.sessionId, error: toError(err).message });
        return { state: ResumeState.UNAVAILABLE, detail: "resume probe failed" };
      }
    },

    async endConversation(req: EndConversationRequest, ctx: HandlerContext) {
      const end = handler.endConversation;
      if (typeof end !== "function") throw new ConnectError(RuntimeMessages.END_CONVERSATION_UNSUPPORTED, Code.Unimplemented);
      if (req.sessionId === "") throw new ConnectError(RuntimeMessages.SESSION_ID_REQUIRED, Code.InvalidArgument);
      try {
        await untilAborted(end.call(handler, req.sessionId, callContext(ctx)), ctx.signal);
      } catch (err) {
        if (err instanceof CallAborted) throw err.error;
        logger.error("runtime: endConversation handler failed", { sessionId: req.sessionId, error: toError(err).message });
        throw new ConnectError(RuntimeMessages.END_CONVERSATION_FAILED, Code.Internal);
      }
      return {};
    },

    async *watchInvocation(req: WatchInvocationRequest, ctx: HandlerContext): AsyncGenerator<ProgressFrame, void, undefined> {
      if (typeof handler.invoke !== "function") throw new ConnectError(RuntimeMessages.INVOKE_UNSUPPORTED, Code.Unimplemented);
      const peer = ctx.values.get(RUNTIME_PEER_ADDRESS);
      let allowed = false;
      try {
        allowed = o.isPeerAllowed(peer) === true;
      } catch (err) {
        logger.error("runtime: isPeerAllowed failed; denying the peer", { error: toError(err).message });
      }
      if (!allowed) throw new ConnectError(`peer ${peer ?? "unknown"} not allowed`, Code.PermissionDenied);
      if (req.invocationId === "") throw new ConnectError(RuntimeMessages.INVOCATION_ID_REQUIRED, Code.InvalidArgument);
      const watcher = hub.watch(req.invocationId);
      try {
        yield { progress: { case: "ready", value: {} } };
        for await (const event of watcher.events(ctx.signal)) yield progressFrame(event);
      } finally {
        hub.unwatch(watcher);
      }
    },
  };

  const routes = (router: ConnectRouter): void => {
    router.service(RuntimeService, service);
    if (o.grpcHealth) registerHealth(router, [RuntimeService.typeName]);
  };
  return Object.assign(routes, { service, contextValues: runtimeContextValues });
}
