// Issue #31 item 6: what the CLIs print reaches an operator's terminal. A backend's error body with a
// window-title change (ESC ] 0 ; title BEL), a screen clear (ESC [ 2 J), an OSC 52 clipboard write and the
// one-character C1 CSI (U+009B) is printed with every control character as a visible `\u00XX` escape, by
// `omnia-tools call` (human and --json output), `omnia-tools probe`, and a command that throws. The CLI runs
// as a child process against real loopback servers, as an operator's shell would run it.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli/run-cli.js";
import type { CliCommand, CliIo } from "../../src/cli/index.js";
import { escapeTerminalText } from "../../src/cli/terminal-text.js";
import { execFile } from "node:child_process";
import { Code, ConnectError } from "@connectrpc/connect";
import { omniaTools } from "../helpers/cli.js";
import { startFixtureRuntime } from "../helpers/runtime-fixture.js";
import { startHttpServer, type TestServer } from "../helpers/http-server.js";
import { LOADER, sourcePath } from "../helpers/source.js";

/** Every attack at once: title, clear, clipboard, C1 CSI (as UTF-8), DEL, CR, a NUL; and a tab and a newline, kept. */
const HOSTILE = "a\x1b]0;pwned\x07b\x1b[2Jc\x1b]52;c;ZWNobyBoaQ==\x07d\u009b31me\x7ff\rg\x00h\ti\nj";
/** How it prints. */
const SHOWN = "a\\u001b]0;pwned\\u0007b\\u001b[2Jc\\u001b]52;c;ZWNobyBoaQ==\\u0007d\\u009b31me\\u007ff\\u000dg\\u0000h\ti\nj";

let dir = "";
let server: TestServer;
const file = (name: string): string => join(dir, name);

/** Durations and start times vary from run to run. */
function stable(text: string): string {
  return text
    .replace(/^( {2}(?:duration|durationMs) +)\d+(ms)?$/gm, "$1<n>$2")
    .replace(/^( {2}startedAt +)\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/m, "$1<time>");
}

/** No byte a terminal would act on: no C0 but \t and \n, no DEL, no C1 (U+0080–U+009F). */
function assertInert(text: string, what: string): void {
  assert.equal(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.exec(text), null, `${what} carries a control character`);
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "omnia-tools-cli-terminal-"));
  server = await startHttpServer((req, res) => {
    // The tool and the MCP endpoint answer 500 with the hostile body; a HEAD probe gets a 200.
    if (req.method === "HEAD") return void res.end();
    res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
    res.end(HOSTILE);
  });
  await writeFile(
    file("registry.yaml"),
    `handlers:
  - name: evil
    type: http
    tool: { name: evil_tool, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "${server.url}/tool" }
  - name: evil-mcp
    type: mcp
    mcpConfig: { transport: streamable-http, endpoint: "${server.url}/mcp" }
`,
  );
});

after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

test("call: a backend's error body prints with every control character escaped", async () => {
  const run = await omniaTools("call", "--registry", file("registry.yaml"), "evil_tool");
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.stderr, "");
  assertInert(run.stdout, "stdout");
  assert.equal(
    stable(run.stdout),
    [
      "Outcome: error",
      "  tool          evil_tool",
      "  handler type  http",
      "  duration      <n>ms",
      `  message       HTTP 500: ${SHOWN}`,
      "  error         HttpStatusError (ERR_OMNIA_HTTP_STATUS)",
      "",
      "Model sees (an error):",
      ...`Tool execution failed: HTTP 500: ${SHOWN}`.split("\n").map((line) => `  ${line}`),
      "",
      "Record:",
      "  callId        call-1",
      "  toolName      evil_tool",
      "  handlerName   evil",
      "  handlerType   http",
      "  execution     server",
      "  status        error",
      "  arguments     {}",
      `  errorMessage  HTTP 500: ${SHOWN}`,
      "  startedAt     <time>",
      "  durationMs    <n>",
      "  attempts      1",
      "",
    ].join("\n"),
  );
});

test("call --json: DEL and C1 characters are written as \\u00XX escapes; the JSON parses to the same text", async () => {
  const run = await omniaTools("call", "--registry", file("registry.yaml"), "--json", "evil_tool");
  assert.equal(run.code, 1, run.stderr);
  assertInert(run.stdout, "stdout");
  // JSON.stringify's own escapes for C0, the CLI's for DEL and C1: the same `\u00XX` spelling.
  assert.ok(run.stdout.includes('"message": "HTTP 500: a\\u001b]0;pwned\\u0007b\\u001b[2Jc\\u001b]52;c;ZWNobyBoaQ==\\u0007d\\u009b31me\\u007ff\\rg\\u0000h\\ti\\nj"'), run.stdout);
  const out = JSON.parse(run.stdout) as { outcome: { message: string }; record: { errorMessage: string } };
  assert.equal(out.outcome.message, `HTTP 500: ${HOSTILE}`);
  assert.equal(out.record.errorMessage, `HTTP 500: ${HOSTILE}`);
});

test("call: a discovery failure quoting the server's body is escaped on stderr", async () => {
  const run = await omniaTools("call", "--registry", file("registry.yaml"), "not_a_static_tool");
  assert.equal(run.code, 1);
  assert.equal(run.stdout, "");
  assertInert(run.stderr, "stderr");
  assert.equal(
    run.stderr,
    `omnia-tools call: discovering the tools of the mcp and openapi handlers failed: handler "evil-mcp": failed to connect MCP: Streamable HTTP error: Error POSTing to endpoint: ${SHOWN}\n`,
  );
});

test("probe: an MCP server's error body in the DETAIL column is escaped, in the table and in --json", async () => {
  const run = await omniaTools("probe", "--registry", file("registry.yaml"), "--handler", "evil-mcp");
  assert.equal(run.code, 1, run.stderr);
  assertInert(run.stdout, "stdout");
  const row = run.stdout.split("\n")[1] ?? "";
  assert.match(row, /^evil-mcp {2}mcp {3}UNHEALTHY {2}\d+ms +/);
  assert.ok(row.endsWith(`Error POSTing to endpoint: ${SHOWN.split("\n")[0]}`), row);

  const json = await omniaTools("probe", "--registry", file("registry.yaml"), "--handler", "evil-mcp", "--json");
  assert.equal(json.code, 1, json.stderr);
  assertInert(json.stdout, "stdout");
  const parsed = JSON.parse(json.stdout) as { handlers: { detail: string }[] };
  assert.ok(parsed.handlers[0]?.detail.endsWith(`Error POSTing to endpoint: ${HOSTILE}`), parsed.handlers[0]?.detail);
});

test("validate: a manifest's endpoint with ESC and a C1 CSI prints escaped in the table", async () => {
  // A manifest from someone else's pull request is a peer's text too.
  await writeFile(
    file("hostile-endpoint.yaml"),
    'handlers:\n  - name: h\n    type: http\n    tool: { name: t, description: d, inputSchema: { type: object } }\n    httpConfig: { endpoint: "http://x/a\\e]0;pwned\\ab\\u009b2J" }\n',
  );
  const run = await omniaTools("validate", file("hostile-endpoint.yaml"));
  assert.equal(run.code, 0, run.stderr);
  assertInert(run.stdout, "stdout");
  assert.equal(
    run.stdout,
    [
      `${file("hostile-endpoint.yaml")}: valid ToolRegistry: 1 handler, 1 tool`,
      "",
      "TOOL  HANDLER  TYPE  EXECUTION  TIMEOUT  ATTEMPTS  AUTH  ENDPOINT",
      "t     h        http  server     30s      1         none  http://x/a\\u001b]0;pwned\\u0007b\\u009b2J",
      "",
    ].join("\n"),
  );
});

test("runtime-conformance: a runtime's status message in the report is escaped, in the table and in --json", async () => {
  // One line: the report is a tab-aligned table, and its cells hold no tab or newline of their own.
  const line = HOSTILE.split("\t")[0] ?? "";
  const shown = SHOWN.split("\t")[0] ?? "";
  const runtime = await startFixtureRuntime({
    health: () => {
      throw new ConnectError(line, Code.Unavailable);
    },
  });
  const run = (...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(process.execPath, [...LOADER, sourcePath("src/cli/runtime-conformance.ts"), ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr });
      });
    });
  try {
    const table = await run("--addr", runtime.addr);
    assert.equal(table.code, 1, table.stderr);
    assertInert(table.stdout, "stdout");
    assert.equal(table.stdout.split("\n")[1], `health/contract           fail    Health RPC failed: rpc error: code = Unavailable desc = ${shown}`);
    const json = await run("--addr", runtime.addr, "--json");
    assert.equal(json.code, 1, json.stderr);
    assertInert(json.stdout, "stdout");
    const parsed = JSON.parse(json.stdout) as { checks: { detail: string }[] };
    assert.equal(parsed.checks[0]?.detail, `Health RPC failed: rpc error: code = Unavailable desc = ${line}`);
  } finally {
    await runtime.close();
  }
});

test("a command that throws: `omnia-tools <cmd>: <escaped message>` on stderr, exit 1, no stack", async () => {
  const out = { stdout: "", stderr: "" };
  const io: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), readFile: (p) => readFile(p, "utf8") };
  const boom: CliCommand = {
    name: "boom",
    usage: "boom",
    summary: "throws",
    help: "",
    run: () => Promise.reject(new Error(`backend said ${HOSTILE}`)),
  };
  const hostile = new Proxy(
    {},
    {
      get() {
        throw new Error("trap");
      },
      getPrototypeOf() {
        throw new Error("trap");
      },
    },
  );
  const proxy: CliCommand = { ...boom, name: "proxy", run: () => Promise.reject(hostile) };
  assert.equal(await runCli(["boom"], io, [boom, proxy]), 1);
  assert.equal(out.stderr, `omnia-tools boom: backend said ${SHOWN}\n`);
  out.stderr = "";
  assert.equal(await runCli(["proxy"], io, [boom, proxy]), 1);
  assert.equal(out.stderr, "omnia-tools proxy: [unprintable value]\n");
  assert.equal(out.stdout, "");
});

test("escapeTerminalText: every C0 but \\t and \\n, DEL and every C1 as \\u00XX; the rest as is", () => {
  let all = "";
  for (let c = 0; c <= 0xa0; c++) all += String.fromCharCode(c);
  const want =
    Array.from({ length: 9 }, (_, c) => `\\u000${c.toString(16)}`).join("") +
    "\t\n" +
    Array.from({ length: 0x20 - 0x0b }, (_, i) => `\\u00${(0x0b + i).toString(16).padStart(2, "0")}`).join("") +
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~" +
    Array.from({ length: 0xa0 - 0x7f }, (_, i) => `\\u00${(0x7f + i).toString(16)}`).join("") +
    "\u00a0";
  assert.equal(escapeTerminalText(all), want);
  assert.equal(escapeTerminalText("caf\u00e9 \u{1f600} \u202e"), "caf\u00e9 \u{1f600} \u202e");
  const plain = "no control here";
  assert.equal(escapeTerminalText(plain), plain);
});
