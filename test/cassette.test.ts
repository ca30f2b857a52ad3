// Cassettes (issue #36 part 1): a createTurn round against real loopback
// backends (HTTP, gRPC, MCP, OpenAPI, a client tool, an HTTP 503) recorded
// once, every backend closed, then replayed with no socket: the turn's
// messages are byte-identical in strict and loose mode; misses say what was
// called and what was recorded nearest; secrets never reach the file; a
// tampered file is refused at the line.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AbortedError, InvalidOptionError, OmniaToolsError, isOmniaToolsError } from "../src/core/index.js";
import { loadToolRegistry } from "../src/manifest/index.js";
import { createToolExecutor, type ToolExecutor } from "../src/executor/index.js";
import { createTurn, type TurnCall, type TurnCompletion, type TurnRound, type TurnTool } from "../src/turn/index.js";
import { UnknownClientCallError } from "../src/client-tools/index.js";
import { HttpStatusError } from "../src/http/index.js";
import {
  CassetteMissError,
  createManualClock,
  recordCassette,
  replayCassette,
  startGrpcToolBackend,
  startHttpToolBackend,
  startMcpToolBackend,
  type CassetteCall,
  type CassetteExecutor,
  type CassetteToolDescriptor,
} from "../src/testing/index.js";
import * as testingEntry from "../src/testing.js";
import { startOpenApiServer } from "./helpers/openapi-server.js";

// Compile-time: the restated executor surface and the executor's fit each other both ways.
const _toCassette = (e: ToolExecutor): CassetteExecutor => e;
const _toExecutor = (e: CassetteExecutor): ToolExecutor => e;
void _toCassette;
void _toExecutor;

const dir = mkdtempSync(join(tmpdir(), "omnia-cassette-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const available = { clientToolsAvailable: true } as const;

const ROUND_1: readonly TurnCall[] = [
  { id: "r1", name: "get_weather", arguments: '{"city":"Paris"}' },
  { id: "r2", name: "charge", arguments: '{"amount":5}' },
  { id: "r3", name: "read_file", arguments: '{"path":"a.txt"}' },
  { id: "r4", name: "getPetById", arguments: '{"petId":7}' },
  { id: "r5", name: "flaky", arguments: "{}" },
  { id: "r6", name: "locate", arguments: '{"precise":true}' },
];
const ANSWER = { callId: "r6", resultJson: '{"lat":48.85,"lon":2.35}' } as const;
const ROUND_2: readonly TurnCall[] = [
  { id: "r7", name: "get_weather", arguments: '{"city":"Paris"}' },
  { id: "r8", name: "get_weather", arguments: '{ "city": "Oslo" }' },
];

interface Recording {
  readonly path: string;
  readonly text: string;
  readonly tools: readonly CassetteToolDescriptor[];
  readonly offered: readonly TurnTool[];
  readonly round1: TurnRound;
  readonly completion: TurnCompletion;
  readonly round2: TurnRound;
}

let recording: Promise<Recording> | undefined;

/** Records the turn once (every test that needs it waits for the same recording). */
function recorded(): Promise<Recording> {
  return (recording ??= record());
}

async function record(): Promise<Recording> {
  const visits = new Map<string, number>();
  const http = await startHttpToolBackend({
    routes: {
      "POST /weather": (req) => {
        const city = (req.json as { city: string }).city;
        visits.set(city, (visits.get(city) ?? 0) + 1);
        return { city, tempC: 21, visit: visits.get(city)! };
      },
      "POST /down": {},
    },
    faults: { "POST /down": { kind: "status", status: 503, body: "down" } },
  });
  const grpc = await startGrpcToolBackend({
    charge: { description: "Charges", inputSchema: { type: "object" }, execute: (a: { amount: number }) => ({ charged: a.amount, currency: "EUR" }) },
  });
  const mcp = await startMcpToolBackend({
    read_file: { description: "Reads a file", inputSchema: { type: "object", properties: { path: { type: "string" } } }, result: (args) => ({ path: args["path"] ?? null, text: "hello" }) },
  });
  const pets = await startOpenApiServer();
  const registry = loadToolRegistry(`handlers:
  - name: weather
    type: http
    tool: { name: get_weather, description: Weather, inputSchema: { type: object, properties: { city: { type: string } }, required: [city] } }
    httpConfig: { endpoint: "${http.url}/weather" }
  - name: down
    type: http
    tool: { name: flaky, description: Always down, inputSchema: { type: object } }
    httpConfig: { endpoint: "${http.url}/down" }
  - name: billing
    type: grpc
    tool: { name: charge, description: Charges, inputSchema: { type: object, properties: { amount: { type: integer } } } }
    grpcConfig: { endpoint: "${grpc.endpoint}" }
  - name: files
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${mcp.url}" }
  - name: pets
    type: openapi
    openAPIConfig: { specURL: "${pets.specURL}" }
  - name: browser
    type: client
    tool: { name: locate, description: Where the user is, inputSchema: { type: object } }
    clientConfig: { consentMessage: Share your location?, categories: [location] }
`);
  const path = join(dir, "turn.jsonl");
  const executor = recordCassette(createToolExecutor({ registry, clock: createManualClock(0) }), { path });
  try {
    const tools = await executor.listTools();
    const turn = createTurn(executor, { ctx: available });
    const offered = turn.tools;
    const round1 = await turn.run(ROUND_1);
    const completion = turn.complete(ANSWER);
    const round2 = await turn.run(ROUND_2);
    // The backends were really called.
    assert.equal(http.count("POST /weather"), 3);
    assert.equal(http.count("POST /down"), 1);
    assert.equal(grpc.count("charge"), 1);
    assert.equal(mcp.calls("read_file"), 1);
    assert.deepEqual(pets.apiRequests().map((r) => r.url), ["/v1/pets/7"]);
    return { path, text: readFileSync(path, "utf8"), tools, offered, round1, completion, round2 };
  } finally {
    await executor.close();
    await Promise.all([http.close(), grpc.close(), mcp.close(), pets.close()]);
  }
}

/** The lines of a cassette, parsed. */
function lines(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The 1-based line of the call line with this call id. */
function lineOf(text: string, callId: string): number {
  return lines(text).findIndex((l) => l["kind"] === "call" && l["callId"] === callId) + 1;
}

test("the recording: the turn's messages, and one line per call in completion order after the tools line", async () => {
  const r = await recorded();
  assert.deepEqual(r.round1.messages, [
    { callId: "r1", name: "get_weather", content: '{\n  "city": "Paris",\n  "tempC": 21,\n  "visit": 1\n}', isError: false },
    { callId: "r2", name: "charge", content: '{\n  "charged": 5,\n  "currency": "EUR"\n}', isError: false },
    { callId: "r3", name: "read_file", content: '{"path":"a.txt","text":"hello"}', isError: false },
    { callId: "r4", name: "getPetById", content: '{\n  "id": "7",\n  "name": "Rex"\n}', isError: false },
    { callId: "r5", name: "flaky", content: "Tool execution failed: HTTP 503: down", isError: true },
  ]);
  assert.deepEqual(r.round1.pending, [{ callId: "r6", name: "locate", argumentsJson: '{"precise":true}', consentMessage: "Share your location?", categories: ["location"] }]);
  assert.deepEqual(r.completion, { callId: "r6", name: "locate", content: '{"lat":48.85,"lon":2.35}' });
  assert.deepEqual(r.round2.messages.map((m) => m.callId), ["r7", "r8"]);

  const all = lines(r.text);
  assert.deepEqual(
    all.map((l) => [l["v"], l["kind"]]),
    [[1, "tools"], ...Array.from({ length: 6 }, () => [1, "call"]), [1, "client-result"], [1, "call"], [1, "call"]],
  );
  assert.deepEqual(all[0], { v: 1, kind: "tools", tools: JSON.parse(JSON.stringify(r.tools)) });
  const byId = new Map(all.filter((l) => l["kind"] === "call").map((l) => [l["callId"], l]));
  assert.deepEqual(byId.get("r2"), { v: 1, kind: "call", tool: "charge", callId: "r2", handler: "billing", handlerType: "grpc", key: '{"amount":5}', arguments: { amount: 5 }, outcome: { status: "success", resultJson: '{"charged":5,"currency":"EUR"}' }, durationMs: 0 });
  assert.deepEqual(byId.get("r5"), {
    v: 1,
    kind: "call",
    tool: "flaky",
    callId: "r5",
    handler: "down",
    handlerType: "http",
    key: "{}",
    arguments: {},
    outcome: { status: "error", message: "HTTP 503: down", error: { name: "HttpStatusError", code: "ERR_OMNIA_HTTP_STATUS", message: "HTTP 503: down", status: 503 } },
    durationMs: 0,
  });
  assert.deepEqual(byId.get("r6"), {
    v: 1,
    kind: "call",
    tool: "locate",
    callId: "r6",
    handler: "browser",
    handlerType: "client",
    key: '{"precise":true}',
    arguments: { precise: true },
    outcome: { status: "client", request: { callId: "r6", name: "locate", argumentsJson: '{"precise":true}', consentMessage: "Share your location?", categories: ["location"] } },
    durationMs: 0,
  });
  assert.deepEqual(byId.get("r8")?.["key"], '{"city":"Oslo"}');
  assert.deepEqual(all[7], { v: 1, kind: "client-result", tool: "locate", callId: "r6", result: ANSWER, outcome: { status: "success", resultJson: '{"lat":48.85,"lon":2.35}' }, durationMs: 0 });
});

test("strict replay under a new createTurn gives the recorded messages, pending calls and completion, byte for byte, with no backend", async () => {
  const r = await recorded();
  const replay = replayCassette(r.path);
  assert.deepEqual(replay.tools, r.tools);
  const turn = createTurn(replay, { ctx: available });
  assert.deepEqual(turn.tools, r.offered);
  assert.deepEqual(await turn.run(ROUND_1), r.round1);
  assert.deepEqual(turn.complete(ANSWER), r.completion);
  assert.deepEqual(await turn.run(ROUND_2), r.round2);
  // Paris was recorded twice (its visits 1 and 2): strict mode answers them in recorded order.
  assert.equal(r.round2.messages[0]!.content, '{\n  "city": "Paris",\n  "tempC": 21,\n  "visit": 2\n}');
  await replay.close();
});

test("loose replay: any order, and a recorded call answers again", async () => {
  const r = await recorded();
  const replay = replayCassette(r.path, { mode: "loose" });
  const turn = createTurn(replay, { ctx: available });
  const reversed = await turn.run([...ROUND_1].reverse());
  assert.deepEqual(reversed.messages, [...r.round1.messages].reverse());
  assert.deepEqual(reversed.pending, r.round1.pending);
  assert.deepEqual(turn.complete(ANSWER), r.completion);
  assert.deepEqual(await turn.run(ROUND_2), r.round2);
  // A call recorded once, answered twice more (strict mode would miss the second).
  const again = createTurn(replay, { ctx: available });
  const twice = await again.run([
    { id: "x1", name: "charge", arguments: '{"amount":5}' },
    { id: "x2", name: "charge", arguments: '{"amount": 5}' },
  ]);
  assert.deepEqual(twice.messages, [
    { callId: "x1", name: "charge", content: '{\n  "charged": 5,\n  "currency": "EUR"\n}', isError: false },
    { callId: "x2", name: "charge", content: '{\n  "charged": 5,\n  "currency": "EUR"\n}', isError: false },
  ]);
  // Paris cycles: the first recording, the second, then the first again.
  const paris = await Promise.all([1, 2, 3].map((i) => replay.execute({ id: `p${i}`, name: "get_weather", arguments: '{"city":"Paris"}' })));
  assert.deepEqual(paris.map((o) => (o.status === "success" ? (o.result as { visit: number }).visit : o.status)), [1, 2, 1]);
});

test("replayed outcomes carry this call's id and name, the recorded handler type and duration, and a typed error", async () => {
  const r = await recorded();
  const replay = replayCassette(r.path);
  const ok = await replay.execute({ id: "z1", name: "charge", arguments: { amount: 5 } });
  assert.deepEqual(ok, { status: "success", result: { charged: 5, currency: "EUR" }, resultJson: '{"charged":5,"currency":"EUR"}', toolName: "charge", callId: "z1", handlerType: "grpc", durationMs: 0 });
  const failed = await replay.execute({ id: "z2", name: "flaky", arguments: "{}" });
  assert.ok(failed.status === "error");
  assert.equal(failed.message, "HTTP 503: down");
  assert.equal(failed.error instanceof HttpStatusError, true);
  assert.equal(failed.error instanceof OmniaToolsError, true);
  assert.deepEqual([failed.error.name, failed.error.code, failed.error.message, (failed.error as unknown as { status: number }).status], ["HttpStatusError", "ERR_OMNIA_HTTP_STATUS", "HTTP 503: down", 503]);
  const handOff = await replay.execute({ id: "z3", name: "locate", arguments: '{"precise": true}' });
  assert.deepEqual(handOff, {
    status: "client",
    request: { callId: "z3", name: "locate", argumentsJson: '{"precise": true}', consentMessage: "Share your location?", categories: ["location"] },
    toolName: "locate",
    callId: "z3",
    handlerType: "client",
    durationMs: 0,
  });
  assert.deepEqual(replay.completeClientCall({ callId: "z3", resultJson: '{"lat":48.85,"lon":2.35}' }), {
    status: "success",
    result: { lat: 48.85, lon: 2.35 },
    resultJson: '{"lat":48.85,"lon":2.35}',
    toolName: "locate",
    callId: "z3",
    handlerType: "client",
    durationMs: 0,
  });
  assert.throws(
    () => replay.completeClientCall({ callId: "z3", resultJson: "{}" }),
    (e: unknown) => e instanceof UnknownClientCallError && (e as Error).message === 'completeClientCall: no pending client tool call with id "z3"; it is unknown or already completed',
  );
  await replay.close();
});

test("strict mode: the second call of a key recorded once is a miss, and the round rejects with CassetteMissError", async () => {
  const r = await recorded();
  const turn = createTurn(replayCassette(r.path), { ctx: available });
  await turn.run([{ id: "m1", name: "charge", arguments: '{"amount":5}' }]);
  await assert.rejects(turn.run([{ id: "m2", name: "charge", arguments: '{ "amount": 5 }' }]), (e: unknown) => {
    assert.ok(e instanceof CassetteMissError);
    assert.equal(e instanceof InvalidOptionError, true);
    assert.equal(isOmniaToolsError(e, "ERR_OMNIA_INVALID_OPTION"), true);
    assert.equal(e.name, "CassetteMissError");
    assert.equal(
      e.message,
      `replayCassette: ${r.path}: call "charge" (id "m2") has no recorded outcome left: the cassette records 1 call of "charge" with these arguments, and strict mode answers each once\narguments: {"amount":5}`,
    );
    assert.deepEqual([e.toolName, e.callId, e.key, e.nearestLine], ["charge", "m2", '{"amount":5}', lineOf(r.text, "r2")]);
    return true;
  });
  // An InvalidOptionError that is not a miss is not a CassetteMissError.
  assert.equal(new InvalidOptionError("x") instanceof CassetteMissError, false);
});

test("a call never recorded shows the nearest recorded call of the tool and a diff of the arguments", async () => {
  const r = await recorded();
  const replay = replayCassette(r.path, { mode: "loose" });
  const turn = createTurn(replay, { ctx: available });
  await assert.rejects(turn.run([{ id: "n1", name: "get_weather", arguments: '{"city":"Pariss"}' }]), (e: unknown) => {
    assert.ok(e instanceof CassetteMissError);
    assert.equal(
      e.message,
      `replayCassette: ${r.path}: call "get_weather" (id "n1") is not in the cassette: no recorded call of "get_weather" has these arguments\n` +
        `arguments: {"city":"Pariss"}\n` +
        `nearest recorded call: line ${lineOf(r.text, "r1")} (id "r1"), arguments: {"city":"Paris"}\n` +
        "arguments diff (- recorded, + this call):\n" +
        "  {\n" +
        '-   "city": "Paris"\n' +
        '+   "city": "Pariss"\n' +
        "  }",
    );
    assert.equal(e.nearestLine, lineOf(r.text, "r1"));
    return true;
  });
  // The nearest shares the most values: Oslo's call, for Oslo with an extra key.
  await assert.rejects(replay.execute({ id: "n2", name: "get_weather", arguments: '{"units":"metric","city":"Oslo"}' }), (e: unknown) => {
    assert.ok(e instanceof CassetteMissError);
    assert.equal(
      e.message,
      `replayCassette: ${r.path}: call "get_weather" (id "n2") is not in the cassette: no recorded call of "get_weather" has these arguments\n` +
        `arguments: {"city":"Oslo","units":"metric"}\n` +
        `nearest recorded call: line ${lineOf(r.text, "r8")} (id "r8"), arguments: {"city":"Oslo"}\n` +
        "arguments diff (- recorded, + this call):\n" +
        "  {\n" +
        '-   "city": "Oslo"\n' +
        '+   "city": "Oslo",\n' +
        '+   "units": "metric"\n' +
        "  }",
    );
    return true;
  });
  // A tool with no recorded call at all.
  await assert.rejects(replay.execute({ id: "n3", name: "listPets", arguments: "" }), (e: unknown) => {
    assert.ok(e instanceof CassetteMissError);
    assert.equal(
      e.message,
      `replayCassette: ${r.path}: call "listPets" (id "n3") is not in the cassette: no call of "listPets" was recorded (it records calls of "charge", "flaky", "getPetById", "get_weather", "locate", "read_file")\narguments: (none)`,
    );
    assert.equal(e.nearestLine, undefined);
    return true;
  });
});

test("onMiss answers a miss with its outcome, or leaves it a CassetteMissError by returning undefined", async () => {
  const r = await recorded();
  const asked: CassetteCall[] = [];
  const replay = replayCassette(r.path, {
    onMiss: (call) => {
      asked.push(call);
      if (call.name !== "get_weather") return undefined;
      return { status: "success", result: { city: "Rome" }, resultJson: '{"city":"Rome"}', toolName: call.name, callId: call.id, handlerType: "http", durationMs: 0 };
    },
  });
  const turn = createTurn(replay, { ctx: available });
  const round = await turn.run([
    { id: "o1", name: "get_weather", arguments: '{"city":"Rome"}' },
    { id: "o2", name: "charge", arguments: '{"amount":5}' },
  ]);
  assert.deepEqual(round.messages, [
    { callId: "o1", name: "get_weather", content: '{\n  "city": "Rome"\n}', isError: false },
    { callId: "o2", name: "charge", content: '{\n  "charged": 5,\n  "currency": "EUR"\n}', isError: false },
  ]);
  await assert.rejects(turn.run([{ id: "o3", name: "charge", arguments: '{"amount":6}' }]), CassetteMissError);
  assert.deepEqual(asked, [
    { id: "o1", name: "get_weather", arguments: '{"city":"Rome"}', key: '{"city":"Rome"}' },
    { id: "o3", name: "charge", arguments: '{"amount":6}', key: '{"amount":6}' },
  ]);
});

test("a client's answer that differs from the recorded one is a miss", async () => {
  const r = await recorded();
  const turn = createTurn(replayCassette(r.path), { ctx: available });
  await turn.run(ROUND_1);
  assert.throws(
    () => turn.complete({ callId: "r6", resultJson: '{"lat":0,"lon":0}' }),
    (e: unknown) =>
      e instanceof CassetteMissError &&
      e.message ===
        `replayCassette: ${r.path}: the client's answer to call "locate" (id "r6") is not in the cassette: it differs from the answer recorded at line 8\n` +
          "answer diff (- recorded, + this answer):\n" +
          "  {\n" +
          '-   "resultJson": "{\\"lat\\":48.85,\\"lon\\":2.35}"\n' +
          '+   "resultJson": "{\\"lat\\":0,\\"lon\\":0}"\n' +
          "  }",
  );
  // The hand-off is still pending: the recorded answer completes it.
  assert.deepEqual(turn.complete(ANSWER), r.completion);
});

test("client answers pair with their own hand-off when call ids repeat across turns; a hand-off without a recorded answer is a miss", async () => {
  const registry = loadToolRegistry("handlers:\n  - name: camera\n    type: client\n    tool: { name: take_photo, description: Takes a photo, inputSchema: { type: object } }\n");
  const path = join(dir, "client.jsonl");
  const rec = recordCassette(createToolExecutor({ registry, clock: createManualClock(0) }), { path });
  const texts: string[] = [];
  for (const answer of [{ callId: "k1", resultJson: '{"photo":1}' }, { callId: "k1", isRejected: true, isDenied: true, rejectionReason: "user declined" }]) {
    const turn = createTurn(rec, { ctx: available });
    await turn.run([{ id: "k1", name: "take_photo", arguments: "{}" }]);
    texts.push(turn.complete(answer).content);
  }
  await createTurn(rec, { ctx: available }).run([{ id: "k2", name: "take_photo", arguments: '{"flash":true}' }]);
  await rec.close();
  assert.deepEqual(texts, ['{"photo":1}', "Tool rejected: user declined"]);

  const replay = replayCassette(path);
  const replayed: string[] = [];
  for (const answer of [{ callId: "k1", resultJson: '{"photo":1}' }, { callId: "k1", isRejected: true, isDenied: true, rejectionReason: "user declined" }]) {
    const turn = createTurn(replay, { ctx: available });
    await turn.run([{ id: "k1", name: "take_photo", arguments: "{}" }]);
    replayed.push(turn.complete(answer).content);
  }
  assert.deepEqual(replayed, texts);
  const last = createTurn(replay, { ctx: available });
  await last.run([{ id: "k2", name: "take_photo", arguments: '{"flash":true}' }]);
  assert.throws(
    () => last.complete({ callId: "k2", resultJson: "{}" }),
    (e: unknown) =>
      e instanceof CassetteMissError &&
      e.message === `replayCassette: ${path}: the client's answer to call "take_photo" (id "k2") is not in the cassette: the hand-off replayed from line 6 has no recorded answer`,
  );
});

test("the rest of the surface: events as the executor emits them, tools, health, refuse, close", async () => {
  const r = await recorded();
  const replay = replayCassette(r.path);
  const events: string[] = [];
  const a = replay.on("tool_call", (p) => events.push(`call ${p.callId} ${p.name}`));
  const b = replay.on("tool_result", (p) => events.push(`result ${p.callId} ${p.name} ${p.ok} ${p.durationMs}`));
  replay.on("tool_call", () => {
    throw new Error("a listener that throws does not affect the call");
  });
  const turn = createTurn(replay, { ctx: available });
  await turn.run(ROUND_1.filter((c) => c.id !== "r3" && c.id !== "r4"));
  turn.complete(ANSWER);
  assert.deepEqual(events, [
    "call r1 get_weather",
    "result r1 get_weather true 0",
    "call r2 charge",
    "result r2 charge true 0",
    "call r5 flaky",
    "result r5 flaky false 0",
    "call r6 locate",
    "result r6 locate true 0",
  ]);
  a.dispose();
  b.dispose();
  await replay.execute({ id: "e1", name: "read_file", arguments: '{"path":"a.txt"}' });
  assert.equal(events.length, 8);

  assert.equal(await replay.listTools(), replay.tools);
  assert.equal(await replay.refresh(), undefined);
  assert.deepEqual(await replay.checkHealth(), [
    { handler: "weather", handlerType: "http", healthy: true, detail: "replayed", latencyMs: 0 },
    { handler: "down", handlerType: "http", healthy: true, detail: "replayed", latencyMs: 0 },
    { handler: "billing", handlerType: "grpc", healthy: true, detail: "replayed", latencyMs: 0 },
    { handler: "browser", handlerType: "client", healthy: true, detail: "replayed", latencyMs: 0 },
    { handler: "files", handlerType: "mcp", healthy: true, detail: "replayed", latencyMs: 0 },
    { handler: "pets", handlerType: "openapi", healthy: true, detail: "replayed", latencyMs: 0 },
  ]);
  assert.deepEqual(await replay.checkHealth("files"), [{ handler: "files", handlerType: "mcp", healthy: true, detail: "replayed", latencyMs: 0 }]);
  await assert.rejects(replay.checkHealth("nope"), (e: unknown) => e instanceof InvalidOptionError && e.message === 'checkHealth: no handler named "nope"; expected one of "weather", "down", "billing", "browser", "files", "pets"');
  assert.deepEqual(await replay.refuse({ id: "f1", name: "charge", arguments: "{}" }, undefined, "too expensive"), {
    status: "denied",
    message: "Tool call rejected: too expensive",
    reason: "too expensive",
    toolName: "charge",
    callId: "f1",
    handlerType: "grpc",
    durationMs: 0,
  });
  const aborted = new AbortController();
  aborted.abort();
  await assert.rejects(replay.execute({ id: "g1", name: "charge", arguments: '{"amount":5}' }, { signal: aborted.signal }), AbortedError);

  await replay.close();
  await assert.rejects(replay.execute({ id: "h1", name: "charge", arguments: '{"amount":5}' }), (e: unknown) => isOmniaToolsError(e, "ERR_OMNIA_CLOSED") && (e as Error).message === "execute: the executor is closed");
  await assert.rejects(replay.listTools(), (e: unknown) => isOmniaToolsError(e, "ERR_OMNIA_CLOSED"));
});

test("without a tools line, the tools are made from the call lines, and options.tools wins", async () => {
  const r = await recorded();
  const path = join(dir, "no-tools.jsonl");
  writeFileSync(path, r.text.split("\n").filter((l) => !l.includes('"kind":"tools"')).join("\n"));
  const replay = replayCassette(path);
  const desc = (name: string, handlerName: string, handlerType: CassetteToolDescriptor["handlerType"]): CassetteToolDescriptor => ({
    name,
    description: "",
    inputSchema: { type: "object" },
    handlerName,
    handlerType,
    execution: handlerType === "client" ? "client" : "server",
  });
  assert.deepEqual([...replay.tools].sort((x, y) => (x.name < y.name ? -1 : 1)), [
    desc("charge", "billing", "grpc"),
    desc("flaky", "down", "http"),
    desc("getPetById", "pets", "openapi"),
    desc("get_weather", "weather", "http"),
    desc("locate", "browser", "client"),
    desc("read_file", "files", "mcp"),
  ]);
  // These tools still replay the turn as it was recorded (no schema changes these arguments).
  const turn = createTurn(replay, { ctx: available });
  assert.deepEqual(await turn.run(ROUND_1), r.round1);

  const only = [desc("charge", "billing", "grpc")];
  assert.deepEqual(replayCassette(r.path, { tools: only }).tools, only);
});

test("redaction: a bearer token, a headersFromSecret header, a staticQuery key and a redacted argument never reach the file", async () => {
  const http = await startHttpToolBackend({ routes: { "POST /login": { ok: true } }, faults: { "POST /login": { kind: "status", status: [200, 503] } } });
  const secretValues = { token: "BEARER-SECRET-1", apikey: "HEADER-SECRET-2" } as Record<string, string>;
  const registry = loadToolRegistry(`handlers:
  - name: vault
    type: http
    tool: { name: login, description: Logs in, inputSchema: { type: object } }
    auth: { type: bearer, secretRef: { name: creds, key: token } }
    httpConfig:
      endpoint: "${http.url}/login"
      headersFromSecret: { X-Api-Key: { name: creds, key: apikey } }
      staticQuery: { api_key: STATIC-QUERY-SECRET-3 }
`);
  const path = join(dir, "secrets.jsonl");
  const executor = recordCassette(createToolExecutor({ registry, clock: createManualClock(0), secrets: (ref) => secretValues[ref.key] ?? "" }), { path, redact: ["password"] });
  const args = '{"user":"ann","password":"PASSWORD-SECRET-4","profile":{"Password":"NESTED-SECRET-5","tags":["a"]}}';
  let outcomes;
  try {
    outcomes = [
      await executor.execute({ id: "s1", name: "login", arguments: args }),
      await executor.execute({ id: "s2", name: "login", arguments: args }),
    ];
    // An aborted call writes nothing.
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(executor.execute({ id: "s3", name: "login", arguments: args }, { signal: aborted.signal }), AbortedError);
  } finally {
    await executor.close();
    await http.close();
  }
  assert.deepEqual(outcomes.map((o) => (o.status === "error" ? o.message : o.status)), ["success", "HTTP 503: Service Unavailable"]);
  // The secrets were on the wire...
  const first = http.requests[0]!;
  assert.equal(first.headers["authorization"], "Bearer BEARER-SECRET-1");
  assert.equal(first.headers["x-api-key"], "HEADER-SECRET-2");
  assert.equal(first.query["api_key"], "STATIC-QUERY-SECRET-3");
  assert.equal(first.body.includes("PASSWORD-SECRET-4"), true);
  // ... and none is in the cassette.
  const text = readFileSync(path, "utf8");
  for (const secret of ["BEARER-SECRET-1", "HEADER-SECRET-2", "STATIC-QUERY-SECRET-3", "PASSWORD-SECRET-4", "NESTED-SECRET-5"]) {
    assert.equal(text.includes(secret), false, secret);
  }
  const calls = lines(text).filter((l) => l["kind"] === "call");
  assert.deepEqual(calls[0], {
    v: 1,
    kind: "call",
    tool: "login",
    callId: "s1",
    handler: "vault",
    handlerType: "http",
    key: '{"password":"***","profile":{"Password":"***","tags":["a"]},"user":"ann"}',
    arguments: { user: "ann", password: "***", profile: { Password: "***", tags: ["a"] } },
    outcome: { status: "success", resultJson: '{"ok":true}' },
    durationMs: 0,
  });
  assert.equal(calls.length, 2);

  // The replay redacts the same way, so any password matches; without the list the key differs.
  const replay = replayCassette(path, { redact: ["password"] });
  const again = await replay.execute({ id: "t1", name: "login", arguments: '{"user":"ann","password":"other","profile":{"Password":"x","tags":["a"]}}' });
  assert.equal(again.status, "success");
  await assert.rejects(replayCassette(path).execute({ id: "t2", name: "login", arguments: args }), CassetteMissError);
});

test("a tampered cassette is refused with InvalidOptionError naming the line", async () => {
  const r = await recorded();
  const bad = (name: string, text: string, message: (p: string) => string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    assert.throws(() => replayCassette(p), (e: unknown) => e instanceof InvalidOptionError && !(e instanceof CassetteMissError) && e.message === message(p));
  };
  const recordedLines = r.text.split("\n");
  const truncated = [...recordedLines];
  truncated[2] = truncated[2]!.slice(0, 20);
  bad("truncated.jsonl", truncated.join("\n"), (p) => `replayCassette: ${p} line 3: not JSON; got ${JSON.stringify(recordedLines[2]!.slice(0, 20))}`);
  const version = [...recordedLines];
  version[3] = version[3]!.replace('{"v":1,', '{"v":2,');
  bad("version.jsonl", version.join("\n"), (p) => `replayCassette: ${p} line 4: "v" must be 1 (the cassette format version); got 2`);
  bad("kind.jsonl", '{"v":1,"kind":"tape"}\n', (p) => `replayCassette: ${p} line 1: "kind" must be "tools", "call" or "client-result"; got "tape"`);
  bad("array.jsonl", "\n[1]\n", (p) => `replayCassette: ${p} line 2: expected a JSON object; got [1]`);
  bad(
    "status.jsonl",
    '{"v":1,"kind":"call","tool":"t","callId":"c","handler":"h","handlerType":"http","key":"{}","arguments":{},"outcome":{"status":"ok"},"durationMs":0}\n',
    (p) => `replayCassette: ${p} line 1: outcome: "status" must be "success", "error", "denied" or "client"; got "ok"`,
  );
  bad(
    "result.jsonl",
    '{"v":1,"kind":"call","tool":"t","callId":"c","handler":"h","handlerType":"http","key":"{}","arguments":{},"outcome":{"status":"success","resultJson":"{"},"durationMs":0}\n',
    (p) => `replayCassette: ${p} line 1: outcome: "resultJson" must be JSON text; got "{"`,
  );
  assert.throws(
    () => replayCassette(join(dir, "missing.jsonl")),
    (e: unknown) => e instanceof InvalidOptionError && e.message.startsWith(`replayCassette: cannot read the cassette ${join(dir, "missing.jsonl")}: ENOENT`),
  );
});

test("options are checked at once", async () => {
  const r = await recorded();
  const fake = replayCassette(r.path);
  const throwsOption = (fn: () => unknown, message: string) => assert.throws(fn, (e: unknown) => e instanceof InvalidOptionError && e.message === message);
  throwsOption(() => replayCassette(r.path, { mode: "lenient" as never }), 'replayCassette: mode must be "strict" or "loose"; got "lenient"');
  throwsOption(() => replayCassette(r.path, { redact: ["password", ""] }), 'replayCassette: redact[1] must be a non-empty string; got ""');
  throwsOption(() => replayCassette(r.path, { onMis: () => undefined } as never), 'replayCassette: unknown option "onMis" (did you mean "onMiss"?); expected one of mode, onMiss, redact, tools');
  throwsOption(() => recordCassette(fake, { path: "" }), 'recordCassette: path must be a non-empty string; got ""');
  throwsOption(() => recordCassette(fake, { path: join(dir, "x.jsonl"), redact: "password" as never }), 'recordCassette: redact must be an array of key names; got "password"');
  throwsOption(() => recordCassette({} as never, { path: join(dir, "x.jsonl") }), "recordCassette: executor must be a tool executor (createToolExecutor()); got {}");
  assert.throws(() => recordCassette(fake, { path: join(dir, "no-such-dir", "x.jsonl") }), (e: unknown) => e instanceof InvalidOptionError && e.message.startsWith(`recordCassette: cannot write the cassette ${join(dir, "no-such-dir", "x.jsonl")}: ENOENT`));
});

test("a recording of a replay is the same cassette; the testing entry exports the API", async () => {
  const r = await recorded();
  const path = join(dir, "rerecorded.jsonl");
  const executor = recordCassette(replayCassette(r.path), { path });
  await executor.listTools();
  // The calls in the recording's completion order, and the client's answer where it came.
  const calls = new Map([...ROUND_1, ...ROUND_2].map((c) => [c.id, c]));
  for (const line of lines(r.text)) {
    if (line["kind"] === "call") await executor.execute(calls.get(line["callId"] as string)!, available);
    if (line["kind"] === "client-result") executor.completeClientCall(ANSWER);
  }
  await executor.close();
  assert.equal(readFileSync(path, "utf8"), r.text);

  assert.equal(testingEntry.recordCassette, recordCassette);
  assert.equal(testingEntry.replayCassette, replayCassette);
  assert.equal(testingEntry.CassetteMissError, CassetteMissError);
});
