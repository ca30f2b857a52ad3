// D5: the record of a call refused by an open breaker. Fixed; kept as regression tests.
import assert from "node:assert/strict";
import { startHttpServer } from "../../helpers/http-server.js";
import { faultTest, httpRegistry, rig, CIRCUIT_OPEN } from "../helpers/harness.js";

faultTest("D5: a call refused by the open breaker is recorded with attempts 0, as ToolCallRecord.attempts documents", async (ctx) => {
  const server = await startHttpServer((_req, res) => {
    res.statusCode = 500;
    res.end("down");
  });
  ctx.defer(() => server.close());
  const r = rig(ctx, httpRegistry(`${server.url}/x`));
  for (let i = 0; i < 10; i++) await r.call(`d${i}`);
  const out = await r.call("refused");
  assert.equal(out.status === "error" && out.message, CIRCUIT_OPEN);
  assert.equal(server.requests.length, 10);
  assert.equal(r.recorder.forCall("refused")[0]?.attempts, 0);
});
