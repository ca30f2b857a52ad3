// Memory of a loaded registry with 10,000 tools: loadToolRegistry on a
// generated manifest (one tool per handler: 85% http, 10% grpc, 5% client,
// each with an input schema), heap after a full GC, before and after the
// load, with the manifest text alive in both. Target: <= 50 MB retained.
// Also: heap retained by an executor over that registry (before any call).
// Run alone: node --expose-gc --import tsx bench/registry.bench.ts [--json]
import { getHeapStatistics } from "node:v8";
import { stringify } from "yaml";
import { loadToolRegistry } from "../src/manifest/index.js";
import { createToolExecutor } from "../src/executor/index.js";
import type { SummaryRow } from "./support.js";

const JSON_ONLY = process.argv.includes("--json");
const TOOLS = 10_000;
const TARGET_MB = 50;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  console.error("registry.bench: run with --expose-gc (node --expose-gc --import tsx bench/registry.bench.ts)");
  process.exit(1);
}

function handler(i: number): Record<string, unknown> {
  const tool = {
    name: `tool_${i}`,
    description: `Tool number ${i}: looks something up in backend ${i % 17}.`,
    inputSchema: {
      type: "object",
      properties: { id: { type: "string", description: "The identifier" }, limit: { type: "integer", minimum: 1, maximum: 100 } },
      required: ["id"],
    },
  };
  switch (i % 20) {
    case 0:
    case 1:
      return { name: `grpc-${i}`, type: "grpc", tool, grpcConfig: { endpoint: `svc-${i}:9090`, tls: true, retryPolicy: { maxAttempts: 3 } }, timeout: "5s" };
    case 2:
      return { name: `client-${i}`, type: "client", tool, clientConfig: { consentMessage: "Allow?", categories: ["location"] } };
    default:
      return {
        name: `http-${i}`,
        type: "http",
        tool,
        httpConfig: {
          endpoint: `https://api-${i % 50}.example.com/v1/things`,
          method: i % 2 === 0 ? "GET" : "POST",
          headers: { Accept: "application/json", "X-Team": "tools" },
          queryParams: ["id", "limit"],
          redact: ["secret"],
          retryPolicy: { maxAttempts: 3, initialBackoff: "200ms", backoffMultiplier: "2.0", maxBackoff: "5s", retryOn: [502, 503] },
        },
        auth: { type: "bearer", secretRef: { name: `token-${i}`, key: "token" } },
        timeout: "10s",
      };
  }
}

function usedHeap(): number {
  gc!();
  gc!();
  return getHeapStatistics().used_heap_size;
}

const manifest = stringify({
  apiVersion: "omnia.altairalabs.ai/v1alpha1",
  kind: "ToolRegistry",
  metadata: { name: "bench" },
  spec: { handlers: Array.from({ length: TOOLS }, (_, i) => handler(i)) },
});
// Warm the loader's code on a small manifest so that compiled code and feedback are not counted.
loadToolRegistry(stringify({ handlers: Array.from({ length: 200 }, (_, i) => handler(i)) }));

const before = usedHeap();
const t0 = performance.now();
let registry: ReturnType<typeof loadToolRegistry> | undefined = loadToolRegistry(manifest);
const loadMs = performance.now() - t0;
const afterLoad = usedHeap();
if (registry.tools.length !== TOOLS) throw new Error(`bench: ${registry.tools.length} tools loaded, expected ${TOOLS}`);
let executor: ReturnType<typeof createToolExecutor> | undefined = createToolExecutor({ registry });
const afterExecutor = usedHeap();
const totalHeap = afterExecutor;
await executor.close();
executor = undefined;
registry = undefined;

const mb = (bytes: number): number => Math.round((bytes / (1024 * 1024)) * 100) / 100;
const figures = {
  area: "registry",
  tools: TOOLS,
  manifestBytes: manifest.length,
  loadMs: Math.round(loadMs),
  registryHeapMB: mb(afterLoad - before),
  executorHeapMB: mb(afterExecutor - afterLoad),
  bytesPerTool: Math.round((afterLoad - before) / TOOLS),
  processHeapAfterGcMB: mb(totalHeap),
  targetMB: TARGET_MB,
};
const summary: SummaryRow[] = [
  { name: "registry heap, 10,000 tools (after GC)", value: figures.registryHeapMB, unit: "MB", max: TARGET_MB },
  { name: "registry heap per tool", value: figures.bytesPerTool, unit: "bytes" },
  { name: "process heap after GC (registry + executor + code)", value: figures.processHeapAfterGcMB, unit: "MB" },
];
if (JSON_ONLY) {
  console.log(JSON.stringify({ ...figures, summary }));
} else {
  console.log(`loadToolRegistry, ${TOOLS.toLocaleString("en-US")} tools (${mb(manifest.length)} MB of YAML), loaded in ${figures.loadMs} ms`);
  console.log(`  registry retains ${figures.registryHeapMB} MB after GC (${figures.bytesPerTool} bytes per tool; target <= ${TARGET_MB} MB)`);
  console.log(`  an executor over it adds ${figures.executorHeapMB} MB; process heap after GC ${figures.processHeapAfterGcMB} MB`);
}
