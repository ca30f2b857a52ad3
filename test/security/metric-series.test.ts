// Issue #31 item 13: the model chooses the tool name, so a metric labelled with it would grow one series per
// invented name. Names the registry does not serve share one `tool` label value, `_OTHER`; the span keeps the name.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/executor/index.js";
import { startHttpServer } from "../helpers/http-server.js";

test("2,000 invented tool names make one metric series, not 2,000; the served tool keeps its own", async () => {
  const server = await startHttpServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  });
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const meterProvider = new MeterProvider({ readers: [exporter] });
  const registry = loadToolRegistry(`
handlers:
  - name: h
    type: http
    tool: { name: lookup, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${server.url}/x" }
`);
  const ex = createToolExecutor({ registry, telemetry: { meter: meterProvider.getMeter("omnia-tools") } });
  try {
    for (let i = 0; i < 2000; i++) {
      const out = await ex.execute({ id: `c${i}`, name: `invented_${i}`, arguments: "{}" });
      assert.equal(out.status === "error" && out.message, `tool "invented_${i}" not found`);
    }
    assert.equal((await ex.execute({ id: "ok", name: "lookup", arguments: "{}" })).status, "success");
    const { resourceMetrics } = await exporter.collect();
    const series = resourceMetrics.scopeMetrics.flatMap((s) =>
      s.metrics.map((m) => [m.descriptor.name, m.dataPoints.map((p) => `${String(p.attributes.tool)}/${String(p.attributes.status)}`)]),
    );
    assert.deepEqual(series, [
      ["omnia_tool_calls_total", ["_OTHER/error", "lookup/success"]],
      ["omnia_tool_call_duration_seconds", ["_OTHER/undefined", "lookup/undefined"]],
    ]);
  } finally {
    await ex.close();
    await meterProvider.shutdown();
    await server.close();
  }
});
