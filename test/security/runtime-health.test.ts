// The runtime's health port (startRuntime, issue #34): /healthz, /readyz and /metrics answer
// anyone who reaches port 9001 in the pod's network. What the model, the environment or a
// client sends must not add a line to /metrics or grow the server's memory.
import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { startRuntime, type Logger, type RuntimeHandler, type StartedRuntime, type ToolExecutor } from "../../src/runtime.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function start(agent: string, logger: Logger = createCaptureLogger()): Promise<{ runtime: StartedRuntime; executor: ToolExecutor; metrics: () => Promise<string>; packPath: string }> {
  const dir = mkdtempSync(join(tmpdir(), "omnia-health-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "pack.json"), readFileSync("examples/pack.json", "utf8"));
  let executor: ToolExecutor | undefined;
  const runtime = await startRuntime(
    (ctx) => {
      executor = ctx.executor;
      return { capabilities: () => [], converse: async () => {} } as RuntimeHandler;
    },
    {
      env: { OMNIA_AGENT_NAME: agent, OMNIA_NAMESPACE: "dev", OMNIA_PROMPTPACK_PATH: join(dir, "pack.json"), OMNIA_GRPC_PORT: "0", OMNIA_HEALTH_PORT: "0" },
      host: "127.0.0.1",
      logger,
      handleSignals: false,
      exit: () => assert.fail("exit called"),
    },
  );
  cleanups.push(() => runtime.stop());
  return { runtime, executor: executor as ToolExecutor, metrics: async () => (await fetch(`http://127.0.0.1:${runtime.healthPort}/metrics`)).text(), packPath: join(dir, "pack.json") };
}

test("a tool name the model invents cannot add a line to /metrics: it is counted under _OTHER", async () => {
  const { executor, metrics } = await start("echo");
  const out = await executor.execute({ id: "c1", name: 'x"} 1\nomnia_runtime_info{agent="evil"} 1\n#', arguments: "{}" });
  assert.equal(out.status, "error");
  const text = await metrics();
  assert.ok(!text.includes('agent="evil"'), text);
  const calls = text.split("\n").filter((l) => l.startsWith("omnia_tool_calls_total"));
  assert.equal(calls.length, 1, text);
  assert.match(calls[0]!, /tool="_OTHER"/);
  assert.ok(text.split("\n").every((l) => l === "" || l.startsWith("#") || /^[a-z_]+(\{.*\})? [0-9.e+-]+$|^[a-z_]+(\{.*\})? \+Inf$/.test(l)), text);
});

test("an agent name with quotes, a backslash and a newline stays one escaped label value", async () => {
  const { metrics } = await start('a"b\\c\nd');
  const text = await metrics();
  const info = text.split("\n").filter((l) => l.startsWith("omnia_runtime_info"));
  assert.deepEqual(info, ['omnia_runtime_info{agent="a\\"b\\\\c\\nd",namespace="dev"} 1']);
});

test("a request with 100 KiB of headers is refused with 431 and the health server keeps answering", async () => {
  const { runtime } = await start("echo");
  const status = await new Promise<number | undefined>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: runtime.healthPort, path: "/healthz", headers: { "x-big": "a".repeat(100 * 1024) } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on("error", reject);
    req.end();
  });
  assert.equal(status, 431);
  const ok = await fetch(`http://127.0.0.1:${runtime.healthPort}/healthz`);
  assert.deepEqual([ok.status, await ok.text()], [200, "ok"]);
});

async function readyz(port: number): Promise<[number, string]> {
  const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(10_000) });
  return [res.status, await res.text()];
}

test("a mounted pack swapped for a FIFO or a link to /dev/zero: /readyz answers 503 at once, and 200 again once the pack is back", async () => {
  const { runtime, packPath } = await start("echo");
  const good = readFileSync(packPath, "utf8");
  rmSync(packPath);
  execFileSync("mkfifo", [packPath]);
  assert.deepEqual(await readyz(runtime.healthPort), [503, `pack file unreadable: ${packPath} is not a regular file\n`]);
  rmSync(packPath);
  symlinkSync("/dev/zero", packPath);
  assert.deepEqual(await readyz(runtime.healthPort), [503, `pack file unreadable: ${packPath} is not a regular file\n`]);
  rmSync(packPath);
  writeFileSync(packPath, good);
  assert.deepEqual(await readyz(runtime.healthPort), [200, "ok"]);
});

test("a host logger that throws on every line: probes are answered and stop() resolves", async () => {
  const boom = (): never => {
    throw new Error("logger transport down");
  };
  const { runtime, packPath } = await start("echo", { debug: boom, info: boom, warn: boom, error: boom });
  writeFileSync(packPath, "{ broken");
  const [status, text] = await readyz(runtime.healthPort);
  assert.equal(status, 503);
  assert.match(text, /^pack schema invalid: /);
  await runtime.stop();
  await assert.rejects(fetch(`http://127.0.0.1:${runtime.healthPort}/healthz`));
});
