import { test } from "node:test";
import assert from "node:assert/strict";
import type { LogFields, Logger } from "../core/index.js";
import {
  logCallEvent,
  logClientToolRequested,
  logDispatchEnter,
  logExecuteEnter,
  logPolicyCall,
  logPolicyDecision,
  logPolicyDenied,
  logToolNotFound,
  logToolsInitialized,
} from "./log-lines.js";

function capture(): Logger & { lines: [string, string, LogFields | undefined][] } {
  const lines: [string, string, LogFields | undefined][] = [];
  const at = (level: string) => (message: string, fields?: LogFields) => void lines.push([level, message, fields]);
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

test("per-call lines: Omnia's messages and field names, V(1) as debug", () => {
  const log = capture();
  logExecuteEnter(log, "lookup");
  logToolNotFound(log, "nope");
  logDispatchEnter(log, "lookup", "http");
  logPolicyCall(log, "lookup", "orders", true);
  logPolicyDecision(log, "lookup", false, false, "rule1");
  logPolicyDenied(log, "lookup", 'tool call denied by policy: nope (rule "rule1")');
  logClientToolRequested(log, { sessionId: "s1", toolName: "geo", callId: "c2", consentMsg: "Allow?", categories: ["location"] });
  assert.deepEqual(log.lines, [
    ["debug", "OmniaExecutor.Execute ENTER", { tool: "lookup" }],
    ["debug", "OmniaExecutor.Execute tool NOT FOUND", { tool: "nope" }],
    ["debug", "OmniaExecutor.dispatch ENTER", { tool: "lookup", handlerType: "http" }],
    ["debug", "enforcePolicy calling broker", { tool: "lookup", registry: "orders", brokerEnabled: true }],
    ["debug", "enforcePolicy decision", { tool: "lookup", allow: false, wouldDeny: false, deniedBy: "rule1" }],
    ["debug", "OmniaExecutor.dispatch DENIED by policy", { tool: "lookup", err: 'tool call denied by policy: nope (rule "rule1")' }],
    ["debug", "event: client tool requested", { sessionID: "s1", toolName: "geo", callID: "c2", consentMsg: "Allow?", categories: ["location"] }],
  ]);
});

test("the event line: PromptKit's complete/pending/failed statuses, and tool call failed for a call refused before any handler", () => {
  const log = capture();
  const base = { sessionId: "s1", toolName: "lookup", callId: "c1", durationMs: 7 };
  logCallEvent(log, { ...base, status: "success" });
  logCallEvent(log, { ...base, status: "client" });
  logCallEvent(log, { ...base, status: "error" });
  logCallEvent(log, { ...base, status: "denied" });
  logCallEvent(log, { ...base, sessionId: undefined, status: "error", error: 'tool "lookup" not found', rejectedBeforeExecution: true });
  const completed = (status: string) => ["debug", "event: tool call completed", { sessionID: "s1", toolName: "lookup", callID: "c1", status, durationMs: 7 }];
  assert.deepEqual(log.lines, [
    completed("complete"),
    completed("pending"),
    completed("failed"),
    completed("failed"),
    ["debug", "event: tool call failed", { sessionID: "", toolName: "lookup", callID: "c1", error: 'tool "lookup" not found', durationMs: 7 }],
  ]);
});

test("startup lines: one registered <type> tool per tool, then tools initialized", () => {
  const log = capture();
  logToolsInitialized(log, [
    { name: "a", handlerName: "h", handlerType: "http" },
    { name: "b", handlerName: "g", handlerType: "grpc" },
    { name: "c", handlerName: "m", handlerType: "mcp" },
    { name: "d", handlerName: "o", handlerType: "openapi" },
    { name: "e", handlerName: "k", handlerType: "client" },
  ]);
  assert.deepEqual(log.lines, [
    ["debug", "registered HTTP tool", { tool: "a", handler: "h" }],
    ["debug", "registered gRPC tool", { tool: "b", handler: "g" }],
    ["debug", "registered MCP tool", { tool: "c", handler: "m" }],
    ["debug", "registered OpenAPI tool", { tool: "d", handler: "o" }],
    ["debug", "registered client tool", { tool: "e", handler: "k" }],
    ["info", "tools initialized", { toolCount: 5 }],
  ]);
});
