import type { ConnectError } from "@connectrpc/connect";
import { GRPC_PEERS, GRPC_STATUS_CODE_NAMES, importWithPeers, type Clock } from "../core/index.js";
import type { GrpcStatusCodeName, ToolImplementation, ToolImplementations, ToolServiceContext } from "../grpc/index.js";
import { BackendTimers } from "./backend-delay.js";
import { describe, FaultCursor, faultsFor, normaliseFaultMap, normaliseFaults, sequenceAt, type FaultMap, type FaultScope } from "./fault-schedule.js";

/**
 * A fault the gRPC test backend injects into a tool's `Execute` calls. Every
 * kind takes `calls` ({@link FaultScope}). What the executor makes of each:
 *
 * - `latency`: waits `ms` (on the backend's clock) before the tool runs;
 *   latencies add up and run first. Past the handler's `timeout`:
 *   `timed out after <ms>ms`, a breaker failure.
 * - `status`: ends the call with a gRPC status instead of running the tool.
 *   A list is a sequence over the calls the fault applies to; an `OK` entry
 *   (or the end of the list) lets the tool run. `UNAVAILABLE` and
 *   `DEADLINE_EXCEEDED` are what `retryableStatusCodes` usually names.
 *   Outcome: a `GrpcStatusError` (`gRPC tool execution failed: rpc error: code = Unavailable desc = <message>` through the executor).
 * - `is-error`: answers `is_error = true` with `message`. Outcome:
 *   `tool error: <message>`; not a breaker failure, never retried.
 * - `hang`: never answers; the call ends when the client's deadline passes,
 *   it cancels, or the backend closes.
 * @public
 */
export type GrpcFault =
  | ({ readonly kind: "latency"; readonly ms: number } & FaultScope)
  | ({ readonly kind: "status"; readonly code: GrpcStatusCodeName | readonly GrpcStatusCodeName[]; readonly message?: string } & FaultScope)
  | ({ readonly kind: "is-error"; readonly message: string } & FaultScope)
  | ({ readonly kind: "hang" } & FaultScope);

/**
 * One `Execute` call that reached a tool (its arguments passed the schema).
 * @public
 */
export interface GrpcBackendCall {
  readonly toolName: string;
  /** This call's number among the tool's calls, from 1. */
  readonly call: number;
  /** The parsed arguments. */
  readonly args: unknown;
  /** The request metadata, lower-case keys. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Options of {@link startGrpcToolBackend}.
 * @public
 */
export interface GrpcToolBackendOptions {
  /** Faults per tool name (or `"*"` for every tool). Default: none. */
  readonly faults?: FaultMap<GrpcFault>;
  /** The clock `latency` faults wait on. Default: the real clock (cleared by `close()`). */
  readonly clock?: Clock;
}

/**
 * A running gRPC tool backend on `127.0.0.1`.
 * @public
 */
export interface GrpcToolBackend {
  readonly port: number;
  /** `127.0.0.1:<port>`: a `grpcConfig.endpoint` (with `tls: false`). */
  readonly endpoint: string;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every call that reached a tool, in order. */
  readonly calls: readonly GrpcBackendCall[];
  /** How many calls a tool received (all tools when omitted). */
  count(toolName?: string): number;
  /** Replaces a tool's faults (or `"*"`'s); an empty list removes them. Call numbering goes on. */
  setFaults(toolName: string, faults: GrpcFault | readonly GrpcFault[]): void;
  /** Removes every fault. */
  clearFaults(): void;
  /** Stops the server (ending `hang` calls and latency waits) and resolves when no session or socket is left. Idempotent. */
  close(): Promise<void>;
}

const WHERE = "startGrpcToolBackend";
const KINDS = new Set(["latency", "status", "is-error", "hang"]);

/**
 * Starts a gRPC tool backend: `serveToolService(tools)` on `127.0.0.1`, port
 * 0, with each tool wrapped to inject the faults {@link GrpcFault} lists and
 * to record its calls. Calls rejected before the tool runs (unknown tool,
 * arguments failing the schema) are answered by `serveToolService` and are
 * neither counted nor subject to faults.
 *
 * @example
 * ```ts
 * const backend = await startGrpcToolBackend(
 *   { lookup_order: { description: "Look up an order", inputSchema: { type: "object" }, execute: (a) => ({ id: a.orderId }) } },
 *   { faults: { lookup_order: { kind: "status", code: ["UNAVAILABLE"] } } },
 * );
 * // grpcConfig: { endpoint: backend.endpoint }: call 1 gets UNAVAILABLE, call 2 the result.
 * await backend.close();
 * ```
 * @throws TypeError for a malformed fault or a fault for a tool that is not served
 * @public
 */
export async function startGrpcToolBackend(tools: ToolImplementations, options: GrpcToolBackendOptions = {}): Promise<GrpcToolBackend> {
  if (typeof tools !== "object" || tools === null || Array.isArray(tools)) {
    throw new TypeError(`${WHERE}: tools must be an object of name -> { description, inputSchema, execute }; got ${describe(tools)}`);
  }
  const check = (key: string): void => {
    if (key !== "*" && !Object.prototype.hasOwnProperty.call(tools, key)) {
      throw new TypeError(`${WHERE}: faults for ${JSON.stringify(key)}, a tool this backend does not serve; serving ${Object.keys(tools).join(", ") || "(none)"}`);
    }
  };
  let faults = normaliseFaultMap(WHERE, options.faults, checkFault);
  for (const key of faults.keys()) check(key);
  // connect and protobuf load with the first gRPC backend: importing omnia-tools/testing does not need them.
  const [{ ConnectError }, { serveToolService }] = await importWithPeers(
    () => Promise.all([import("@connectrpc/connect"), import("../grpc/index.js")]),
    WHERE,
    GRPC_PEERS,
  );
  const aborted = (ctx: ToolServiceContext): ConnectError => ConnectError.from(ctx.signal.reason ?? new ConnectError("call ended", GRPC_STATUS_CODE_NAMES.indexOf("CANCELLED")));
  const cursor = new FaultCursor<GrpcFault>();
  const timers = new BackendTimers(options.clock);
  const calls: GrpcBackendCall[] = [];
  const counts = new Map<string, number>();

  const wrapped: Record<string, ToolImplementation> = {};
  for (const [name, impl] of Object.entries(tools)) {
    wrapped[name] = {
      description: impl?.description,
      inputSchema: impl?.inputSchema,
      execute: typeof impl?.execute !== "function" ? impl?.execute : async (args: unknown, ctx: ToolServiceContext) => {
        const call = (counts.get(name) ?? 0) + 1;
        counts.set(name, call);
        calls.push(Object.freeze({ toolName: name, call, args, headers: ctx.headers }));
        const applicable: { fault: GrpcFault; position: number }[] = [];
        for (const fault of faultsFor(faults, name)) {
          const position = cursor.position(fault, call);
          if (position !== undefined) applicable.push({ fault, position });
        }
        const latency = applicable.reduce((ms, a) => ms + (a.fault.kind === "latency" ? a.fault.ms : 0), 0);
        if (latency > 0 && !(await timers.wait(latency, ctx.signal))) throw aborted(ctx);
        for (const { fault, position } of applicable) {
          switch (fault.kind) {
            case "latency":
              continue;
            case "status": {
              const code = sequenceAt(fault.code, position);
              if (code === undefined || code === "OK") continue;
              // The index of a canonical name is its status code, as connect's Code numbers it.
              throw new ConnectError(fault.message ?? `injected ${code}`, GRPC_STATUS_CODE_NAMES.indexOf(code));
            }
            case "is-error":
              throw new Error(fault.message);
            case "hang":
              await new Promise<void>((resolve) => (ctx.signal.aborted ? resolve() : ctx.signal.addEventListener("abort", () => resolve(), { once: true })));
              throw aborted(ctx);
          }
        }
        return impl.execute(args, ctx);
      },
    } as ToolImplementation;
  }

  const server = await serveToolService(wrapped, { host: "127.0.0.1", port: 0 });
  let closing: Promise<void> | undefined;
  return {
    port: server.port,
    endpoint: `127.0.0.1:${server.port}`,
    url: server.url,
    calls,
    count(toolName?: string) {
      return toolName === undefined ? calls.length : (counts.get(toolName) ?? 0);
    },
    setFaults(toolName, list) {
      check(toolName);
      const next = new Map(faults);
      const normalised = normaliseFaults(`${WHERE}: setFaults(${JSON.stringify(toolName)})`, list, checkFault);
      if (normalised.length === 0) next.delete(toolName);
      else next.set(toolName, normalised);
      faults = next;
    },
    clearFaults() {
      faults = new Map();
    },
    close() {
      closing ??= (async () => {
        timers.clear();
        await server.close();
      })();
      return closing;
    },
  };
}

function checkFault(fault: GrpcFault, path: string): void {
  if (!KINDS.has(fault.kind)) throw new TypeError(`${path}.kind: expected one of ${[...KINDS].join(", ")}; got ${describe(fault.kind)}`);
  switch (fault.kind) {
    case "latency":
      if (!(typeof fault.ms === "number" && Number.isFinite(fault.ms) && fault.ms >= 0)) throw new TypeError(`${path}.ms: expected a non-negative number; got ${describe(fault.ms)}`);
      break;
    case "status": {
      const list = Array.isArray(fault.code) ? fault.code : [fault.code];
      if (list.length === 0 || !list.every((c) => (GRPC_STATUS_CODE_NAMES as readonly unknown[]).includes(c))) {
        throw new TypeError(`${path}.code: expected a gRPC status name (UNAVAILABLE, DEADLINE_EXCEEDED, ...) or a non-empty list of them; got ${describe(fault.code)}`);
      }
      break;
    }
    case "is-error":
      if (typeof fault.message !== "string") throw new TypeError(`${path}.message: expected a string; got ${describe(fault.message)}`);
      break;
    default:
      break;
  }
}
