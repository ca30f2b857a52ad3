// Soak (issue #32 item 3): every record arrives. SOAK_CALLS tool calls (default 5,000) through createToolExecutor
// at 512 in flight, each recorded to a loopback session-api that fails 8 % of its requests (5 % HTTP 503, 2 % HTTP
// 500, 1 % a reset connection; which request gets which fault is fixed by its index, stride 37 over 100). The
// recorder retries (three attempts), buffers what still failed and replays it every 5 s on its own clock (a manual
// clock here, driven while the calls run, so that nothing sleeps). Asserts: after flush() every one of the
// 2 × SOAK_CALLS rows was taken by session-api exactly once (by row id), each call's pending row before its
// terminal row, and stats() counts them all written, none dropped or expired.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { createSessionApiRecorder } from "../../src/records/index.js";
import { createManualClock } from "../../src/testing/index.js";

const CALLS = Number(process.env["SOAK_CALLS"] ?? 5_000);
const IN_FLIGHT = 512;

type Fault = "503" | "500" | "reset" | "ok";
function faultOf(request: number): Fault {
  const k = (request * 37) % 100;
  return k < 5 ? "503" : k < 7 ? "500" : k === 7 ? "reset" : "ok";
}

test(`soak: ${CALLS} calls at ${IN_FLIGHT} in flight against a session-api failing 8 % of requests: every row written once, none lost`, { timeout: 300_000 }, async (t) => {
  const taken = new Map<string, number>();
  const order = new Map<string, string[]>();
  let requests = 0;
  const faults: Record<Fault, number> = { "503": 0, "500": 0, reset: 0, ok: 0 };
  const sockets = new Set<Socket>();
  const api = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const fault = faultOf(requests++);
      faults[fault]++;
      if (fault === "reset") return void req.socket.resetAndDestroy();
      if (fault !== "ok") {
        res.statusCode = Number(fault);
        return void res.end();
      }
      const row = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string; callId: string; status: string };
      taken.set(row.id, (taken.get(row.id) ?? 0) + 1);
      order.set(row.callId, [...(order.get(row.callId) ?? []), row.status]);
      res.statusCode = 201;
      res.end();
    });
  });
  api.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("error", () => {});
    s.once("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  const backend = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => backend.listen(0, "127.0.0.1", resolve));
  const backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;

  const clock = createManualClock(0);
  const recorder = createSessionApiRecorder({ url: apiUrl, clock });
  const registry = loadToolRegistry(`
handlers:
  - { name: h, type: http, tool: { name: t, description: d, inputSchema: { type: object } }, httpConfig: { endpoint: "${backendUrl}/x" } }
`);
  const ex = createToolExecutor({ registry, recorder });
  // The recorder's clock moves 50 ms every turn of the event loop while the soak runs: its retry backoff and the
  // 5 s replay happen without sleeping.
  let running = true;
  const driver = (async () => {
    while (running) {
      await new Promise((resolve) => setImmediate(resolve));
      await clock.advanceAsync(50);
    }
  })();
  try {
    let next = 0;
    let succeeded = 0;
    const lane = async (): Promise<void> => {
      while (next < CALLS) {
        const i = next++;
        const out = await ex.execute({ id: `c${i}`, name: "t", arguments: "{}" }, { identity: { sessionId: "6f1c2a9e-3b7d-4c1e-9a2f-5d8e7b6c4a31" } });
        if (out.status === "success") succeeded++;
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    assert.equal(succeeded, CALLS);
    const flushed = await recorder.flush({ timeoutMs: 10 * 60_000 });
    running = false;
    await driver;
    assert.deepEqual(flushed, { left: 0 });
    const stats = recorder.stats();
    t.diagnostic(`session-api requests ${requests}, faults ${JSON.stringify(faults)}, recorder ${JSON.stringify(stats)}`);
    assert.deepEqual({ written: stats.written, expired: stats.expired, dropped: stats.dropped }, { written: 2 * CALLS, expired: 0, dropped: {} });
    // Every row once; the faults really happened (a retry or a replay for each failed request).
    assert.equal(taken.size, 2 * CALLS);
    assert.deepEqual([...taken.values()].filter((n) => n !== 1), []);
    assert.equal(requests, 2 * CALLS + faults["503"] + faults["500"] + faults.reset);
    // Each failed request was retried, or ended its write's last attempt (the row then buffered and replayed).
    assert.ok(stats.retried <= faults["503"] + faults["500"] + faults.reset && stats.retried > 0);
    assert.ok(faults.reset > 0 && faults["503"] > 0 && faults["500"] > 0);
    for (const [callId, statuses] of order) assert.deepEqual([callId, statuses], [callId, ["pending", "success"]]);
  } finally {
    running = false;
    await driver;
    await ex.close();
    await recorder.close({ timeoutMs: 0 });
    await new Promise<void>((resolve) => backend.close(() => resolve()));
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => api.close(() => resolve()));
  }
});
