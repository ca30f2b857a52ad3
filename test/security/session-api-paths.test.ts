// Issue #31 item 4: the session id comes from the facade, a peer. `encodeURIComponent` leaves `.`, and undici resolves
// dot segments, so a session id of `.` or `..` moved the recorder's write, with its bearer token, to
// `/api/v1/sessions/tool-calls` or `/api/v1/tool-calls`. Such a row is never sent, and is counted as dropped.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createSessionApiRecorder, type ToolCallStart } from "../../src/records/index.js";
import { createCaptureLogger } from "../helpers/capture-logger.js";
import { startHttpServer } from "../helpers/http-server.js";

const START: Omit<ToolCallStart, "sessionId"> = {
  callId: "c1",
  toolName: "lookup",
  handlerName: "h",
  handlerType: "http",
  execution: "server",
  arguments: "{}",
  startedAt: Date.UTC(2026, 11, 3),
};

test("a session id of . or .. sends nothing, is counted as dropped and logged; a dotted id that is no segment is written", async () => {
  const server = await startHttpServer((_req, res) => {
    res.statusCode = 201;
    res.end("{}");
  });
  const logger = createCaptureLogger();
  const recorder = createSessionApiRecorder({ url: server.url, logger, headers: { Authorization: "Bearer sa-token" } });
  try {
    for (const sessionId of [".", "..", "a.b", "..."]) {
      await recorder.start({ ...START, sessionId });
      await recorder.record({ ...START, sessionId, status: "success", result: "1", durationMs: 1, attempts: 1 });
    }
    await recorder.flush();
    assert.deepEqual(
      server.requests.map((r) => `${r.method} ${r.url} ${String(r.headers.authorization)}`),
      [
        "POST /api/v1/sessions/a.b/tool-calls Bearer sa-token",
        "POST /api/v1/sessions/a.b/tool-calls Bearer sa-token",
        "POST /api/v1/sessions/.../tool-calls Bearer sa-token",
        "POST /api/v1/sessions/.../tool-calls Bearer sa-token",
      ],
    );
    assert.deepEqual(recorder.stats(), { written: 4, retried: 0, buffered: 0, expired: 0, dropped: { "invalid-session-id": 4 } });
    // The first loss is logged at once; the rest within the minute are counted, and close() logs their count.
    const lines = () => logger.lines.map((l) => `${l.level} ${l.message}: ${String(l.fields?.reason)} ${String(l.fields?.error)} (${String(l.fields?.count)})`);
    assert.deepEqual(lines(), ['error failed to record tool call: invalid-session-id invalid session id ".": a dot segment; the row was not sent (1)']);
    await recorder.close();
    assert.deepEqual(lines(), [
      'error failed to record tool call: invalid-session-id invalid session id ".": a dot segment; the row was not sent (1)',
      'error failed to record tool call: invalid-session-id invalid session id "..": a dot segment; the row was not sent (3)',
    ]);
  } finally {
    await server.close();
  }
});
