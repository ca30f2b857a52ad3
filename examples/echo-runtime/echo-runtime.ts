// An echo runtime built on omnia-tools: it loads a ToolRegistry, reconciles it
// against a PromptPack, and serves omnia.runtime.v1. A turn whose text is
// `call <tool> <json>` executes that tool through createToolExecutor (a client
// tool makes the round trip through the facade to the browser); any other turn
// is echoed back. Invoke does the same for `{"tool": ..., "arguments": ...}`
// and publishes the tool events to WatchInvocation.
//
// In your own project import from "omnia-tools" and "omnia-tools/runtime";
// this example imports the sources so that it runs from a checkout.
import {
  createConversation,
  createToolExecutor,
  loadPromptPack,
  loadToolRegistry,
  reconcileTools,
  type CallContext,
  type Conversation,
  type Logger,
  type ReconcileResult,
  type ToolExecutor,
  type ToolExecutorOptions,
  type ToolOutcome,
} from "../../src/index.js";
import { turnText, type Emitter, type RuntimeHandler, type Turn } from "../../src/runtime.js";

export interface EchoRuntimeOptions {
  /** ToolRegistry YAML/JSON text (e.g. the contents of examples/registry.yaml). */
  readonly registry: string;
  /** PromptPack JSON text (e.g. the contents of examples/pack.json). */
  readonly pack: string;
  /** Extra executor options: a dispatcher, secrets, a recorder, a clock… */
  readonly executor?: Omit<ToolExecutorOptions, "registry" | "logger">;
  readonly logger?: Logger;
}

export interface EchoRuntime {
  /** The RuntimeHandler to pass to serveRuntime(). */
  readonly handler: RuntimeHandler;
  /** What the model may call: declared by the pack ∩ served by the registry. */
  readonly reconciliation: ReconcileResult;
  /** Conversation scopes alive now: one per Converse stream that has run a tool, until that stream ends. */
  liveScopes(): number;
  /** Closes the executor (its HTTP agent and gRPC clients) and every conversation scope. */
  close(): Promise<void>;
}

/** `call <tool> <json>`: the tool name, then optional JSON arguments (default `{}`). */
const CALL = /^call\s+(\S+)(?:\s+([\s\S]*))?$/;

/** The model-visible text of an outcome (what an LLM would get back as the tool result). */
function outcomeText(outcome: ToolOutcome): string {
  switch (outcome.status) {
    case "success":
      return outcome.resultJson;
    case "error":
    case "denied":
      return outcome.message;
    case "client":
      return `client tool ${outcome.request.name} is waiting for the client`;
  }
}

export function createEchoRuntime(options: EchoRuntimeOptions): EchoRuntime {
  const logger = options.logger;
  const registry = loadToolRegistry(options.registry, logger === undefined ? {} : { logger });
  const pack = loadPromptPack(options.pack);
  const reconciliation = reconcileTools(pack, registry, logger === undefined ? {} : { logger });
  const executor: ToolExecutor = createToolExecutor({ ...options.executor, registry, ...(logger === undefined ? {} : { logger }) });
  return createEchoHandler(executor, reconciliation);
}

/**
 * The echo handler over an executor the caller made: what `startRuntime` hands
 * `createHandler` (see main.ts). `close()` disposes the conversation scopes and
 * closes the executor.
 */
export function createEchoHandler(executor: ToolExecutor, reconciliation: ReconcileResult): EchoRuntime {
  const offered = new Set(reconciliation.offered);
  // One scope per Converse stream (the facade opens one per message): the
  // per-claim breakers and reachability of sandbox handlers, dropped when the
  // stream ends (turn.signal aborts then), as Omnia's runtime drops them.
  const scopes = new WeakMap<AbortSignal, Conversation>();
  const live = new Set<Conversation>();
  let nextCall = 0;

  const conversationOf = (turn: Turn): Conversation => {
    let scope = scopes.get(turn.signal);
    if (scope === undefined) {
      const created = createConversation();
      scopes.set(turn.signal, created);
      live.add(created);
      const drop = (): void => {
        created.dispose();
        live.delete(created);
      };
      if (turn.signal.aborted) drop();
      else turn.signal.addEventListener("abort", drop, { once: true });
      scope = created;
    }
    return scope;
  };

  /** Runs one tool call; a client tool goes to the client through `emit`. */
  async function runTool(name: string, args: string, ctx: CallContext, emit: Emitter): Promise<ToolOutcome> {
    const callId = `echo-${++nextCall}`;
    const outcome = await executor.execute({ id: callId, name, arguments: args }, ctx);
    if (outcome.status !== "client") return outcome;
    // The facade forwards the ToolCall to the browser and returns its answer.
    const reply = await emit.toolCall(outcome.request);
    return executor.completeClientCall(reply);
  }

  const handler: RuntimeHandler = {
    capabilities: () => ["client_tools", "invoke"],

    async converse(turn: Turn, emit: Emitter) {
      const text = turnText(turn);
      const call = CALL.exec(text.trim());
      if (call === null) {
        await emit.chunk(text);
        await emit.done({ finalContent: text, finishReason: "stop" });
        return;
      }
      const name = call[1] as string;
      const args = call[2]?.trim() || "{}";
      if (!offered.has(name)) {
        const reply = `tool ${JSON.stringify(name)} is not offered to the model; offered: ${[...offered].join(", ")}`;
        await emit.chunk(reply);
        await emit.done({ finalContent: reply, finishReason: "stop" });
        return;
      }
      const outcome = await runTool(
        name,
        args,
        {
          identity: turn.identity,
          signal: turn.signal,
          clientToolsAvailable: turn.clientToolsAvailable,
          // A turn a client can answer came from the WebSocket facade: Omnia sends tools no session id then.
          sessionHeader: turn.clientToolsAvailable !== true,
          // Records numbered from the facade's record_sequence_base; Done reports the last one.
          recordSequence: turn.recordSequence,
          conversation: conversationOf(turn),
        },
        emit,
      );
      const reply = outcomeText(outcome);
      await emit.chunk(reply);
      await emit.done({ finalContent: reply, finishReason: "stop" });
    },

    async invoke(req) {
      let input: unknown;
      try {
        input = JSON.parse(req.inputJson);
      } catch {
        input = undefined;
      }
      const tool = typeof input === "object" && input !== null ? (input as { tool?: unknown; arguments?: unknown }) : undefined;
      if (typeof tool?.tool !== "string") return { outputJson: req.inputJson };
      const name = tool.tool;
      if (!offered.has(name)) return { outputJson: JSON.stringify({ status: "error", message: `tool ${JSON.stringify(name)} is not offered to the model` }) };
      const callId = `echo-${++nextCall}`;
      req.progress.toolCall({ callId, name });
      const outcome = await executor.execute({ id: callId, name, arguments: JSON.stringify(tool.arguments ?? {}) }, { identity: req.identity, signal: req.signal, recordSequence: req.recordSequence });
      req.progress.toolResult({ callId, name, ok: outcome.status === "success", durationMs: outcome.durationMs });
      return { outputJson: JSON.stringify({ status: outcome.status, result: outcomeText(outcome) }) };
    },

    // Nothing outlives a stream here, so there is nothing to end; served so the facade's call succeeds.
    endConversation() {},
  };

  return {
    handler,
    reconciliation,
    liveScopes: () => live.size,
    async close() {
      for (const c of live) c.dispose();
      live.clear();
      await executor.close();
    },
  };
}
