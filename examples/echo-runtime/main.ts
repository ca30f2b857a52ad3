// Runs the echo runtime: node --import tsx examples/echo-runtime/main.ts [--port 9000] [--host 127.0.0.1]
//   [--registry examples/registry.yaml] [--pack examples/pack.json]
// Stop it with Ctrl-C (SIGINT) or SIGTERM.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { serveRuntime } from "../../src/runtime.js";
import type { Logger } from "../../src/index.js";
import { createEchoRuntime } from "./echo-runtime.js";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "9000" },
    host: { type: "string", default: "127.0.0.1" },
    registry: { type: "string", default: "examples/registry.yaml" },
    pack: { type: "string", default: "examples/pack.json" },
  },
});

const log = (level: string) => (message: string, fields?: Readonly<Record<string, unknown>>) =>
  process.stderr.write(`${JSON.stringify({ level, message, ...fields })}\n`);
const logger: Logger = { debug: () => {}, info: log("info"), warn: log("warn"), error: log("error") };

const runtime = createEchoRuntime({
  registry: readFileSync(values.registry, "utf8"),
  pack: readFileSync(values.pack, "utf8"),
  logger,
});
const server = await serveRuntime(runtime.handler, { port: Number(values.port), host: values.host, logger });
logger.info("echo runtime listening", { url: server.url, offered: runtime.reconciliation.offered });
// The first line on stdout is the URL, for scripts that start it on port 0.
process.stdout.write(`${server.url}\n`);

const stop = async (): Promise<void> => {
  await server.close();
  await runtime.close();
};
process.once("SIGINT", () => void stop());
process.once("SIGTERM", () => void stop());
