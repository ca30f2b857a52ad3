// Type-checks the packed package inside scratch host projects, as a user's project would:
//  1. a host on the newest @connectrpc/connect, @connectrpc/connect-node, @bufbuild/protobuf and undici
//     the npm registry serves (`npm view`), with this repository's TypeScript: this package's routes
//     go into connectNodeAdapter({ routes }), createClient(RuntimeService, ...) takes the generated
//     descriptor, and an undici Agent is passed as `dispatcher` (the peer dependencies and the
//     structural dispatcher type exist for exactly these three);
//  2. the same hosts with the lowest supported TypeScript (the README's range), skipLibCheck off:
//     5.7 for an ES module consumer (5.6 fails inside protobuf and connect: `Uint8Array` is not
//     generic before 5.7), 5.8 for a CommonJS (.cts) consumer (5.7 gives TS1479: no require of ESM).
// One scratch directory under os.tmpdir() and one `npm install`; removed at the end.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";

/** The lowest TypeScript the README supports, per consumer kind (override to try another: LOWEST_TS_ESM=5.6). */
const LOWEST_TS_ESM = process.env["LOWEST_TS_ESM"] ?? "5.7";
const LOWEST_TS_CJS = process.env["LOWEST_TS_CJS"] ?? "5.8";
const NEWEST = ["@connectrpc/connect", "@connectrpc/connect-node", "@bufbuild/protobuf", "undici"];

// What a host writes: serve this package's ToolService routes and RuntimeService with its own
// connect, call the runtime with its own client, and hand the executor its own undici Agent.
const HOST_BODY = `
const routes = createToolServiceHandler({
  echo: { description: "echo", inputSchema: { type: "object" }, execute: (args: unknown) => args },
});
const runtimeRoutes = createRuntimeService({ converse: () => {} });
const toolServer = http2.createServer(connectNodeAdapter({ routes }));
const runtimeServer = http2.createServer(connectNodeAdapter({ routes: runtimeRoutes }));
const runtime = createClient(RuntimeService, createGrpcTransport({ baseUrl: "http://127.0.0.1:9000" }));
const tools = createClient(ToolService, createGrpcTransport({ baseUrl: "http://127.0.0.1:9001" }));
const registry = loadToolRegistry("handlers: []\\n");
const executor = createToolExecutor({ registry, dispatcher: new Agent() });
const policy = createPolicyBrokerClient({ url: "http://127.0.0.1:9002", dispatcher: new Agent() });
const recorder = createSessionApiRecorder({ url: "http://127.0.0.1:9003", dispatcher: new Agent() });
const mcp = createMcpToolClient({ name: "m", mcpConfig: { transport: "streamable-http", endpoint: "http://127.0.0.1:9004/mcp" } }, { dispatcher: new Agent() });
void [toolServer, runtimeServer, runtime.converse, tools.execute, executor, policy, recorder, mcp];
`;

const HOST_ESM = `import * as http2 from "node:http2";
import { createClient } from "@connectrpc/connect";
import { connectNodeAdapter, createGrpcTransport } from "@connectrpc/connect-node";
import { Agent } from "undici";
import { createToolExecutor, createMcpToolClient, createPolicyBrokerClient, createSessionApiRecorder, loadToolRegistry } from "omnia-tools";
import { createToolServiceHandler, ToolService } from "omnia-tools/grpc";
import { createRuntimeService, RuntimeService } from "omnia-tools/runtime";
${HOST_BODY}`;

// A CommonJS host requires the package (Node >= 20.19, TypeScript >= 5.8). Its own require() of
// connect gets connect's CommonJS build, a second copy whose types differ from the ES build this
// package uses: routes and descriptors go to connect from ES module code (host.ts above).
const HOST_CJS = `import { Agent } from "undici";
import { createToolExecutor, isOmniaToolsError, loadToolRegistry, type ToolOutcome } from "omnia-tools";
import { createToolServiceClient, GrpcStatusError } from "omnia-tools/grpc";
import { createRuntimeService, CONTRACT_VERSION } from "omnia-tools/runtime";
const executor = createToolExecutor({ registry: loadToolRegistry("handlers: []\\n"), dispatcher: new Agent() });
const client = createToolServiceClient({ endpoint: "127.0.0.1:9001" });
const routes = createRuntimeService({ converse: () => {} });
const done = (o: ToolOutcome): boolean => o.status === "error" && (o.error instanceof GrpcStatusError || isOmniaToolsError(o.error));
const version: string = CONTRACT_VERSION;
void [executor, client, routes, done, version];
`;

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const repo = resolve(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..");
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

const versions = Object.fromEntries(NEWEST.map((name) => [name, run(npm, ["view", name, "version"], repo).trim()]));
const typesNode = JSON.parse(readFileSync(join(repo, "node_modules/@types/node/package.json"), "utf8")).version;
const repoTsc = join(repo, "node_modules/typescript/bin/tsc");
const repoTs = JSON.parse(readFileSync(join(repo, "node_modules/typescript/package.json"), "utf8")).version;

const scratch = mkdtempSync(join(tmpdir(), "omnia-tools-hosts-"));
let failed = false;
try {
  run(npm, ["pack", "--pack-destination", scratch, "--silent"], repo);
  const tarball = readdirSync(scratch).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error("check-hosts: npm pack produced no tarball");
  const app = join(scratch, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "scratch-host", private: true, type: "module" }));
  run(
    npm,
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--silent",
      resolve(scratch, tarball),
      ...NEWEST.map((name) => `${name}@${versions[name]}`),
      `@types/node@${typesNode}`,
      `typescript-esm@npm:typescript@~${LOWEST_TS_ESM}.0`,
      `typescript-cjs@npm:typescript@~${LOWEST_TS_CJS}.0`,
    ],
    app,
  );
  const tsVersion = (alias) => JSON.parse(readFileSync(join(app, `node_modules/${alias}/package.json`), "utf8")).version;

  writeFileSync(join(app, "host.ts"), HOST_ESM);
  writeFileSync(join(app, "host-cjs.cts"), HOST_CJS);
  const compilerOptions = {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    types: ["node"],
  };
  writeFileSync(join(app, "tsconfig.newest.json"), JSON.stringify({ compilerOptions: { ...compilerOptions, skipLibCheck: true }, files: ["host.ts"] }));
  writeFileSync(join(app, "tsconfig.esm.json"), JSON.stringify({ compilerOptions: { ...compilerOptions, skipLibCheck: false }, files: ["host.ts"] }));
  writeFileSync(join(app, "tsconfig.cjs.json"), JSON.stringify({ compilerOptions: { ...compilerOptions, skipLibCheck: false }, files: ["host-cjs.cts"] }));
  // A CommonJS project's plain .ts file (its package.json has no "type": "module"): `"module": "node20"`
  // (or "nodenext") lets it require the ES module package; "node16" refuses it with TS1479.
  mkdirSync(join(app, "cjs"));
  writeFileSync(join(app, "cjs", "package.json"), JSON.stringify({ name: "scratch-cjs-host", private: true, type: "commonjs" }));
  writeFileSync(join(app, "cjs", "host.ts"), HOST_CJS);
  const node20 = { ...compilerOptions, module: "node20", moduleResolution: "node16", skipLibCheck: false };
  writeFileSync(join(app, "tsconfig.cjs-node20.json"), JSON.stringify({ compilerOptions: node20, files: ["cjs/host.ts"] }));
  writeFileSync(join(app, "tsconfig.cjs-node16.json"), JSON.stringify({ compilerOptions: { ...node20, module: "node16" }, files: ["cjs/host.ts"] }));

  const checks = [
    { name: `newest peers (${NEWEST.map((n) => `${n} ${versions[n]}`).join(", ")}), TypeScript ${repoTs}`, tsc: repoTsc, project: "tsconfig.newest.json" },
    { name: `TypeScript ${tsVersion("typescript-esm")} (the lowest supported for ES modules), skipLibCheck off`, tsc: join(app, "node_modules/typescript-esm/bin/tsc"), project: "tsconfig.esm.json" },
    { name: `TypeScript ${tsVersion("typescript-cjs")} (the lowest supported for CommonJS, .cts), skipLibCheck off`, tsc: join(app, "node_modules/typescript-cjs/bin/tsc"), project: "tsconfig.cjs.json" },
  ];
  checks.push({ name: `a CommonJS project's .ts host with "module": "node20", TypeScript ${repoTs}`, tsc: repoTsc, project: "tsconfig.cjs-node20.json" });
  for (const check of checks) {
    try {
      run(process.execPath, [check.tsc, "-p", check.project], app);
      console.log(`check-hosts: ok   ${check.name}`);
    } catch (e) {
      failed = true;
      console.error(`check-hosts: FAIL ${check.name}\n${e.stdout ?? ""}${e.stderr ?? ""}`);
    }
  }
  // What the README says: "node16" is refused with TS1479.
  try {
    run(process.execPath, [repoTsc, "-p", "tsconfig.cjs-node16.json"], app);
    failed = true;
    console.error('check-hosts: FAIL a CommonJS .ts host with "module": "node16" type-checked; the README says it gives TS1479');
  } catch (e) {
    if (String(e.stdout ?? "").includes("error TS1479")) console.log('check-hosts: ok   a CommonJS .ts host with "module": "node16" gives TS1479, as the README says');
    else {
      failed = true;
      console.error(`check-hosts: FAIL "module": "node16" failed without TS1479\n${e.stdout ?? ""}${e.stderr ?? ""}`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (failed) process.exit(1);
