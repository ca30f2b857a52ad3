import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ConfigError, InvalidOptionError, systemClock, toError, type Clock, type Logger } from "../core/index.js";
import { createToolExecutor, type ToolExecutor, type ToolExecutorOptions } from "../executor/index.js";
import { emptyToolRegistry, loadPromptPack, loadToolRegistry, type PackPrompt, type PromptPack, type ToolRegistry } from "../manifest/index.js";
import { createPolicyBrokerClient } from "../policy/index.js";
import { reconcileTools, type ReconcileResult } from "../reconcile/index.js";
import { createSessionApiRecorder, type SessionApiRecorder } from "../records/index.js";
import { readRuntimeEnvironment, type RuntimeEnvironment } from "./environment.js";
import { PrometheusMeter } from "./prometheus.js";
import { serveRuntime, type RuntimeServer, type ServeRuntimeOptions } from "./serve-runtime.js";
import type { RuntimeHandler } from "./types.js";

/** How long calls in flight may run on after SIGTERM before they are ended (Go's GracefulStop bound). */
const DEFAULT_DRAIN_MS = 10_000;
/** How long the session-api recorder may flush at shutdown. */
const DEFAULT_FLUSH_MS = 5_000;

/**
 * What {@link startRuntime} hands the author's `createHandler`.
 * @public
 */
export interface RuntimeStartContext {
  /** The operator's environment, read and checked. */
  readonly environment: RuntimeEnvironment;
  /** The mounted ToolRegistry (`OMNIA_TOOLS_CONFIG_PATH`); an empty one when the variable is unset. */
  readonly registry: ToolRegistry;
  /** The mounted PromptPack (`OMNIA_PROMPTPACK_PATH`). */
  readonly pack: PromptPack;
  /** The pack's prompt named by `OMNIA_PROMPT_NAME`; `undefined` when the pack has no prompt of that name (logged). */
  readonly prompt: PackPrompt | undefined;
  /** The startup reconciliation of the pack against the registry (each mismatch was logged with its fix). */
  readonly reconciliation: ReconcileResult;
  /** The executor over the registry, recording to session-api when `SESSION_API_URL` is set. */
  readonly executor: ToolExecutor;
  /** The session-api recorder, when `SESSION_API_URL` is set. `startRuntime` flushes and closes it. */
  readonly recorder: SessionApiRecorder | undefined;
  /** The frame's logger (`options.logger`, or JSON lines on stderr). */
  readonly logger: Logger;
}

/**
 * Options of {@link startRuntime}.
 * @public
 */
export interface StartRuntimeOptions {
  /** The environment to read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Default: one JSON line per entry on stderr (`{"level":"info","message":...}`), debug discarded. */
  readonly logger?: Logger | undefined;
  /** The interface both servers listen on. Default `0.0.0.0` (inside the pod; the runtime still refuses non-loopback peers as `serveRuntime` does). */
  readonly host?: string | undefined;
  /**
   * After SIGTERM, how long calls in flight may finish, in ms. Default 10 000
   * (Go's `GracefulStop` bound). Streams still open then are ended, and their
   * sessions destroyed 1 s later (`serve.closeGraceMs`); with the recorder's
   * `flushMs`, a stop takes at most `drainMs` + 1 s + `flushMs`.
   */
  readonly drainMs?: number | undefined;
  /** After the drain, how long the recorder may deliver what it holds, in ms. Default 5 000. */
  readonly flushMs?: number | undefined;
  /** Install SIGTERM and SIGINT handlers that stop the runtime and exit 0. Default true. */
  readonly handleSignals?: boolean | undefined;
  /** How the process ends: after a signal-driven stop (0) or a failed start (1). Default `process.exit`. */
  readonly exit?: ((code: number) => void) | undefined;
  /** Extra executor options (a dispatcher, secrets, telemetry's tracer…); registry, recorder, policy, logger and meter are the frame's. */
  readonly executor?: Omit<ToolExecutorOptions, "registry" | "recorder" | "logger"> | undefined;
  /** Extra `serveRuntime` options (limits, heartbeat…); port, host and logger are the frame's. */
  readonly serve?: Omit<ServeRuntimeOptions, "port" | "host" | "logger" | "clock"> | undefined;
  /** The clock for the drain and the servers. Default `systemClock`. */
  readonly clock?: Clock | undefined;
}

/**
 * A started runtime.
 * @public
 */
export interface StartedRuntime {
  /** The environment the runtime was started from. */
  readonly environment: RuntimeEnvironment;
  /** The gRPC server (the facade dials it). */
  readonly server: RuntimeServer;
  /** The bound health port (`/healthz`, `/readyz`, `/metrics`). */
  readonly healthPort: number;
  /**
   * Stops, in Omnia's order: readiness fails first, the gRPC server stops
   * taking calls and lets those in flight finish for `drainMs` (then ends
   * them with UNAVAILABLE), the executor closes, the recorder delivers what it
   * holds within `flushMs`, the health server closes. Never rejects;
   * idempotent. Does not exit the process (the signal handlers do).
   */
  stop(): Promise<void>;
}

const stderrLogger: Logger = {
  debug: () => {},
  info: (message, fields) => process.stderr.write(`${JSON.stringify({ level: "info", message, ...fields })}\n`),
  warn: (message, fields) => process.stderr.write(`${JSON.stringify({ level: "warn", message, ...fields })}\n`),
  error: (message, fields) => process.stderr.write(`${JSON.stringify({ level: "error", message, ...fields })}\n`),
};

/** A mounted pack or registry larger than this is refused: the operator's ConfigMaps hold at most 1 MiB. */
const MAX_MOUNTED_FILE_BYTES = 8 * 1024 * 1024;

/**
 * Reads a mounted file (the pack, the registry) without trusting what the path
 * is: opened non-blocking (a FIFO or a device never holds the read), and only a
 * regular file of at most 8 MiB is read.
 */
async function readMountedFile(path: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
    if (stat.size > MAX_MOUNTED_FILE_BYTES) throw new Error(`${path} is ${stat.size} bytes, over the ${MAX_MOUNTED_FILE_BYTES}-byte limit`);
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/** `pack file unreadable: …` or `pack schema invalid: …` (Omnia's readiness texts), or undefined when the mounted pack is valid. */
async function packProblem(path: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readMountedFile(path);
  } catch (error) {
    return `pack file unreadable: ${toError(error).message}`;
  }
  try {
    loadPromptPack(text, { format: "json" });
    return undefined;
  } catch (error) {
    return `pack schema invalid: ${toError(error).message}`;
  }
}

/**
 * Starts a runtime the way the Omnia operator deploys one (`spec.framework.type:
 * custom`): reads the operator's environment ({@link readRuntimeEnvironment}),
 * loads the mounted PromptPack and ToolRegistry, logs each reconciliation
 * mismatch with its fix, creates the executor (with the session-api recorder
 * when `SESSION_API_URL` is set and the policy broker when `POLICY_BROKER_URL`
 * is), calls `createHandler` with all of it, and serves:
 *
 * - the runtime contract on `OMNIA_GRPC_PORT` (9000) with `serveRuntime`;
 * - on `OMNIA_HEALTH_PORT` (9001): `/healthz` (200 `ok` while the process
 *   serves, whatever the pack), `/readyz` (re-reads and checks the mounted pack
 *   on every probe: 503 `pack file unreadable: …` or `pack schema invalid: …`
 *   while it is broken, 503 `draining` once stopping, else 200 `ok`) and
 *   `/metrics` (Prometheus text: `omnia_tool_calls_total`,
 *   `omnia_tool_call_duration_seconds`, the recorder's counters and
 *   `omnia_runtime_info{agent,namespace} 1`, from a private meter: no
 *   OpenTelemetry global is set).
 *
 * SIGTERM or SIGINT runs {@link StartedRuntime.stop} and exits 0. A start that
 * fails (a missing or malformed variable, a pack or registry that cannot be
 * read or is invalid, a port in use, `createHandler` throwing) logs one
 * `runtime failed to start` line naming the cause and exits 1; with a custom
 * `exit` that returns, the promise rejects with the error.
 *
 * @example
 * ```ts
 * await startRuntime(({ executor, prompt }) => createMyHandler(executor, prompt));
 * ```
 * @public
 */
export async function startRuntime(
  createHandler: (context: RuntimeStartContext) => RuntimeHandler | Promise<RuntimeHandler>,
  options: StartRuntimeOptions = {},
): Promise<StartedRuntime> {
  if (typeof createHandler !== "function") throw new InvalidOptionError(`startRuntime: createHandler must be a function; got ${typeof createHandler}`);
  const logger = safeLogger(options.logger ?? stderrLogger);
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const clock = options.clock ?? systemClock;
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const environment = readRuntimeEnvironment(options.env ?? process.env);
    logger.info("starting runtime", {
      agent: environment.agentName,
      namespace: environment.namespace,
      grpcPort: environment.grpcPort,
      healthPort: environment.healthPort,
      packPath: environment.promptPackPath,
      promptName: environment.promptName,
      toolsConfigPath: environment.toolsConfigPath ?? "",
      sessionAPIURL: environment.sessionApiUrl ?? "",
    });
    const pack = loadPromptPack(await readMountedFile(environment.promptPackPath).catch((e: unknown) => fail("OMNIA_PROMPTPACK_PATH", e)), { format: "json", logger });
    const prompt = pack.prompts[environment.promptName];
    if (prompt === undefined) logger.warn("the pack has no prompt of this name", { promptName: environment.promptName, prompts: Object.keys(pack.prompts) });
    const registry = environment.toolsConfigPath === undefined ? emptyToolRegistry() : loadToolRegistry(await readMountedFile(environment.toolsConfigPath).catch((e: unknown) => fail("OMNIA_TOOLS_CONFIG_PATH", e)), { logger });
    const reconciliation = reconcileTools(pack, registry, { logger });
    const meter = new PrometheusMeter();
    meter.setGauge("omnia_runtime_info", "Runtime information gauge (always 1)", { agent: environment.agentName, namespace: environment.namespace }, 1);
    const sessionApiUrl = environment.sessionApiUrl;
    const recorder = sessionApiUrl === undefined ? undefined : named("SESSION_API_URL", () => createSessionApiRecorder({ url: sessionApiUrl, logger, clock, meter }));
    if (recorder !== undefined) cleanups.push(() => recorder.close({ timeoutMs: options.flushMs ?? DEFAULT_FLUSH_MS }));
    const brokerUrl = environment.policyBrokerUrl;
    const policy = brokerUrl === undefined ? undefined : named("POLICY_BROKER_URL", () => createPolicyBrokerClient({ url: brokerUrl, failOpen: environment.policyBrokerFailOpen }));
    if (policy !== undefined) cleanups.push(() => policy.close());
    const hostTelemetry = options.executor?.telemetry;
    const executor = createToolExecutor({
      ...options.executor,
      registry,
      logger,
      ...(recorder === undefined ? {} : { recorder }),
      ...(policy === undefined ? {} : { policy }),
      telemetry: hostTelemetry === false ? false : { ...hostTelemetry, meter, attributes: { agent: environment.agentName, namespace: environment.namespace, ...hostTelemetry?.attributes } },
    });
    cleanups.unshift(() => executor.close());
    const handler = await createHandler({ environment, registry, pack, prompt, reconciliation, executor, recorder, logger });
    const host = options.host ?? "0.0.0.0";
    // A facade's stream stays open after its status until the client closes it: past the drain, 1 s (not
    // serveRuntime's 5 s) before such sessions are destroyed, so a stop takes drainMs + 1 s + flushMs at most.
    const server = await serveRuntime(handler, { closeGraceMs: 1_000, ...options.serve, port: environment.grpcPort, host, logger, clock });
    cleanups.unshift(() => server.close({ drainMs: options.drainMs ?? DEFAULT_DRAIN_MS }));
    let draining = false;
    // Probes that arrive together share one read of the pack: a burst of /readyz costs one parse.
    let checking: Promise<string | undefined> | undefined;
    const readiness = (): Promise<string | undefined> => {
      checking ??= packProblem(environment.promptPackPath).finally(() => (checking = undefined));
      return checking;
    };
    const health = await listen(
      createServer((req, res) => {
        const path = (req.url ?? "").split("?")[0];
        const answer = (status: number, body: string, type = "text/plain; charset=utf-8"): void => {
          res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
          res.end(body);
        };
        if (path === "/healthz") return answer(200, "ok");
        if (path === "/metrics") return answer(200, meter.render(), "text/plain; version=0.0.4; charset=utf-8");
        if (path !== "/readyz") return answer(404, "404 page not found\n");
        if (draining) return answer(503, "draining\n");
        void readiness().then((problem) => {
          if (problem === undefined) return answer(200, "ok");
          logger.debug("readiness check failed", { error: problem });
          answer(503, `${problem}\n`);
        });
      }),
      environment.healthPort,
      host,
    );
    let stopping: Promise<void> | undefined;
    let onSignal: ((signal: NodeJS.Signals) => void) | undefined;
    const stop = (): Promise<void> =>
      (stopping ??= (async () => {
        draining = true;
        if (onSignal !== undefined) {
          process.off("SIGTERM", onSignal);
          process.off("SIGINT", onSignal);
        }
        logger.info("runtime stopping", { drainMs: options.drainMs ?? DEFAULT_DRAIN_MS });
        for (const cleanup of cleanups) await cleanup().catch((error: unknown) => logger.error("runtime stop step failed", { error: toError(error).message }));
        await health.close();
        logger.info("runtime stopped", {});
      })());
    if (options.handleSignals !== false) {
      onSignal = (signal: NodeJS.Signals): void => {
        logger.info("signal received", { signal });
        void stop().then(() => exit(0));
      };
      // A second signal while stopping finds no handler: Node's default ends the process at once.
      process.once("SIGTERM", onSignal);
      process.once("SIGINT", onSignal);
    }
    logger.info("runtime listening", { grpc: server.url, healthPort: health.port, offered: reconciliation.offered });
    return { environment, server, healthPort: health.port, stop };
  } catch (error) {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
    logger.error("runtime failed to start", { error: toError(error).message });
    exit(1);
    throw error;
  }
}

/** The variable's name on an error about its value (`SESSION_API_URL: createSessionApiRecorder: url …`). */
function fail(variable: string, error: unknown): never {
  throw new ConfigError({ path: "", message: `${variable}: ${toError(error).message}` }, { cause: error });
}

function named<T>(variable: string, make: () => T): T {
  try {
    return make();
  } catch (error) {
    return fail(variable, error);
  }
}

/** The host's logger, whose throw never reaches a probe, a stop or a start. */
function safeLogger(logger: Logger): Logger {
  const guard =
    (level: keyof Logger) =>
    (message: string, fields?: Readonly<Record<string, unknown>>): void => {
      try {
        logger[level](message, fields);
      } catch {
        // a broken log transport must not stop the runtime
      }
    };
  return { debug: guard("debug"), info: guard("info"), warn: guard("warn"), error: guard("error") };
}

/** Listens, and closes with every connection dropped (a probe holds nothing open). */
async function listen(server: Server, port: number, host: string): Promise<{ port: number; close(): Promise<void> }> {
  // Go's health server reads a request's headers within 10 s; no probe needs longer for anything.
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
