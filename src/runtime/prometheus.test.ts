import { test } from "node:test";
import assert from "node:assert/strict";
import { PrometheusMeter } from "./prometheus.js";

test("PrometheusMeter: counters, cumulative histogram buckets with +Inf, sum and count, a gauge, in creation order", () => {
  const meter = new PrometheusMeter();
  const calls = meter.createCounter("omnia_tool_calls_total", { description: "Total number of tool calls" });
  const duration = meter.createHistogram("omnia_tool_call_duration_seconds", { description: "Duration", advice: { explicitBucketBoundaries: [0.5, 0.1, 1] } });
  meter.createCounter("unused_total", { description: "never added to" });
  calls.add(1, { tool: "a", status: "success" });
  calls.add(2, { status: "success", tool: "a" });
  calls.add(-5, { tool: "a", status: "success" });
  calls.add(1, { tool: "b", "x.y": true, skipped: undefined });
  duration.record(0.05, { tool: "a" });
  duration.record(0.7, { tool: "a" });
  duration.record(3, { tool: "a" });
  meter.setGauge("omnia_runtime_info", "Runtime information gauge (always 1)", { agent: "echo", namespace: "dev" }, 1);
  assert.equal(
    meter.render(),
    [
      "# HELP omnia_tool_calls_total Total number of tool calls",
      "# TYPE omnia_tool_calls_total counter",
      'omnia_tool_calls_total{status="success",tool="a"} 3',
      'omnia_tool_calls_total{tool="b",x_y="true"} 1',
      "# HELP omnia_tool_call_duration_seconds Duration",
      "# TYPE omnia_tool_call_duration_seconds histogram",
      'omnia_tool_call_duration_seconds_bucket{tool="a",le="0.1"} 1',
      'omnia_tool_call_duration_seconds_bucket{tool="a",le="0.5"} 1',
      'omnia_tool_call_duration_seconds_bucket{tool="a",le="1"} 2',
      'omnia_tool_call_duration_seconds_bucket{tool="a",le="+Inf"} 3',
      'omnia_tool_call_duration_seconds_sum{tool="a"} 3.75',
      'omnia_tool_call_duration_seconds_count{tool="a"} 3',
      "# HELP omnia_runtime_info Runtime information gauge (always 1)",
      "# TYPE omnia_runtime_info gauge",
      'omnia_runtime_info{agent="echo",namespace="dev"} 1',
      "",
    ].join("\n"),
  );
  assert.equal(new PrometheusMeter().render(), "");
});

test("PrometheusMeter: `le` and a second attribute that cleans to a taken name are left out, so a scrape never has a duplicate label", () => {
  const meter = new PrometheusMeter();
  meter.createCounter("c_total", { description: "c" }).add(1, { "tool.name": "a", tool_name: "b", le: "x", z: 1 });
  assert.equal(meter.render(), '# HELP c_total c\n# TYPE c_total counter\nc_total{tool_name="a",z="1"} 1\n');
});
