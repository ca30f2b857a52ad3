// Shared by the turn tests: a real HTTP tool backend on 127.0.0.1 (the testing
// kit's), an executor on a manual clock, and helpers to wait for requests
// without sleeping.
import { after } from "node:test";
import { loadToolRegistry, type ToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor, type ToolExecutor, type ToolExecutorOptions } from "../../src/executor/index.js";
import { createManualClock, MemoryRecorder, startHttpToolBackend, type HttpToolBackend, type HttpToolBackendOptions, type ManualClock } from "../../src/testing/index.js";

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

/** Starts the testing kit's HTTP backend on `clock`, closed after the file's tests. */
export async function backend(options: HttpToolBackendOptions): Promise<HttpToolBackend> {
  const b = await startHttpToolBackend(options);
  closers.push(() => b.close());
  return b;
}

/** A registry manifest: `handlers` is the YAML list body (indented by 2). */
export function registry(handlers: string): ToolRegistry {
  return loadToolRegistry(`handlers:\n${handlers}`);
}

/** An http handler serving `tool` at `<url><path>`, with an optional extra `tool` block body. */
export function httpHandler(url: string, tool: string, options: { readonly path?: string; readonly inputSchema?: string; readonly outputSchema?: string; readonly extra?: string } = {}): string {
  return `  - name: h-${tool.replaceAll("_", "-")}
    type: http
    tool:
      name: ${tool}
      description: the ${tool} tool
      inputSchema: ${options.inputSchema ?? "{ type: object }"}
${options.outputSchema === undefined ? "" : `      outputSchema: ${options.outputSchema}\n`}    httpConfig:
      endpoint: ${url}${options.path ?? `/${tool}`}
${options.extra ?? ""}`;
}

/** A client handler serving `tool`. */
export function clientHandler(tool: string, inputSchema = "{ type: object }", clientConfig = ""): string {
  return `  - name: c-${tool.replaceAll("_", "-")}
    type: client
    tool: { name: ${tool}, description: the ${tool} tool, inputSchema: ${inputSchema} }
${clientConfig}`;
}

export interface Setup {
  readonly executor: ToolExecutor;
  readonly clock: ManualClock;
  readonly recorder: MemoryRecorder;
}

/** An executor over `reg` on a new manual clock (or `clock`), closed after the file's tests. */
export function executorFor(reg: ToolRegistry, options: Partial<ToolExecutorOptions> = {}, clock: ManualClock = createManualClock(Date.UTC(2026, 11, 1))): Setup {
  const recorder = new MemoryRecorder();
  const executor = createToolExecutor({ registry: reg, clock, recorder, random: () => 0.5, ...options });
  closers.push(() => executor.close());
  return { executor, clock, recorder };
}

/** Turns of the event loop (no timers) until `done()` holds; throws after `turns`. */
export async function until(done: () => boolean, what: string, turns = 2000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (done()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Lets the event loop run `turns` times (to show that nothing more happens). */
export async function idle(turns = 50): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}
