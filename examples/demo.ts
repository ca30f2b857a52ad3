// `npm run demo` (node --import tsx examples/demo.ts): the README's first command.
//
// It loads examples/registry.yaml and examples/pack.json, starts a loopback
// backend for every handler (examples/demo-backends.ts), prints the
// reconciliation report (over `executor.listTools()`), then executes calls through the real executor: one of
// every handler type, a gRPC retry, a client tool answered by a simulated
// client, a policy denial and a backend that fails until its breaker opens. It
// prints the outcomes, the records and the breaker states, closes everything
// and exits 0. Nothing leaves 127.0.0.1; it takes a second or two.
//
// The registry's endpoints point at example.com, a cluster service and an npx
// child process. The demo rewrites them IN MEMORY (the file is not touched)
// before loading the registry, by handler type:
// - http:    the URL's origin becomes the loopback HTTP backend's (path kept),
//            in `endpoint` and `urlTemplate`;
// - grpc:    `endpoint` becomes the loopback gRPC backend, plaintext (`tls:
//            false`, no CA path), and the serviceAccount `auth` is dropped:
//            its projected token file exists only inside a pod;
// - mcp:     the stdio `npx @modelcontextprotocol/server-filesystem` becomes
//            `transport: streamable-http` to an MCP SDK server on loopback
//            (the toolFilter is kept);
// - openapi: `specURL` becomes the loopback spec (its operationFilter kept);
// - client:  unchanged; the demo plays the client.
// The bearer and basic secrets come from a `secrets` resolver with demo values.
//
// In your own project import from "omnia-tools" and "omnia-tools/testing";
// this example imports the sources so that it runs from a checkout.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import {
  createCircuitBreakers,
  createToolExecutor,
  loadPromptPack,
  loadToolRegistry,
  reconcileTools,
  type CallContext,
  type DecisionRequest,
  type ToolCallRecord,
  type ToolExecutor,
  type ToolOutcome,
  type ToolRegistry,
} from "../src/index.js";
import { MemoryRecorder } from "../src/testing.js";
import { startDemoBackends, type DemoBackends } from "./demo-backends.js";

const EXAMPLES = fileURLToPath(new URL(".", import.meta.url));
/** The policy's limit: convert_currency above this amount is denied. */
const AMOUNT_LIMIT = 10_000;

interface Row {
  readonly n: number;
  /** The # column when it is not `n` (the two steps of a client call). */
  readonly label?: string | undefined;
  readonly what: string;
  readonly outcome: ToolOutcome;
  readonly record: ToolCallRecord | undefined;
}

/** Runs the demo, writing to `write`; resolves to the exit code. */
export async function runDemo(write: (text: string) => void = (t) => void process.stdout.write(t)): Promise<number> {
  const say = (text = ""): void => write(`${text}\n`);
  const registryText = await readFile(`${EXAMPLES}registry.yaml`, "utf8");
  const packText = await readFile(`${EXAMPLES}pack.json`, "utf8");

  const backends = await startDemoBackends();
  let executor: ToolExecutor | undefined;
  try {
    const { manifest, rewrites } = rewriteToLoopback(registryText, backends);
    const registry = loadToolRegistry(manifest);
    assertLoopbackOnly(registry);
    const pack = loadPromptPack(packText);

    say("omnia-tools demo: examples/registry.yaml + examples/pack.json, every backend on 127.0.0.1");
    say();
    say("Backends (registry endpoints rewritten in memory):");
    write(table(["HANDLER", "TYPE", "NOW", "WAS"], rewrites));
    say();

    const recorder = new MemoryRecorder();
    const breakers = createCircuitBreakers();
    /** The number of the last call started. */
    let n = 0;
    // What each breaker counted when it opened: an open breaker's window is empty (its snapshot reads 0 and 0).
    const opened = new Map<string, { reason: string; failures: number; calls: number; atCall: number }>();
    breakers.on("break", (e) => opened.set(e.name, { reason: e.reason, failures: e.failures, calls: e.calls, atCall: n }));
    executor = createToolExecutor({
      registry,
      agent: { name: "support-agent", namespace: "support", provider: "claude", model: "claude-sonnet" },
      recorder,
      breakers,
      secrets: (ref) => (ref.name === "fx-credentials" ? "demo-user:demo-pass" : "demo-token"),
      policy: (request: DecisionRequest) =>
        request.toolName === "convert_currency" && Number(request.arguments?.["amount"] ?? 0) > AMOUNT_LIMIT
          ? { allow: false, reason: `amounts over ${AMOUNT_LIMIT} need a human approver` }
          : { allow: true },
    });

    // What the model may be offered: the static tools, and what discovery finds (the MCP server's
    // tools/list, the OpenAPI spec's operations).
    const served = (await executor.listTools()).map((t) => t.name);
    const reconciliation = reconcileTools(pack, served, registry.name === undefined ? {} : { registryName: registry.name });
    say(`Reconciliation: pack ${JSON.stringify(pack.id ?? "")} against the ${served.length} tools served (${served.join(", ")})`);
    for (const [prompt, tools] of Object.entries(reconciliation.byPrompt)) say(`  offered to ${prompt}: ${tools.length === 0 ? "(none)" : tools.join(", ")}`);
    for (const m of reconciliation.mismatches) say(`  ${m.kind}: ${m.message}`);
    say();

    const identity = { userId: "demo-user", sessionId: "demo-session", requestId: "req-1" };
    const ctx: CallContext = { identity, clientToolsAvailable: true };
    const rows: Row[] = [];
    const run = async (what: string, name: string, args: unknown, label?: string): Promise<ToolOutcome> => {
      const id = `call-${++n}`;
      const outcome = await (executor as ToolExecutor).execute({ id, name, arguments: JSON.stringify(args) }, ctx);
      rows.push({ n, label, what, outcome, record: recorder.forCall(id)[0] });
      return outcome;
    };

    await run("http GET, query, redact", "get_weather", { city: "Paris", units: "metric" });
    await run("http urlTemplate, JMESPath", "convert_currency", { from: "EUR", to: "USD", amount: 100 });
    backends.grpc.setFaults("lookup_order", { kind: "status", code: ["UNAVAILABLE"], message: "orders pod restarting" });
    await run("grpc, UNAVAILABLE then OK: a retry", "lookup_order", { orderId: "A-1001" });
    await run("mcp tools/call", "read_file", { path: "/srv/docs/returns.md" });
    await run("openapi operation", "getPetById", { petId: 3 });

    // A client tool: the outcome is a request for the client; a simulated browser answers it.
    // One call, two steps: execute() hands it to the client (6a), completeClientCall() takes the answer (6b).
    const pending = await run("client tool: execute() asks the client", "get_location", {}, `${n + 1}a`);
    if (pending.status === "client") {
      const completed = executor.completeClientCall({ callId: pending.request.callId, resultJson: JSON.stringify({ lat: 48.8566, lon: 2.3522, accuracyM: 35 }) });
      rows.push({ n, label: `${n}b`, what: "client tool: the client's answer", outcome: completed, record: recorder.forCall(pending.request.callId)[0] });
    }

    await run("policy denial", "convert_currency", { from: "EUR", to: "USD", amount: 50_000 });

    // The fx backend goes down: every call fails until the breaker opens, then calls are refused without reaching it.
    backends.http.setFaults("POST /convert/*", { kind: "status", status: 503, body: "fx service down" });
    const firstFailing = n + 1;
    let outcome: ToolOutcome;
    do outcome = await run("fx backend down", "convert_currency", { from: "EUR", to: "GBP", amount: 20 });
    while (outcome.status === "error" && !outcome.message.startsWith("circuit breaker") && n < firstFailing + 20);
    const reachedBackend = backends.http.count("POST /convert/*");

    say("Outcomes:");
    const shown = collapseRepeats(rows, firstFailing);
    write(table(["#", "CALL", "TOOL", "TYPE", "STATUS", "ATTEMPTS", "RESULT OR MESSAGE"], shown.map((r) => [r.label ?? r.n, r.what, r.outcome.toolName, r.outcome.handlerType, r.outcome.status, attemptsOf(r.outcome.handlerType, r.record?.attempts), detail(r.outcome)])));
    say("  ATTEMPTS: requests made to the backend (a retry makes 2); none for a denied call or one the open breaker refused;");
    say("  a client tool runs on the client (-), and its call is recorded once, when the client answers.");
    say();
    say(`Records (${recorder.records.length}, one per call):`);
    write(
      table(
        ["CALL ID", "TOOL", "HANDLER", "TYPE", "EXECUTION", "STATUS", "ATTEMPTS", "SESSION"],
        collapseRecords(recorder.records, firstFailing).map((r) => [r.callId, r.toolName, r.handlerName, r.handlerType, r.execution, r.status, attemptsOf(r.handlerType, r.attempts), r.sessionId ?? ""]),
      ),
    );
    say();
    say("Breakers (one per tool, counting attempts; an open breaker shows what it counted when it opened):");
    write(
      table(
        ["TOOL", "STATE", "ATTEMPTS", "FAILED", "NOTE"],
        breakers.snapshot().map((b) => {
          const o = opened.get(b.name);
          if (b.state === "closed" || o === undefined) return [b.name, b.state, String(b.calls), String(b.failures), ""];
          return [b.name, b.state, String(o.calls), String(o.failures), `opened at call ${o.atCall} (${o.reason}); later calls are refused`];
        }),
      ),
    );
    for (const [name, o] of opened) say(`  ${name} opened (${o.reason}: ${o.failures} failed of ${o.calls} attempts)`);
    say(`  the fx backend received ${reachedBackend} convert_currency requests; the call after the breaker opened never reached it`);
    say();
    say("Read the code:");
    say("  examples/demo.ts           this script: load, listTools, reconcile, execute, records, breakers");
    say("  examples/demo-backends.ts  the loopback HTTP, gRPC, MCP and OpenAPI backends");
    say("  examples/registry.yaml     the ToolRegistry it loads; examples/pack.json the PromptPack");
    say("  examples/quickstart/       the README's quick start: a project of its own, with its own registry and pack");
    say();
    return 0;
  } finally {
    await executor?.close();
    await backends.close();
    say("Closed the executor and every backend.");
  }
}

/** The manifest with every endpoint on loopback (see the header comment), and what changed. */
function rewriteToLoopback(text: string, backends: DemoBackends): { manifest: object; rewrites: string[][] } {
  const manifest = parseYaml(text) as { spec: { handlers: Record<string, any>[] } };
  const rewrites: string[][] = [];
  const origin = /^https?:\/\/[^/]+/;
  for (const h of manifest.spec.handlers) {
    switch (h["type"]) {
      case "http": {
        const c = h["httpConfig"];
        const was = c.endpoint as string;
        c.endpoint = was.replace(origin, backends.http.url);
        if (typeof c.urlTemplate === "string") c.urlTemplate = c.urlTemplate.replace(origin, backends.http.url);
        rewrites.push([h["name"], "http", c.urlTemplate ?? c.endpoint, was]);
        break;
      }
      case "grpc": {
        const c = h["grpcConfig"];
        rewrites.push([h["name"], "grpc", `${backends.grpc.endpoint} (plaintext, no auth)`, `${c.endpoint}${c.tls === true ? " (TLS)" : ""}`]);
        c.endpoint = backends.grpc.endpoint;
        c.tls = false;
        delete c.tlsCAPath;
        delete h["auth"];
        break;
      }
      case "mcp": {
        const c = h["mcpConfig"];
        rewrites.push([h["name"], "mcp", `${backends.mcp.url} (streamable-http)`, `${c.transport}: ${[c.command, ...(c.args ?? [])].join(" ")}`]);
        h["mcpConfig"] = { transport: "streamable-http", endpoint: backends.mcp.url, ...(c.toolFilter === undefined ? {} : { toolFilter: c.toolFilter }) };
        break;
      }
      case "openapi": {
        const c = h["openAPIConfig"];
        rewrites.push([h["name"], "openapi", `${backends.openapi.url}/openapi.json`, c.specURL]);
        c.specURL = `${backends.openapi.url}/openapi.json`;
        break;
      }
      default:
        rewrites.push([h["name"], h["type"], "a simulated client in this process", "the user's browser"]);
    }
  }
  return { manifest, rewrites };
}

/** Refuses to run if any handler would leave the machine. */
function assertLoopbackOnly(registry: ToolRegistry): void {
  for (const h of registry.handlers) {
    if (h.type === "client") continue;
    const endpoint = h.type === "openapi" ? h.openAPIConfig.specURL : h.endpoint;
    if (!/^(https?:\/\/)?127\.0\.0\.1:\d+(\/|$)/.test(endpoint)) throw new Error(`demo: handler ${h.name} would reach ${endpoint}; every demo backend must be on 127.0.0.1`);
  }
}

/** The ATTEMPTS column: backend requests made; `-` for a client tool, which runs on the client. */
function attemptsOf(handlerType: string | undefined, attempts: number | undefined): string {
  return handlerType === "client" || attempts === undefined ? "-" : String(attempts);
}

function detail(outcome: ToolOutcome): string {
  switch (outcome.status) {
    case "success":
      return outcome.resultJson;
    case "error":
    case "denied":
      return outcome.message;
    case "client":
      return `forward to the client: ${outcome.request.name} (consent: "${outcome.request.consentMessage ?? ""}")`;
  }
}

/** The run of identical "fx backend down" failures as its first row and one row for the rest. */
function collapseRepeats(rows: readonly Row[], from: number): (Omit<Row, "n"> & { n: number | string })[] {
  const failing = rows.filter((r) => r.n >= from && r.outcome.status === "error" && !r.outcome.message.startsWith("circuit breaker"));
  if (failing.length <= 2) return [...rows];
  const first = failing[0] as Row;
  const last = failing[failing.length - 1] as Row;
  return rows.flatMap((r): (Omit<Row, "n"> & { n: number | string })[] => {
    if (!failing.includes(r) || r === first) return [r];
    if (r === last) return [{ ...r, n: `${first.n + 1}-${last.n}`, what: `fx backend down (same, ${failing.length - 1} more)` }];
    return [];
  });
}

function collapseRecords(records: readonly ToolCallRecord[], from: number): ToolCallRecord[] {
  const index = (r: ToolCallRecord): number => Number(r.callId.slice("call-".length));
  const failing = records.filter((r) => index(r) > from && r.status === "error" && !r.errorMessage?.startsWith("circuit breaker"));
  return records.filter((r) => !failing.includes(r) || r === failing[failing.length - 1]).map((r) => (r === failing[failing.length - 1] && failing.length > 1 ? { ...r, callId: `call-${from + 1}..${index(r)}` } : r));
}

function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [header, ...rows].map((r) => r.map(String));
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  return cells.map((r) => `  ${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join("  ")}`.trimEnd()).join("\n") + "\n";
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  runDemo().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
