// The omnia-tools bin, run as a child process: exit codes and output of
// `validate` and `reconcile` (issue #4; API.md "Binaries").
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { omniaTools } from "./helpers/cli.js";
import { LOADER, sourcePath } from "./helpers/source.js";


let dir = "";
const file = (name: string): string => join(dir, name);

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "omnia-tools-cli-"));
  await writeFile(
    file("bad.yaml"),
    `kind: ToolRegistry
spec:
  handlers:
    - name: weather
      type: http
      tool: {name: get_weather, description: w, inputSchema: {}}
      httpConfig:
        endpoint: https://w
        retryPolicy: {maxAttempts: 11}
    - name: orders
      type: grpc
      grpcConfig: {endpoint: "o:1"}
`,
  );
  await writeFile(file("syntax.yaml"), "spec:\n  handlers:\n    - name: a: b\n      type: http\n");
  await writeFile(
    file("warn.yaml"),
    "handlers:\n  - name: a\n    type: client\n    retries: 2\n    tool: {name: a, description: A, inputSchema: {}}\n",
  );
  await writeFile(file("matched-pack.json"), JSON.stringify({ prompts: { a: { tools: ["a"] } } }));
  await writeFile(file("bad-pack.json"), JSON.stringify({ prompts: { a: { tools: "a" } } }));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("omnia-tools validate", { concurrency: true }, () => {
  test("a valid manifest: exit 0 and the summary table of the tools", async () => {
    const run = await omniaTools("validate", "examples/registry.yaml");
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    const lines = run.stdout.split("\n");
    assert.equal(
      lines[0],
      'examples/registry.yaml: valid ToolRegistry "customer-tools": 6 handlers, 4 tools, plus the tools 2 handlers discover at run time',
    );
    assert.equal(lines[1], "");
    assert.match(lines[2] ?? "", /^TOOL +HANDLER +TYPE +EXECUTION +TIMEOUT +ATTEMPTS +AUTH +ENDPOINT$/);
    const rows = lines.slice(3, -1).map((l) => l.split(/ {2,}/));
    assert.deepEqual(rows, [
      ["get_weather", "weather-api", "http", "server", "10s", "3", "bearer", "https://weather.example.com/v1/current"],
      ["convert_currency", "currency", "http", "server", "30s", "1", "basic", "https://fx.example.com/convert"],
      ["lookup_order", "orders", "grpc", "server", "5s", "2", "serviceAccount", "orders.support.svc.cluster.local:9090"],
      ["(discovered at run time)", "docs-fs", "mcp", "server", "30s", "1", "none", "stdio://npx"],
      ["(discovered at run time)", "petstore", "openapi", "server", "30s", "2", "none", "https://petstore3.swagger.io/api/v3/openapi.json"],
      ["get_location", "browser-location", "client", "client", "30s", "-", "none", "client://browser"],
    ]);
  });

  test("an invalid manifest: exit 2 and every error with its line", async () => {
    const bad = file("bad.yaml");
    const run = await omniaTools("validate", bad);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, "");
    assert.equal(
      run.stderr,
      `${bad}: invalid ToolRegistry: 2 problems (ERR_OMNIA_CONFIG)\n` +
        `${bad}:9: spec.handlers[0].httpConfig.retryPolicy.maxAttempts: must be at most 10; got 11\n` +
        `${bad}:10: spec.handlers[1].tool: tool definition is required for grpc handlers\n`,
    );
  });

  test("a YAML syntax error: exit 2 with its line number", async () => {
    const syntax = file("syntax.yaml");
    const run = await omniaTools("validate", syntax);
    assert.equal(run.code, 2);
    assert.match(run.stderr, new RegExp(`^${syntax.replace(/[.\\]/g, "\\$&")}: invalid ToolRegistry: 1 problem \\(ERR_OMNIA_CONFIG\\)\\n`));
    assert.ok(run.stderr.endsWith(`${syntax}:3: invalid YAML at line 3, column 13: Nested mappings are not allowed in compact mappings\n`), run.stderr);
  });

  test("warnings go to stderr and do not fail validation", async () => {
    const warn = file("warn.yaml");
    const run = await omniaTools("validate", warn);
    assert.equal(run.code, 0);
    assert.equal(
      run.stderr,
      `${warn}:4: warning: handlers[0].retries: unknown field; it is ignored (the handler-level retries field was removed; use httpConfig.retryPolicy)\n`,
    );
  });

  test("--json prints the registry", async () => {
    const run = await omniaTools("validate", "--json", "examples/registry.yaml");
    assert.equal(run.code, 0);
    const out = JSON.parse(run.stdout) as { valid: boolean; name: string; tools: { name: string; execution: string }[] };
    assert.equal(out.valid, true);
    assert.equal(out.name, "customer-tools");
    assert.deepEqual(
      out.tools.map((t) => `${t.name}:${t.execution}`),
      ["get_weather:server", "convert_currency:server", "lookup_order:server", "get_location:client"],
    );
  });

  test("a missing file, no file and an unknown flag are usage errors (exit 2)", async () => {
    const missing = await omniaTools("validate", file("nope.yaml"));
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^omnia-tools validate: cannot read .*nope\.yaml: ENOENT/);
    const none = await omniaTools("validate");
    assert.equal(none.code, 2);
    assert.equal(none.stderr, "omnia-tools validate: expected one manifest file; got 0\nUsage: omnia-tools validate <registry.yaml> [--strict] [--target <list>] [--json]\n");
    const flag = await omniaTools("validate", "--nope", "examples/registry.yaml");
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /^omnia-tools validate: Unknown option '--nope'/);
  });
});

describe("omnia-tools reconcile", { concurrency: true }, () => {
  test("the examples: offered tools per prompt, the mismatch, and a declared tool unknown until discovery, exit 0", async () => {
    const run = await omniaTools("reconcile", "--pack", "examples/pack.json", "--registry", "examples/registry.yaml");
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    assert.equal(
      run.stdout,
      [
        "Offered tools per prompt:",
        "  support: get_weather, lookup_order",
        "  billing: lookup_order",
        "  store-finder: get_location",
        "",
        "Mismatches:",
        "  served-not-declared: ToolRegistry tools are not declared by any pack prompt and will not be offered to the model: convert_currency; fix: add the name to the prompt's tools list and republish the pack",
        "",
        "Unknown until discovery (declared, and a discovering handler may serve them; --discover checks them):",
        "  search_kb (support)",
        "",
        "Note: docs-fs (mcp), petstore (openapi) serve tools discovered at run time; they are not part of this check.",
        "",
      ].join("\n"),
    );
  });

  test("--strict with a mismatch: exit 1", async () => {
    const run = await omniaTools("reconcile", "--strict", "--pack", "examples/pack.json", "--registry", "examples/registry.yaml");
    assert.equal(run.code, 1);
    assert.equal(run.stderr, "omnia-tools reconcile: 1 mismatch (--strict)\n");
  });

  test("--strict without a mismatch: exit 0", async () => {
    const run = await omniaTools("reconcile", "--strict", "--pack", file("matched-pack.json"), "--registry", file("warn.yaml"));
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "Offered tools per prompt:\n  a: a\n\nMismatches:\n  none\n");
  });

  test("--json prints the ReconcileResult", async () => {
    const run = await omniaTools("reconcile", "--json", "--pack", "examples/pack.json", "--registry", "examples/registry.yaml");
    assert.equal(run.code, 0);
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.deepEqual(out.byPrompt, { support: ["get_weather", "lookup_order"], billing: ["lookup_order"], "store-finder": ["get_location"] });
    assert.deepEqual(out.offered, ["get_location", "get_weather", "lookup_order"]);
    assert.deepEqual(out.servedNotDeclared, ["convert_currency"]);
    assert.deepEqual(out.declaredNotServed, ["search_kb"]);
    assert.deepEqual(out.exempt, ["memory__recall"]);
    assert.deepEqual(out.discoveredAtRuntime, [
      { handler: "docs-fs", type: "mcp" },
      { handler: "petstore", type: "openapi" },
    ]);
    // search_kb may come from docs-fs or petstore: not a mismatch until discovery says so.
    assert.deepEqual((out.mismatches as { kind: string }[]).map((m) => m.kind), ["served-not-declared"]);
    assert.deepEqual(out.unknownUntilDiscovery, ["search_kb"]);
  });

  test("--discover: the mcp handler's tools are listed first and checked; --strict then fails on what no server serves", async () => {
    const registry = file("discover.yaml");
    const pack = file("discover-pack.json");
    await writeFile(
      registry,
      `handlers:\n  - name: local\n    type: mcp\n    mcpConfig: { transport: stdio, command: ${JSON.stringify(process.execPath)}, args: ${JSON.stringify([...LOADER, sourcePath("test/fixtures/mcp-stdio-server.ts")])} }\n`,
    );
    await writeFile(pack, JSON.stringify({ prompts: { a: { tools: ["echo", "missing_tool"] } } }));
    const guess = await omniaTools("reconcile", "--strict", "--pack", pack, "--registry", registry);
    assert.equal(guess.code, 0, guess.stderr);
    assert.equal(
      guess.stdout,
      "Offered tools per prompt:\n  a: (none)\n\nMismatches:\n  none\n\nUnknown until discovery (declared, and a discovering handler may serve them; --discover checks them):\n  echo (a)\n  missing_tool (a)\n\nNote: local (mcp) serve tools discovered at run time; they are not part of this check.\n",
    );
    const run = await omniaTools("reconcile", "--discover", "--strict", "--pack", pack, "--registry", registry);
    assert.equal(run.code, 1, run.stderr);
    const lines = run.stdout.split("\n");
    assert.equal(lines[1], "  a: echo");
    assert.ok(lines.includes("  declared-not-served: pack prompts declare tools the ToolRegistry does not serve, so they will not be offered to the model: missing_tool (a); fix: expose the tool from the attached ToolRegistry"), run.stdout);
    assert.ok(lines.some((l) => l.startsWith("  served-not-declared: ") && l.includes("fail")), run.stdout);
    assert.equal(run.stdout.includes("Unknown until discovery"), false);
    assert.equal(run.stdout.includes("Note:"), false);
    assert.equal(run.stderr, "omnia-tools reconcile: 2 mismatches (--strict)\n");
  });

  test("the two files swapped: exit 2 with the swap suggested, and nothing else", async () => {
    const run = await omniaTools("reconcile", "--pack", "examples/registry.yaml", "--registry", "examples/pack.json");
    assert.equal(run.code, 2);
    assert.equal(run.stdout, "");
    assert.equal(
      run.stderr,
      "omnia-tools reconcile: examples/pack.json holds a PromptPack and examples/registry.yaml a ToolRegistry: swap them (--pack examples/pack.json --registry examples/registry.yaml)\nUsage: omnia-tools reconcile --pack <pack.json> --registry <registry.yaml> [--discover] [--strict] [--json]\n",
    );
  });

  test("missing --pack, a bad pack and a bad registry: exit 2", async () => {
    const noPack = await omniaTools("reconcile", "--registry", "examples/registry.yaml");
    assert.equal(noPack.code, 2);
    assert.equal(
      noPack.stderr,
      "omnia-tools reconcile: --pack and --registry are both required\nUsage: omnia-tools reconcile --pack <pack.json> --registry <registry.yaml> [--discover] [--strict] [--json]\n",
    );
    const badPack = file("bad-pack.json");
    const pack = await omniaTools("reconcile", "--pack", badPack, "--registry", "examples/registry.yaml");
    assert.equal(pack.code, 2);
    assert.equal(pack.stderr, `${badPack}: invalid PromptPack: 1 problem (ERR_OMNIA_CONFIG)\n${badPack}:1: prompts.a.tools: expected an array; got "a"\n`);
    const registry = await omniaTools("reconcile", "--pack", "examples/pack.json", "--registry", file("bad.yaml"));
    assert.equal(registry.code, 2);
    assert.match(registry.stderr, /invalid ToolRegistry: 2 problems/);
  });
});

describe("omnia-tools", { concurrency: true }, () => {
  test("no command: usage on stderr, exit 2", async () => {
    const run = await omniaTools();
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^Usage: omnia-tools <command> \[options\]\n/);
    assert.match(run.stderr, /\n  validate {7}Validate a ToolRegistry manifest/);
    assert.match(run.stderr, /\n  backend-check  Call each handler's backend as Omnia does and check it against the tool backend contract\n {17}omnia-tools backend-check --registry <registry.yaml> \[--handler <name>\] \[--args <tool>=<json>\]\.\.\. \[--identity <file>\] \[--json\]\n/);
  });

  test("--help: usage on stdout, exit 0; a command's --help too", async () => {
    const run = await omniaTools("--help");
    assert.equal(run.code, 0);
    assert.match(run.stdout, /omnia-tools reconcile --pack <pack.json> --registry <registry.yaml> \[--discover\] \[--strict\] \[--json\]/);
    const help = await omniaTools("reconcile", "--help");
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: omnia-tools reconcile /);
  });

  test("an unknown command: exit 2", async () => {
    const run = await omniaTools("deploy");
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^omnia-tools: unknown command "deploy"\n/);
  });
});
