// Type-checks the packed package inside scratch host projects, as a user's project would:
//  1. a host on the newest @connectrpc/connect, @connectrpc/connect-node, @bufbuild/protobuf and undici
//     the npm registry serves (`npm view`), with this repository's TypeScript: this package's routes
//     go into connectNodeAdapter({ routes }), createClient(RuntimeService, ...) takes the generated
//     descriptor, and an undici Agent is passed as `dispatcher` (the peer dependencies and the
//     structural dispatcher type exist for exactly these three).
// One scratch directory under os.tmpdir() and one `npm install`; removed at the end.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";

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
    ],
    app,
  );

  writeFileSync(join(app, "host.ts"), HOST_ESM);
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
  const checks = [
    { name: `newest peers (${NEWEST.map((n) => `${n} ${versions[n]}`).join(", ")}), TypeScript ${repoTs}`, tsc: repoTsc, project: "tsconfig.newest.json" },
  ];
  for (const check of checks) {
    try {
      run(process.execPath, [check.tsc, "-p", check.project], app);
      console.log(`check-hosts: ok   ${check.name}`);
    } catch (e) {
      failed = true;
      console.error(`check-hosts: FAIL ${check.name}\n${e.stdout ?? ""}${e.stderr ?? ""}`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (failed) process.exit(1);
