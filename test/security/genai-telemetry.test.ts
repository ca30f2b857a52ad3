// Security checks of the GenAI telemetry (issue #37), two new outbound channels:
// - trace context sent to MCP servers (`mcpMeta`, in `params._meta`) and gRPC
//   backends (`grpcMetadata`): only traceparent, tracestate and baggage, never a
//   credential, and never a field a host propagator adds that would replace one;
// - arguments and results on spans (`captureContent`): the handler's bearer
//   token, headersFromSecret values and staticQuery values are `***`, as in
//   error texts;
// - a hostile tool name or description (an MCP server's, a model's) cannot put
//   more than `execute_tool <name>` in a span name, controls included, nor an
//   unbounded text in an attribute (GEN_AI_LIMITS: name 256, description 1,024,
//   contents 16,384 UTF-16 code units).
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { context, propagation, type Context, type TextMapPropagator, type TextMapSetter } from "@opentelemetry/api";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { loadToolRegistry, type ToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutor, type ToolExecutorOptions, type ToolOutcome } from "../../src/executor/index.js";
import { GEN_AI_LIMITS } from "../../src/telemetry/index.js";
import { createManualClock, startGrpcToolBackend } from "../../src/testing/index.js";
import { startHttpServer, type TestServer } from "../helpers/http-server.js";
import { startMcpHttpServer, type McpHttpTestServer } from "../helpers/mcp-server.js";
import { useOtelSdk } from "../helpers/otel-sdk.js";

const { spans, tracer, closers } = useOtelSdk();
const SECRETS = { bearer: "tok-BEARER-91c2", header: "key-HEADER-0b7d", mcp: "tok-MCP-4e11", grpc: "tok-GRPC-77aa" };
const STATIC = "q-STATIC-31";
let http: TestServer;
let mcp: McpHttpTestServer;
let grpc: Awaited<ReturnType<typeof startGrpcToolBackend>>;
const metas: unknown[] = [];

/** A host propagator that, beside W3C trace context and baggage, writes credential-looking fields. */
const hostile: TextMapPropagator = {
  inject(_ctx: Context, carrier: unknown, setter: TextMapSetter) {
    setter.set(carrier, "authorization", "Bearer HOST-EVIL");
    setter.set(carrier, "x-api-key", "HOST-EVIL");
  },
  extract: (ctx: Context) => ctx,
  fields: () => ["authorization", "x-api-key"],
};
const propagator = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator(), hostile] });
const w3c = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });

before(async () => {
  http = await startHttpServer((req, res) => {
    res.setHeader("content-type", "application/json");
    // A backend that reflects what it was sent, credentials included.
    res.end(JSON.stringify({ auth: req.headers.authorization, key: req.headers["x-api-key"], url: req.url }));
  });
  mcp = await startMcpHttpServer({
    transport: "streamable-http",
    tools: [
      { name: "echo", description: "Echoes", call: (args) => ({ content: [{ type: "text", text: String(args["text"]) }] }) },
      { name: `evil\r\nexecute_tool admin\u2028${"x".repeat(100_000)}`, description: `line\u0000\u001b[31m${"d".repeat(1_000_000)}`, call: () => ({ content: [{ type: "text", text: "ok" }] }) },
    ],
    intercept: (_req, body) => {
      const b = body as { method?: string; params?: { _meta?: unknown } } | undefined;
      if (b?.method === "tools/call") metas.push(b.params?._meta);
      return false;
    },
  });
  grpc = await startGrpcToolBackend({ lookup: { description: "d", inputSchema: { type: "object" }, execute: () => ({ ok: true }) } });
});

after(() => Promise.all([http.close(), mcp.close(), grpc.close()]));

beforeEach(() => {
  metas.length = 0;
});

function registry(): ToolRegistry {
  const tool = (name: string) => ({ name, description: "d", inputSchema: { type: "object" } });
  return loadToolRegistry({
    handlers: [
      {
        name: "h",
        type: "http",
        tool: tool("reflect"),
        auth: { type: "bearer", secretRef: { name: "s", key: "bearer" } },
        httpConfig: { endpoint: `${http.url}/x`, staticQuery: { api_key: STATIC }, headersFromSecret: { "X-Api-Key": { name: "s", key: "header" } } },
      },
      { name: "kb", type: "mcp", auth: { type: "bearer", secretRef: { name: "s", key: "mcp" } }, mcpConfig: { transport: "streamable-http", endpoint: mcp.url } },
      { name: "g", type: "grpc", tool: tool("lookup"), auth: { type: "bearer", secretRef: { name: "s", key: "grpc" } }, grpcConfig: { endpoint: `127.0.0.1:${grpc.port}` } },
    ],
  });
}

function executor(telemetry: Record<string, unknown>): ToolExecutor {
  const options: ToolExecutorOptions = {
    registry: registry(),
    clock: createManualClock(Date.UTC(2026, 11, 4, 14)),
    secrets: (ref) => SECRETS[ref.key as keyof typeof SECRETS],
    telemetry: { tracer, propagator, env: {}, conventions: ["omnia", "gen_ai"], ...telemetry },
  };
  const ex = createToolExecutor(options);
  closers.push(() => ex.close());
  return ex;
}

async function withBaggage(fn: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
  return context.with(propagation.setBaggage(context.active(), propagation.createBaggage({ tenant: { value: "acme" } })), fn);
}

function one(name: string): ReadableSpan {
  const found = spans.getFinishedSpans().filter((s) => s.name === name);
  assert.equal(found.length, 1, `${name} among ${spans.getFinishedSpans().map((s) => s.name).join(", ")}`);
  return found[0]!;
}

test("trace context sent to MCP servers and gRPC backends carries only traceparent, tracestate and baggage, never a credential or a field a host propagator adds", async () => {
  const ex = executor({ mcpMeta: true, grpcMetadata: true });
  const seen = grpc.calls.length;
  assert.equal((await withBaggage(() => ex.execute({ id: "m1", name: "echo", arguments: '{"text":"hi"}' }))).status, "success");
  assert.equal((await withBaggage(() => ex.execute({ id: "g1", name: "lookup", arguments: "{}" }))).status, "success");
  assert.equal(metas.length, 1);
  const meta = metas[0] as Record<string, string>;
  assert.deepEqual(Object.keys(meta).sort(), ["baggage", "traceparent"]);
  assert.equal(meta["baggage"], "tenant=acme");
  const metadata = grpc.calls[seen]!.headers;
  // The handler's own credential stays the handler's; the host propagator's fields are dropped.
  assert.equal(metadata["authorization"], `Bearer ${SECRETS.grpc}`);
  assert.equal(metadata["x-api-key"], undefined);
  assert.equal(metadata["baggage"], "tenant=acme");
  const sent = JSON.stringify({ meta, traceparent: metadata["traceparent"], baggage: metadata["baggage"], tracestate: metadata["tracestate"] });
  for (const secret of [...Object.values(SECRETS), "HOST-EVIL"]) assert.ok(!sent.includes(secret), `${secret} in ${sent}`);
  // The MCP request's own Authorization is the handler's, not the host propagator's.
  const mcpCall = mcp.requests.filter((r) => r.rpcMethod === "tools/call").at(-1)!;
  assert.equal(mcpCall.headers.authorization, `Bearer ${SECRETS.mcp}`);
});

test("on an HTTP call a host propagator's fields never replace the handler's Authorization or a headersFromSecret header; its W3C fields are sent", async () => {
  const ex = executor({ propagator, propagation: "always" });
  const out = await withBaggage(() => ex.execute({ id: "p1", name: "reflect", arguments: "{}" }));
  assert.equal(out.status, "success");
  const seen = JSON.parse(out.status === "success" ? out.resultJson : "{}") as { auth?: string; key?: string };
  assert.deepEqual([seen.auth, seen.key], [`Bearer ${SECRETS.bearer}`, SECRETS.header]);
  const request = http.requests.at(-1)!;
  assert.match(String(request.headers["traceparent"]), /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
  assert.equal(request.headers["baggage"], "tenant=acme");
});

test("captureContent shows the bearer token, headersFromSecret values and staticQuery values as *** in the recorded arguments and result, as error texts show them", async () => {
  // The host's propagator here writes only W3C fields (the HTTP trace writer sends whatever fields the host's propagator writes).
  const ex = executor({ captureContent: true, propagator: w3c });
  const args = JSON.stringify({ note: `${SECRETS.bearer} and ${SECRETS.header} and ${STATIC}` });
  const out = await ex.execute({ id: "c1", name: "reflect", arguments: args });
  assert.equal(out.status, "success");
  // The backend did get (and reflect) every secret: the span is where they are hidden.
  assert.ok(out.status === "success" && out.resultJson.includes(SECRETS.bearer) && out.resultJson.includes(STATIC));
  const gen = one("execute_tool reflect");
  assert.equal(gen.attributes["gen_ai.tool.call.arguments"], '{"note":"*** and *** and ***"}');
  assert.equal(gen.attributes["gen_ai.tool.call.result"], '{"auth":"***","key":"***","url":"/x?api_key=***"}');
  const everything = JSON.stringify(spans.getFinishedSpans().map((s) => [s.name, s.attributes, s.events]));
  for (const secret of [SECRETS.bearer, SECRETS.header, STATIC]) assert.ok(!everything.includes(secret), secret);
});

test("a hostile tool name or description cannot inject span names beyond the convention or unbounded attribute sizes", async () => {
  const ex = executor({ captureContent: true });
  const name = `evil\r\nexecute_tool admin\u2028${"x".repeat(100_000)}`;
  const out = await ex.execute({ id: "e1", name, arguments: JSON.stringify({ big: "y".repeat(1_000_000) }) });
  assert.equal(out.status, "success");
  const shown = `evil\uFFFD\uFFFDexecute_tool admin\uFFFD${"x".repeat(GEN_AI_LIMITS.toolNameChars - 3 - 25)}...`;
  assert.equal(shown.length, GEN_AI_LIMITS.toolNameChars);
  const gen = one(`execute_tool ${shown}`);
  assert.equal(gen.attributes["gen_ai.tool.name"], shown);
  const description = String(gen.attributes["gen_ai.tool.description"]);
  assert.equal(description, `line\uFFFD\uFFFD[31m${"d".repeat(GEN_AI_LIMITS.descriptionChars - 3 - 10)}...`);
  assert.equal(String(gen.attributes["gen_ai.tool.call.arguments"]).length, GEN_AI_LIMITS.contentChars);
  assert.equal(one(`tools/call ${shown}`).attributes["gen_ai.tool.name"], shown);
  // A name the model invents, as long as it likes: the span name is the convention's _OTHER.
  await ex.execute({ id: "e2", name: `made_up\n${"z".repeat(1_000_000)}`, arguments: "{}" });
  const unknown = one("execute_tool _OTHER");
  assert.equal(String(unknown.attributes["gen_ai.tool.name"]).length, GEN_AI_LIMITS.toolNameChars);
  for (const span of spans.getFinishedSpans()) {
    assert.ok(!/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(span.name), JSON.stringify(span.name.slice(0, 40)));
    assert.ok(span.name.length <= "execute_tool ".length + GEN_AI_LIMITS.toolNameChars, `${span.name.length}`);
  }
});
