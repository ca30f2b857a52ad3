// startRuntime (issue #34 section 1): a runtime started from the environment the
// Omnia operator injects, with the mounted pack and registry, its health server
// (/healthz, /readyz re-checking the pack, /metrics) and the drain on stop; and
// examples/echo-runtime/main.ts run as a process with only that environment.
import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ConfigError } from "../src/core/index.js";
import { readRuntimeEnvironment, startRuntime, turnText, type Emitter, type RuntimeHandler, type StartedRuntime, type Turn } from "../src/runtime.js";
import { createManualClock } from "../src/testing/index.js";
import { createEchoHandler } from "../examples/echo-runtime/echo-runtime.js";
import { createCaptureLogger } from "./helpers/capture-logger.js";
import { startHttpServer } from "./helpers/http-server.js";
import { startFakeBroker } from "./helpers/policy-broker.js";
import { startSessionApi } from "./helpers/session-api.js";
import { converse, createRuntimeClient, frameJson, openConverse } from "./helpers/runtime-client.js";

const PACK = readFileSync("examples/pack.json", "utf8");

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "omnia-start-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A registry with one http tool, get_weather, on `url`. */
function registryFor(url: string): string {
  return `handlers:
  - name: weather-api
    type: http
    tool:
      name: get_weather
      description: Current weather for a city.
      inputSchema: { type: object, properties: { city: { type: string } }, required: [city] }
    httpConfig: { endpoint: ${url}, method: GET }
`;
}

test("readRuntimeEnvironment: Omnia's defaults, and one error naming each bad variable", () => {
  const env = readRuntimeEnvironment({ OMNIA_AGENT_NAME: "echo", OMNIA_NAMESPACE: "dev", OMNIA_TOOLS_CONFIG_PATH: "" });
  assert.deepEqual(
    { ...env, tracing: { ...env.tracing } },
    {
      agentName: "echo",
      namespace: "dev",
      grpcPort: 9000,
      healthPort: 9001,
      promptPackPath: "/etc/omnia/pack/pack.json",
      promptName: "default",
      toolsConfigPath: undefined,
      sessionApiUrl: undefined,
      policyBrokerUrl: undefined,
      policyBrokerFailOpen: false,
      tracing: { enabled: false, endpoint: undefined, insecure: false, sampleRate: undefined },
    },
  );
  const failure = (vars: Record<string, string>): string => {
    try {
      readRuntimeEnvironment(vars);
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      return error.message;
    }
    return "no error";
  };
  assert.equal(failure({}), "OMNIA_AGENT_NAME and OMNIA_NAMESPACE are required (set via Downward API)");
  assert.equal(failure({ OMNIA_AGENT_NAME: "a" }), "OMNIA_NAMESPACE is required (set via Downward API)");
  assert.equal(failure({ OMNIA_NAMESPACE: "n", OMNIA_AGENT_NAME: "" }), "OMNIA_AGENT_NAME is required (set via Downward API)");
  const base = { OMNIA_AGENT_NAME: "a", OMNIA_NAMESPACE: "n" };
  assert.equal(failure({ ...base, OMNIA_GRPC_PORT: "90x" }), 'invalid OMNIA_GRPC_PORT: "90x" is not a port number from 0 to 65535');
  assert.equal(failure({ ...base, OMNIA_HEALTH_PORT: "65536" }), 'invalid OMNIA_HEALTH_PORT: "65536" is not a port number from 0 to 65535');
  assert.equal(failure({ ...base, OMNIA_TRACING_SAMPLE_RATE: "1.5" }), "invalid OMNIA_TRACING_SAMPLE_RATE: must be between 0.0 and 1.0");
  assert.equal(failure({ ...base, POLICY_BROKER_FAIL_MODE: "maybe" }), 'invalid POLICY_BROKER_FAIL_MODE: "maybe" is not open or closed');
  assert.equal(failure({ ...base, OMNIA_TRACING_SAMPLE_RATE: "0x1" }), 'invalid OMNIA_TRACING_SAMPLE_RATE: "0x1" is not a number');
  assert.equal(failure({ ...base, OMNIA_GRPC_PORT: "9".repeat(100_000) }), `invalid OMNIA_GRPC_PORT: "${"9".repeat(64)}..." is not a port number from 0 to 65535`);
  assert.equal(readRuntimeEnvironment({ ...base, OMNIA_GRPC_PORT: "0", POLICY_BROKER_FAIL_MODE: "open" }).grpcPort, 0);
});

test("a failed start logs one line naming the cause, exits 1 and leaves nothing listening", async () => {
  const dir = scratch();
  const logger = createCaptureLogger();
  const exits: number[] = [];
  const start = (env: Record<string, string>) => startRuntime(() => ({ converse: async () => ({}) }) as unknown as RuntimeHandler, { env, logger, exit: (code) => void exits.push(code), handleSignals: false });
  await assert.rejects(start({ OMNIA_NAMESPACE: "dev" }), ConfigError);
  await assert.rejects(start({ OMNIA_AGENT_NAME: "echo", OMNIA_NAMESPACE: "dev", OMNIA_PROMPTPACK_PATH: join(dir, "missing.json"), OMNIA_GRPC_PORT: "0", OMNIA_HEALTH_PORT: "0" }), /ENOENT/);
  assert.deepEqual(exits, [1, 1]);
  assert.deepEqual(
    logger.lines.filter((l) => l.level === "error").map((l) => [l.message, String(l.fields?.["error"]).replace(dir, "<dir>")]),
    [
      ["runtime failed to start", "OMNIA_AGENT_NAME is required (set via Downward API)"],
      ["runtime failed to start", "OMNIA_PROMPTPACK_PATH: ENOENT: no such file or directory, open '<dir>/missing.json'"],
    ],
  );
});

interface Frame {
  readonly runtime: StartedRuntime;
  readonly health: string;
  readonly packPath: string;
  readonly logger: ReturnType<typeof createCaptureLogger>;
  /** Requests the weather backend received. */
  readonly backendCalls: () => number;
}

async function startFrame(handler: (ctx: Parameters<Parameters<typeof startRuntime>[0]>[0]) => RuntimeHandler, extra: Parameters<typeof startRuntime>[1] = {}, env: Record<string, string> = {}): Promise<Frame> {
  const weather = await startHttpServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"temp":18}');
  });
  cleanups.push(() => weather.close());
  const dir = scratch();
  const packPath = join(dir, "pack.json");
  writeFileSync(packPath, PACK);
  writeFileSync(join(dir, "tools.yaml"), registryFor(weather.url));
  const logger = createCaptureLogger();
  const runtime = await startRuntime(handler, {
    env: { OMNIA_AGENT_NAME: "echo", OMNIA_NAMESPACE: "dev", OMNIA_PROMPTPACK_PATH: packPath, OMNIA_PROMPT_NAME: "support", OMNIA_TOOLS_CONFIG_PATH: join(dir, "tools.yaml"), OMNIA_GRPC_PORT: "0", OMNIA_HEALTH_PORT: "0", ...env },
    host: "127.0.0.1",
    logger,
    handleSignals: false,
    exit: () => assert.fail("exit called"),
    ...extra,
  });
  cleanups.push(() => runtime.stop());
  return { runtime, health: `http://127.0.0.1:${runtime.healthPort}`, packPath, logger, backendCalls: () => weather.requests.length };
}

async function get(url: string): Promise<[number, string, string | null]> {
  const res = await fetch(url);
  return [res.status, await res.text(), res.headers.get("content-type")];
}

test("startRuntime: the pack, prompt, registry and reconciliation reach createHandler; /healthz, /readyz and /metrics answer as Omnia's", async () => {
  let seen: { prompt: string | undefined; offered: readonly string[]; tools: string[] } | undefined;
  const f = await startFrame(({ executor, reconciliation, prompt, registry }) => {
    seen = { prompt: prompt?.id, offered: reconciliation.offered, tools: registry.handlers.map((h) => h.name) };
    return createEchoHandler(executor, reconciliation).handler;
  });
  assert.deepEqual(seen, { prompt: "support", offered: ["get_weather"], tools: ["weather-api"] });
  assert.ok(f.logger.lines.some((l) => l.level === "warn" && /lookup_order/.test(l.message)), "each reconciliation mismatch is logged with its fix");
  assert.deepEqual(await get(`${f.health}/healthz`), [200, "ok", "text/plain; charset=utf-8"]);
  assert.deepEqual(await get(`${f.health}/readyz`), [200, "ok", "text/plain; charset=utf-8"]);
  const client = createRuntimeClient(`http://127.0.0.1:${f.runtime.server.port}`);
  cleanups.push(() => client.close());
  const r = await converse(client, [{ sessionId: "s1", content: 'call get_weather {"city":"Paris"}' }]);
  assert.deepEqual(r.frames.map(frameJson).at(-1), { done: { finalContent: '{"temp":18}', finishReason: "stop" } });
  const [status, metrics, type] = await get(`${f.health}/metrics`);
  assert.equal(status, 200);
  assert.equal(type, "text/plain; version=0.0.4; charset=utf-8");
  assert.ok(metrics.includes('# TYPE omnia_runtime_info gauge\nomnia_runtime_info{agent="echo",namespace="dev"} 1\n'), metrics);
  assert.match(metrics, /^omnia_tool_calls_total\{agent="echo",[^}]*namespace="dev",[^}]*tool="get_weather"[^}]*\} 1$/m);
  assert.match(metrics, /^omnia_tool_call_duration_seconds_count\{[^}]*tool="get_weather"[^}]*\} 1$/m);
  // A broken pack rolled onto the live pod: not ready, still alive.
  writeFileSync(f.packPath, "{ not json");
  const [notReady, why] = await get(`${f.health}/readyz`);
  assert.equal(notReady, 503);
  assert.match(why, /^pack schema invalid: /);
  assert.deepEqual((await get(`${f.health}/healthz`)).slice(0, 2), [200, "ok"]);
  rmSync(f.packPath);
  const [gone, whyGone] = await get(`${f.health}/readyz`);
  assert.equal(gone, 503);
  assert.equal(whyGone, `pack file unreadable: ENOENT: no such file or directory, open '${f.packPath}'\n`);
  writeFileSync(f.packPath, PACK);
  assert.deepEqual((await get(`${f.health}/readyz`)).slice(0, 2), [200, "ok"]);
  assert.deepEqual((await get(`${f.health}/nope`)).slice(0, 2), [404, "404 page not found\n"]);
});

test("POLICY_BROKER_URL puts the broker sidecar in front of every call; SESSION_API_URL records each call there", async () => {
  const broker = await startFakeBroker({ allow: false, deniedBy: "no-weather", message: "weather is off today" });
  cleanups.push(() => broker.close());
  const api = await startSessionApi();
  cleanups.push(() => api.close());
  const f = await startFrame(({ executor, reconciliation }) => createEchoHandler(executor, reconciliation).handler, {}, { POLICY_BROKER_URL: broker.url, SESSION_API_URL: api.url });
  const client = createRuntimeClient(`http://127.0.0.1:${f.runtime.server.port}`);
  cleanups.push(() => client.close());
  const r = await converse(client, [{ sessionId: "s1", content: 'call get_weather {"city":"Paris"}' }], { headers: { "x-omnia-session-id": "5b0c4f8e-8a51-4b44-9a0e-2f1d6c7b9e10" } });
  assert.deepEqual(r.frames.map(frameJson).at(-1), { done: { finalContent: 'tool call denied by policy: weather is off today (rule "no-weather")', finishReason: "stop", recordSequenceHighWater: "1" } });
  assert.deepEqual(broker.decisions.map((d) => [d.method, d.url]), [["POST", "/v1/decision"]]);
  assert.equal(f.backendCalls(), 0);
  await f.runtime.stop();
  // The pending row, then the denial (session-api's status for a denial is error), both with the call's position.
  assert.deepEqual(
    api.server.requests.map((q) => {
      const row = JSON.parse(q.body.toString("utf8")) as { status: string; sequenceNum?: number; errorMessage?: string };
      return [q.url, row.status, row.sequenceNum, row.errorMessage];
    }),
    [
      ["/api/v1/sessions/5b0c4f8e-8a51-4b44-9a0e-2f1d6c7b9e10/tool-calls", "pending", 1, undefined],
      ["/api/v1/sessions/5b0c4f8e-8a51-4b44-9a0e-2f1d6c7b9e10/tool-calls", "error", 1, 'tool call denied by policy: weather is off today (rule "no-weather")'],
    ],
  );
  assert.deepEqual(api.invalid, []);
});

test("stop(): readiness fails first, a turn in flight finishes within the drain, one still running at its end gets UNAVAILABLE", async () => {
  const clock = createManualClock();
  const releases: (() => void)[] = [];
  let entered!: () => void;
  const inTurn = new Promise<void>((resolve) => (entered = resolve));
  let turns = 0;
  const f = await startFrame(
    () => ({
      capabilities: () => [],
      converse: async (turn: Turn, emit: Emitter) => {
        turns++;
        entered();
        await new Promise<void>((resolve) => releases.push(resolve));
        await emit.done({ finalContent: `done ${turnText(turn)}`, finishReason: "stop" });
      },
    }),
    { clock, drainMs: 10_000 },
  );
  const client = createRuntimeClient(`http://127.0.0.1:${f.runtime.server.port}`);
  cleanups.push(() => client.close());
  const first = openConverse(client);
  first.send({ sessionId: "s1", content: "one" });
  await inTurn;
  const stopping = f.runtime.stop();
  assert.deepEqual((await get(`${f.health}/readyz`)).slice(0, 2), [503, "draining\n"]);
  releases[0]?.();
  const done = await first.until("done");
  assert.deepEqual(frameJson(done.frame), { done: { finalContent: "done one", finishReason: "stop" } });
  assert.equal(turns, 1);
  first.end();
  await stopping;
  assert.deepEqual(
    f.logger.lines.filter((l) => l.message.startsWith("runtime st")).map((l) => l.message),
    ["runtime stopping", "runtime stopped"],
  );
  await assert.rejects(fetch(`${f.health}/healthz`));
});

test("stop(): a turn that outlives the drain ends with UNAVAILABLE `transport is closing`", async () => {
  const clock = createManualClock();
  let entered!: () => void;
  const inTurn = new Promise<void>((resolve) => (entered = resolve));
  const f = await startFrame(
    () => ({
      capabilities: () => [],
      converse: async (turn: Turn) => {
        entered();
        await new Promise<void>((resolve) => turn.signal.addEventListener("abort", () => resolve(), { once: true }));
      },
    }),
    { clock, drainMs: 10_000 },
  );
  const client = createRuntimeClient(`http://127.0.0.1:${f.runtime.server.port}`);
  cleanups.push(() => client.close());
  const pending = converse(client, [{ sessionId: "s1", content: "forever" }]);
  await inTurn;
  const stopping = f.runtime.stop();
  await new Promise((resolve) => setImmediate(resolve));
  clock.advance(10_000);
  const r = await pending;
  assert.equal(r.error?.rawMessage, "transport is closing");
  assert.equal(r.error?.code, 14);
  await stopping;
});

test("stop() with a facade's stream left open (it never closes its side): done at drainMs + 1 s on the clock, not serveRuntime's 5 s grace", async () => {
  const clock = createManualClock();
  const f = await startFrame(() => ({ capabilities: () => [], converse: async (_turn: Turn, emit: Emitter) => emit.done({ finalContent: "ok" }) }), { clock, drainMs: 2_000 });
  const client = createRuntimeClient(`http://127.0.0.1:${f.runtime.server.port}`);
  cleanups.push(() => client.close());
  const open = openConverse(client);
  open.send({ sessionId: "s1", content: "hi" });
  await open.until("done");
  let stopped = false;
  const stopping = f.runtime.stop().then(() => (stopped = true));
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
  clock.advance(2_000);
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(stopped, false, "still inside the 1 s grace");
  clock.advance(1_000);
  await stopping;
  assert.equal(stopped, true);
  open.cancel();
});

test("examples/echo-runtime/main.ts with only the operator's environment: conformance, health, metrics, and SIGTERM with a turn in flight exits 0", async () => {
  let hold: (() => void) | undefined;
  let called!: () => void;
  const calledOnce = new Promise<void>((resolve) => (called = resolve));
  const weather = await startHttpServer((_req, res) => {
    called();
    hold = () => {
      res.setHeader("content-type", "application/json");
      res.end('{"temp":21}');
    };
  });
  cleanups.push(() => weather.close());
  const dir = scratch();
  writeFileSync(join(dir, "pack.json"), PACK);
  writeFileSync(join(dir, "tools.yaml"), registryFor(weather.url));
  const env: Record<string, string> = {
    PATH: process.env["PATH"] ?? "",
    OMNIA_AGENT_NAME: "echo",
    OMNIA_NAMESPACE: "dev",
    OMNIA_PROMPTPACK_PATH: join(dir, "pack.json"),
    OMNIA_PROMPT_NAME: "support",
    OMNIA_TOOLS_CONFIG_PATH: join(dir, "tools.yaml"),
    OMNIA_GRPC_PORT: "0",
    OMNIA_HEALTH_PORT: "0",
  };
  const child = spawn(process.execPath, ["--import", "tsx", "examples/echo-runtime/main.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill("SIGKILL");
    await exited;
  });
  const stderr: string[] = [];
  child.stderr.setEncoding("utf8").on("data", (d: string) => stderr.push(d));
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr.join("")}`)));
  });
  const { grpcPort, healthPort } = JSON.parse(first) as { grpcPort: number; healthPort: number };
  const health = `http://127.0.0.1:${healthPort}`;
  assert.deepEqual((await get(`${health}/healthz`)).slice(0, 2), [200, "ok"]);
  assert.deepEqual((await get(`${health}/readyz`)).slice(0, 2), [200, "ok"]);
  const conformance = spawn(process.execPath, ["--import", "tsx", "src/cli/runtime-conformance.ts", "--addr", `127.0.0.1:${grpcPort}`], { stdio: ["ignore", "pipe", "pipe"] });
  const out: string[] = [];
  conformance.stdout.setEncoding("utf8").on("data", (d: string) => out.push(d));
  assert.equal(await new Promise<number | null>((resolve) => conformance.once("exit", (code) => resolve(code))), 0, out.join(""));
  const client = createRuntimeClient(`http://127.0.0.1:${grpcPort}`);
  cleanups.push(() => client.close());
  const inFlight = converse(client, [{ sessionId: "s9", content: 'call get_weather {"city":"Oslo"}' }]);
  await calledOnce;
  child.kill("SIGTERM");
  // Draining: not ready any more, still alive; the held answer then lets the turn finish.
  for (let i = 0; i < 200 && (await get(`${health}/readyz`))[0] !== 503; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual((await get(`${health}/readyz`)).slice(0, 2), [503, "draining\n"]);
  hold?.();
  const r = await inFlight;
  assert.equal(r.error, undefined);
  assert.deepEqual(r.frames.map(frameJson).at(-1), { done: { finalContent: '{"temp":21}', finishReason: "stop" } });
  assert.equal(await exited, 0, stderr.join(""));
  const log = stderr.join("");
  assert.match(log, /"message":"signal received","signal":"SIGTERM"/);
  assert.match(log, /"message":"runtime stopped"/);
});
