// The runtime-conformance bin as a child process (contract.md §3.3): exit 0/1/2,
// the tabwriter table and the JSON output, against fixture runtimes on loopback.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import type { ClientMessage } from "../src/contract/index.js";
import { KNOWN, done, fixtureImpl, hello, startFixtureRuntime, untilCancelled, type FixtureRuntime, type RuntimeImpl } from "./helpers/runtime-fixture.js";
import { LOADER, sourcePath } from "./helpers/source.js";

const CLI = sourcePath("src/cli/runtime-conformance.ts");
const HEALTH_SKIP = "skipped: Health/contract check failed";

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI asynchronously (the fixture runtimes live in this process). */
function cli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...LOADER, CLI, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}

const running: FixtureRuntime[] = [];
after(async () => {
  await Promise.all(running.map((r) => r.close()));
});

async function fixture(impl: RuntimeImpl): Promise<FixtureRuntime> {
  const rt = await startFixtureRuntime(impl);
  running.push(rt);
  return rt;
}

const H = (capabilities: readonly string[]) => ({ healthy: true, status: "ready", contractVersion: "1.9.0", capabilities: [...capabilities] });
const converseFor = (caps: readonly string[]) => (first: ClientMessage | undefined) =>
  first?.duplexStart !== undefined ? [hello(caps, { codec: "pcm", sampleRate: 16000, channels: 1 })] : [hello(caps), done("ok")];

/** Conformant, with duplex not advertised (so duplex-honesty is skipped). */
function conformant(): Promise<FixtureRuntime> {
  const caps = KNOWN.filter((c) => c !== "duplex_audio");
  return fixture(fixtureImpl({ health: H(caps), converse: converseFor(caps), invoke: () => ({ outputJson: "{}" }) }));
}

/** The over-claiming example of §3.3: `invoke` served but not advertised. */
function servesUnadvertisedInvoke(): Promise<FixtureRuntime> {
  const caps = ["client_tools"];
  return fixture(fixtureImpl({ health: H(caps), converse: converseFor(caps), invoke: () => ({ outputJson: "{}" }) }));
}

async function closedPort(): Promise<string> {
  const rt = await startFixtureRuntime({});
  await rt.close();
  return rt.addr;
}

describe("runtime-conformance: exit 0", () => {
  test("a conformant runtime: the table, PASS, exit 0", async () => {
    const rt = await conformant();
    const r = await cli("--addr", rt.addr);
    assert.equal(r.stderr, "");
    assert.equal(
      r.stdout,
      [
        "CHECK                     STATUS  DETAIL",
        "health/contract           pass    ",
        "hello-first               pass    ",
        "text-turn-shape           pass    ",
        "graceful-malformed-input  pass    ",
        "invoke-honesty            pass    ",
        "duplex-honesty            skip    duplex_audio not advertised",
        "",
        "PASS: runtime is conformant",
        "",
      ].join("\n"),
    );
    assert.equal(r.code, 0);
  });

  test("--json prints the result object, exit 0", async () => {
    const rt = await conformant();
    const r = await cli("--addr", rt.addr, "--json", "--timeout", "10s");
    const result = {
      passed: true,
      checks: [
        { name: "health/contract", status: "pass", detail: "" },
        { name: "hello-first", status: "pass", detail: "" },
        { name: "text-turn-shape", status: "pass", detail: "" },
        { name: "graceful-malformed-input", status: "pass", detail: "" },
        { name: "invoke-honesty", status: "pass", detail: "" },
        { name: "duplex-honesty", status: "skip", detail: "duplex_audio not advertised" },
      ],
    };
    assert.equal(r.stdout, `${JSON.stringify(result, null, 2)}\n`);
    assert.equal(r.stderr, "");
    assert.equal(r.code, 0);
  });

  test("Go-style single-dash flags are accepted (-addr, -timeout=1m30s, -json)", async () => {
    const rt = await conformant();
    const r = await cli(`-addr=${rt.addr}`, "-timeout=1m30s", "-json");
    assert.equal((JSON.parse(r.stdout) as { passed: boolean }).passed, true);
    assert.equal(r.code, 0);
  });

  test("-h and --help print the usage to stdout, exit 0", async () => {
    for (const flag of ["-h", "--help"]) {
      const r = await cli(flag);
      assert.match(r.stdout, /^Usage: runtime-conformance --addr host:port \[--timeout 30s\] \[--json\]\n/);
      assert.equal(r.stderr, "");
      assert.equal(r.code, 0);
    }
  });
});

describe("runtime-conformance: exit 1", () => {
  test("a non-conformant runtime: the verified table of contract.md §3.3, FAIL, exit 1", async () => {
    const rt = await servesUnadvertisedInvoke();
    const r = await cli("--addr", rt.addr);
    assert.equal(
      r.stdout,
      [
        "CHECK                     STATUS  DETAIL",
        "health/contract           pass    ",
        "hello-first               pass    ",
        "text-turn-shape           pass    ",
        "graceful-malformed-input  pass    ",
        "invoke-honesty            fail    Invoke is answered but `invoke` is not advertised",
        "duplex-honesty            skip    duplex_audio not advertised",
        "",
        "FAIL: runtime is not conformant",
        "",
      ].join("\n"),
    );
    assert.equal(r.stderr, "");
    assert.equal(r.code, 1);
  });

  test("a non-conformant runtime with --json: passed false, exit 1", async () => {
    const rt = await servesUnadvertisedInvoke();
    const r = await cli("--json", "--addr", rt.addr);
    const result = JSON.parse(r.stdout) as { passed: boolean; checks: { name: string; status: string; detail: string }[] };
    assert.equal(result.passed, false);
    assert.deepEqual(result.checks[4], { name: "invoke-honesty", status: "fail", detail: "Invoke is answered but `invoke` is not advertised" });
    assert.equal(r.code, 1);
  });

  test("an unreachable runtime (a closed loopback port) is exit 1, not a usage error", async () => {
    const addr = await closedPort();
    const r = await cli("--addr", addr);
    assert.equal(
      r.stdout,
      [
        "CHECK                     STATUS  DETAIL",
        `health/contract           fail    Health RPC failed: rpc error: code = Unavailable desc = connect ECONNREFUSED ${addr}`,
        `hello-first               skip    ${HEALTH_SKIP}`,
        `text-turn-shape           skip    ${HEALTH_SKIP}`,
        `graceful-malformed-input  skip    ${HEALTH_SKIP}`,
        `invoke-honesty            skip    ${HEALTH_SKIP}`,
        `duplex-honesty            skip    ${HEALTH_SKIP}`,
        "",
        "FAIL: runtime is not conformant",
        "",
      ].join("\n"),
    );
    assert.equal(r.stderr, "");
    assert.equal(r.code, 1);
  });

  test("an unreachable runtime with --json, exit 1", async () => {
    const addr = await closedPort();
    const r = await cli("--addr", addr, "--json");
    const result = JSON.parse(r.stdout) as { passed: boolean; checks: { name: string; status: string; detail: string }[] };
    assert.equal(result.passed, false);
    assert.deepEqual(result.checks[0], { name: "health/contract", status: "fail", detail: `Health RPC failed: rpc error: code = Unavailable desc = connect ECONNREFUSED ${addr}` });
    assert.deepEqual(
      result.checks.slice(1).map((c) => c.status),
      ["skip", "skip", "skip", "skip", "skip"],
    );
    assert.equal(r.code, 1);
  });

  test("--timeout bounds the whole run: a Health that never answers fails with deadline_exceeded", async () => {
    const rt = await fixture({
      health: async (_req, ctx) => {
        await untilCancelled(ctx);
        return H(KNOWN);
      },
    });
    const r = await cli("--addr", rt.addr, "--timeout", "300ms");
    assert.match(r.stdout, /^CHECK +STATUS +DETAIL\nhealth\/contract +fail +Health RPC failed: rpc error: code = DeadlineExceeded desc = context deadline exceeded\n/);
    assert.match(r.stdout, /\n\nFAIL: runtime is not conformant\n$/);
    assert.equal(r.code, 1);
  });
});

describe("runtime-conformance: exit 2", () => {
  test("missing --addr: error, usage on stderr, nothing on stdout", async () => {
    for (const args of [[], ["--addr", ""], ["--json"]]) {
      const r = await cli(...args);
      assert.match(r.stderr, /^error: --addr is required\nUsage: runtime-conformance /);
      assert.equal(r.stdout, "");
      assert.equal(r.code, 2, JSON.stringify(args));
    }
  });

  test("an address that is not host:port: error: dial <addr>: ...", async () => {
    for (const addr of ["localhost", "http://127.0.0.1:9000", "127.0.0.1:99999"]) {
      const r = await cli("--addr", addr);
      assert.equal(r.stderr, `error: dial ${addr}: addr must be host:port; got ${JSON.stringify(addr)}\n`);
      assert.equal(r.stdout, "");
      assert.equal(r.code, 2);
    }
  });

  test("a bad --timeout duration", async () => {
    const r = await cli("--addr", "127.0.0.1:9000", "--timeout", "10");
    assert.match(r.stderr, /^error: --timeout: invalid duration "10": missing unit; valid units are ns, us, ms, s, m, h\nUsage: /);
    assert.equal(r.stdout, "");
    assert.equal(r.code, 2);
  });

  test("an unknown flag, a flag without its value, a stray argument", async () => {
    const cases: [string[], RegExp][] = [
      [["--addr", "127.0.0.1:9000", "--tls"], /^error: Unknown option '--tls'/],
      [["--addr"], /^error: Option '--addr <value>' argument missing/],
      [["--addr", "127.0.0.1:9000", "extra"], /^error: unexpected argument "extra"\nUsage: /],
    ];
    for (const [args, stderr] of cases) {
      const r = await cli(...args);
      assert.match(r.stderr, stderr);
      assert.equal(r.stdout, "");
      assert.equal(r.code, 2, JSON.stringify(args));
    }
  });
});

describe("runtime-conformance: an address that is not a runtime's gRPC port", () => {
  test("an HTTP/1 server: the health check's protocol error, then a hint on stderr that it is not a gRPC server; exit 1", async () => {
    const { createServer } = await import("node:http");
    const server = createServer((_req, res) => res.end("hello"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const addr = `127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const r = await cli("--addr", addr);
      assert.equal(r.code, 1);
      assert.equal(r.stdout.split("\n")[1], "health/contract           fail    Health RPC failed: rpc error: code = Internal desc = Protocol error");
      assert.equal(r.stderr, `runtime-conformance: ${addr} is not a gRPC server (it does not speak HTTP/2); is --addr the runtime's gRPC port?\n`);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test("a ToolService (gRPC, not a runtime): Unimplemented, then a hint that RuntimeService is missing; exit 1", async () => {
    const { startGrpcToolBackend } = await import("../src/testing.js");
    const backend = await startGrpcToolBackend({ t: { description: "d", inputSchema: { type: "object" }, execute: () => ({}) } });
    try {
      const r = await cli("--addr", backend.endpoint);
      assert.equal(r.code, 1);
      assert.match(r.stdout.split("\n")[1] ?? "", /^health\/contract {11}fail {4}Health RPC failed: rpc error: code = Unimplemented desc = /);
      assert.equal(r.stderr, `runtime-conformance: ${backend.endpoint} is a gRPC server without omnia.runtime.v1.RuntimeService; is --addr the runtime's port?\n`);
    } finally {
      await backend.close();
    }
  });
});
