import { ClientToolError, ClosedError, InvalidOptionError, toError } from "../core/index.js";
import { interpretClientResult, type ClientToolResult } from "../client-tools/index.js";
import { DEFAULT_MAX_ARGUMENT_BYTES } from "./arguments.js";
import { probeHandler } from "./health.js";
import { validateOptions } from "./options.js";
import type { ToolOutcome } from "./outcome.js";
import { createExecutorRuntime } from "./runtime.js";
import { createStageChain } from "./stages/chain.js";
import type { HandlerHealth, ToolExecutor, ToolExecutorOptions } from "./types.js";

/**
 * Creates a tool executor over a loaded registry.
 *
 * @example
 * ```ts
 * const registry = loadToolRegistry(readFileSync("registry.yaml", "utf8"));
 * const executor = createToolExecutor({ registry, agent: { name: "support", namespace: "agents" } });
 * const outcome = await executor.execute({ id: "c1", name: "lookup", arguments: '{"id":1}' });
 * if (outcome.status === "success") console.log(outcome.resultJson);
 * await executor.close();
 * ```
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) for an unknown option, a missing registry or a malformed platform tool
 * @throws DuplicateToolError (`ERR_OMNIA_DUPLICATE_TOOL`) for a platform tool named like a registry tool
 * @public
 */
export function createToolExecutor(options: ToolExecutorOptions): ToolExecutor {
  validateOptions(options);
  const { registry } = options;
  const owned = createExecutorRuntime(options);
  const { rt } = owned;
  const { logger, discovery } = rt;
  let closed = false;
  let closeDone: Promise<void> | undefined;
  const { execute, refuse } = createStageChain(rt, () => closed, options.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES);

  function completeClientCall(result: ClientToolResult): ToolOutcome {
    const state = rt.pending.take(result.callId);
    const meaning = interpretClientResult(result);
    if (meaning.status === "success") return rt.report.finish(state, meaning);
    // The record keeps the client's reason; the model sees `Tool rejected: <reason>`.
    if (meaning.status === "denied") return rt.report.finish(state, meaning, meaning.reason);
    return rt.report.finish(state, { status: "error", message: meaning.message, error: new ClientToolError(meaning.message) }, meaning.reason);
  }

  return {
    execute,
    refuse,
    completeClientCall,
    startRound: (calls) => (closed ? undefined : rt.telemetry.startRound(calls)),
    on: (event, listener) => rt.report.on(event, listener),
    get tools() {
      return discovery.tools();
    },
    async checkHealth(handlerName) {
      if (closed) throw new ClosedError("checkHealth: the executor is closed");
      const handlers = handlerName === undefined ? registry.handlers : registry.handlers.filter((h) => h.name === handlerName);
      if (handlerName !== undefined && handlers.length === 0) {
        throw new InvalidOptionError(`checkHealth: no handler named ${JSON.stringify(handlerName)}; expected one of ${registry.handlers.map((h) => JSON.stringify(h.name)).join(", ")}`);
      }
      const out: HandlerHealth[] = [];
      for (const handler of handlers) out.push(await probeHandler(rt, handler));
      return out;
    },
    async refresh() {
      if (closed) throw new ClosedError("refresh: the executor is closed");
      await discovery.refresh();
    },
    async listTools() {
      if (closed) throw new ClosedError("listTools: the executor is closed");
      await discovery.refresh();
      return discovery.tools();
    },
    close() {
      // A second or concurrent close() gets the first one's promise: it resolves once everything is released.
      return (closeDone ??= (async () => {
        closed = true;
        // Every call in flight (attempts, backoff sleeps, a host dispatcher's requests) ends now with ERR_OMNIA_CLOSED.
        owned.abort(new ClosedError("execute: the executor closed while the call was in flight"));
        // Client calls still waiting for the client: each recorded once, as abandoned.
        for (const state of rt.pending.clear()) rt.report.fail(state, new ClosedError("client tool call abandoned: the executor closed before the client answered"));
        // Each part settles on its own: one that fails to close is logged and never makes close() reject.
        const parts = await owned.release();
        for (const part of parts) if (part.status === "rejected") logger.error("tool executor: a part failed to close", { error: toError(part.reason).message });
      })());
    },
  };
}
