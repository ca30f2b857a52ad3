// A model message mixing server, client and failing calls; client tools through
// a turn (the consent message, the original arguments, the client's answer as
// Go re-encodes it); and invalid arguments that never reach the backend.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createTurn } from "../../src/turn/index.js";
import { UnknownClientCallError } from "../../src/client-tools/index.js";
import { backend, clientHandler, executorFor, httpHandler, registry } from "./fixture.js";

const available = { clientToolsAvailable: true } as const;

test("a server, a client and a failing call: the server results in call order, the client call pending with the default consent message", async () => {
  const b = await backend({
    routes: { "/weather": (req) => ({ city: (req.json as { city: string }).city, tempC: 21 }), "/down": {} },
    faults: { "/down": { kind: "status", status: 503, body: "down" } },
  });
  const reg = registry(
    httpHandler(b.url, "get_weather", { path: "/weather", inputSchema: "{ type: object, properties: { city: { type: string } }, required: [city] }" }) +
      httpHandler(b.url, "flaky", { path: "/down" }) +
      clientHandler("get_location"),
  );
  const { executor } = executorFor(reg);
  const turn = createTurn(executor, { ctx: available });
  const round = await turn.run([
    { id: "c1", name: "get_weather", arguments: '{"city":"Paris"}' },
    { id: "c2", name: "get_location", arguments: '{"z":1, "precise": true, "note":"<b>"}' },
    { id: "c3", name: "flaky", arguments: "{}" },
  ]);
  assert.deepEqual(round.messages, [
    { callId: "c1", name: "get_weather", content: '{\n  "city": "Paris",\n  "tempC": 21\n}', isError: false },
    { callId: "c3", name: "flaky", content: "Tool execution failed: HTTP 503: down", isError: true },
  ]);
  assert.deepEqual(round.pending, [
    { callId: "c2", name: "get_location", argumentsJson: '{"note":"\\u003cb\\u003e","precise":true,"z":1}', consentMessage: 'Client tool "get_location" awaiting caller fulfillment' },
  ]);
  assert.deepEqual(b.requests.map((r) => r.path), ["/weather", "/down"]);

  // P14: the client's text that is not JSON becomes a JSON string, quotes included.
  assert.deepEqual(turn.complete({ callId: "c2", resultJson: "plain" }), { callId: "c2", name: "get_location", content: '"plain"' });
  assert.throws(() => turn.complete({ callId: "c2", resultJson: "{}" }), UnknownClientCallError);
});

test("a client result is re-encoded as Go does; a rejection reads Tool rejected: <reason> (P15)", async () => {
  const { executor } = executorFor(registry(clientHandler("take_photo")));
  const turn = createTurn(executor, { ctx: available });
  const round = await turn.run([
    { id: "p1", name: "take_photo", arguments: "{}" },
    { id: "p2", name: "take_photo", arguments: '{"flash":true}' },
    { id: "p3", name: "take_photo", arguments: "null" },
  ]);
  assert.deepEqual(round.messages, []);
  assert.deepEqual(round.pending.map((p) => p.callId), ["p1", "p2", "p3"]);
  assert.deepEqual(turn.complete({ callId: "p1", resultJson: '{"lat":1,"a":"<b>","n":1.0,"big":12345678901234567890}' }), {
    callId: "p1",
    name: "take_photo",
    content: '{"a":"\\u003cb\\u003e","big":12345678901234567000,"lat":1,"n":1}',
  });
  assert.deepEqual(turn.complete({ callId: "p2", isRejected: true, rejectionReason: "camera unavailable" }), { callId: "p2", name: "take_photo", content: "Tool rejected: camera unavailable" });
  assert.deepEqual(turn.complete({ callId: "p3", isRejected: true, isDenied: true, rejectionReason: "user declined" }), { callId: "p3", name: "take_photo", content: "Tool rejected: user declined" });
});

test("a handler's consentMessage and categories win over the default consent message", async () => {
  const { executor } = executorFor(registry(clientHandler("get_location", "{ type: object }", '    clientConfig: { consentMessage: "Share your location?", categories: [location] }\n')));
  const round = await createTurn(executor, { ctx: available }).run([{ id: "c1", name: "get_location", arguments: "{}" }]);
  assert.deepEqual(round.pending, [{ callId: "c1", name: "get_location", argumentsJson: "{}", consentMessage: "Share your location?", categories: ["location"] }]);
});

test("a client tool: coercion and validation run first, the ToolCall carries the model's original arguments (Go-encoded)", async () => {
  const { executor } = executorFor(registry(clientHandler("zoom", "{ type: object, properties: { level: { type: integer } }, required: [level] }")));
  const turn = createTurn(executor, { ctx: available });
  const round = await turn.run([
    { id: "z1", name: "zoom", arguments: '{"level":"5"}' },
    { id: "z2", name: "zoom", arguments: '{"level":"high"}' },
    { id: "z3", name: "zoom", arguments: "{}" },
  ]);
  assert.deepEqual(round.pending, [{ callId: "z1", name: "zoom", argumentsJson: '{"level":"5"}', consentMessage: 'Client tool "zoom" awaiting caller fulfillment' }]);
  assert.deepEqual(round.messages, [
    { callId: "z2", name: "zoom", content: "Error: tool zoom validation error (args_invalid): argument validation failed: [level: Invalid type. Expected: integer, given: string]", isError: true },
    { callId: "z3", name: "zoom", content: "Error: tool zoom validation error (args_invalid): argument validation failed: [(root): level is required]", isError: true },
  ]);
});

test("a client tool whose arguments are not an object fails as the SDK's client executor does", async () => {
  const { executor } = executorFor(registry(clientHandler("pick", "{}")));
  const round = await createTurn(executor, { ctx: available, repeatThreshold: 0 }).run([
    { id: "a", name: "pick", arguments: "" },
    { id: "b", name: "pick", arguments: "[1]" },
    { id: "c", name: "pick", arguments: '"x"' },
  ]);
  assert.deepEqual(round.messages.map((m) => [m.callId, m.content, m.isError]), [
    ["a", "Tool execution failed: failed to parse client tool arguments: unexpected end of JSON input", true],
    ["b", "Tool execution failed: failed to parse client tool arguments: json: cannot unmarshal array into Go value of type map[string]interface {}", true],
    ["c", "Tool execution failed: failed to parse client tool arguments: json: cannot unmarshal string into Go value of type map[string]interface {}", true],
  ]);
  assert.deepEqual(round.pending, []);
});

test("without a connected client, a client tool is refused with Tool rejected: and that is no error", async () => {
  const { executor } = executorFor(registry(clientHandler("get_location")));
  const round = await createTurn(executor).run([{ id: "c1", name: "get_location", arguments: "{}" }]);
  assert.deepEqual(round.messages, [{ callId: "c1", name: "get_location", content: "Tool rejected: no client available to execute client-side tools", isError: false }]);
});

test("invalid arguments never reach the backend (its request log stays empty) and count against no breaker", async () => {
  const b = await backend({ routes: { "/t": { ok: true } } });
  const { executor, recorder } = executorFor(registry(httpHandler(b.url, "t", { inputSchema: "{ type: object, properties: { n: { type: number } }, required: [a, b] }" })));
  const turn = createTurn(executor, { repeatThreshold: 0 });
  const round = await turn.run([
    { id: "p2", name: "t", arguments: '{"n":" 10","a":1,"b":2}' },
    { id: "p3", name: "t", arguments: "{}" },
    { id: "p4", name: "t", arguments: '{"city":"Par' },
  ]);
  assert.deepEqual(round.messages.map((m) => m.content), [
    "Error: tool t validation error (args_invalid): argument validation failed: [n: Invalid type. Expected: number, given: string]",
    "Error: tool t validation error (args_invalid): argument validation failed: [(root): a is required (root): b is required]",
    "Error: validation error for tool t: unexpected EOF",
  ]);
  assert.deepEqual(b.requests, []);
  assert.deepEqual(recorder.records, []);
});

test("P1: the backend receives the coerced arguments, re-encoded by Go; unchanged arguments pass byte for byte", async () => {
  const b = await backend({ routes: { "/t": { ok: true } } });
  const schema = "{ type: object, properties: { n: { type: number }, z: { type: integer }, a: { type: string } } }";
  const { executor, recorder } = executorFor(registry(httpHandler(b.url, "t", { inputSchema: schema })));
  const round = await createTurn(executor).run([
    { id: "c1", name: "t", arguments: '{"n":"10"}' },
    { id: "c2", name: "t", arguments: '{"z":"1","a":"<b>&","big":12345678901234567890}' },
    { id: "c3", name: "t", arguments: '{ "n" : 10 }' },
  ]);
  assert.deepEqual(round.messages.map((m) => m.isError), [false, false, false]);
  assert.deepEqual(b.requests.map((r) => r.body).sort(), ['{ "n" : 10 }', '{"a":"\\u003cb\\u003e\\u0026","big":12345678901234567000,"z":1}', '{"n":10}'].sort());
  // The record carries the coerced arguments and the model-visible result.
  const byId = new Map(recorder.records.map((r) => [r.callId, r]));
  assert.deepEqual(byId.get("c1")?.arguments, { n: 10 });
  // The formatted text the model was shown (pretty-printed, sorted keys), not the backend's bytes.
  assert.equal(byId.get("c1")?.result, '{\n  "ok": true\n}');
  assert.equal(byId.get("c1")?.resultJson, '{\n  "ok": true\n}');
  assert.equal(round.messages[0]?.content, '{\n  "ok": true\n}');
});

test("P10: an unknown tool is Error: tool not found: <name>, and nothing is executed", async () => {
  const b = await backend({ routes: { "/t": { ok: true } } });
  const { executor, recorder } = executorFor(registry(httpHandler(b.url, "t")));
  const round = await createTurn(executor).run([{ id: "x", name: "nope", arguments: "{}" }]);
  assert.deepEqual(round.messages, [{ callId: "x", name: "nope", content: "Error: tool not found: nope", isError: true }]);
  assert.deepEqual(b.requests, []);
  assert.deepEqual(recorder.records, []);
});

test("every client-rejection vector of promptkit-format.json: turn.complete() shows the model its exact text", async () => {
  const { readFileSync } = await import("node:fs");
  const vectors = (JSON.parse(readFileSync("test/fixtures/promptkit-format.json", "utf8")) as { client: { id: string; rejected?: boolean; reason?: string; content: string }[] }).client.filter((v) => v.rejected === true);
  assert.equal(vectors.length, 12);
  const { executor } = executorFor(registry(clientHandler("take_photo")));
  const turn = createTurn(executor, { ctx: available });
  // Distinct arguments: twelve identical calls would trip the identical-call guard.
  const round = await turn.run(vectors.map((v, i) => ({ id: v.id, name: "take_photo", arguments: `{"n":${i}}` })));
  assert.equal(round.pending.length, 12);
  for (const v of vectors) {
    assert.deepEqual(turn.complete({ callId: v.id, isRejected: true, rejectionReason: v.reason ?? "" }), { callId: v.id, name: "take_photo", content: v.content }, v.id);
  }
});
