import { UnknownToolError } from "../../core/index.js";
import { logToolNotFound } from "../../telemetry/index.js";
import type { CallState } from "../call-state.js";
import type { ToolOutcome } from "../outcome.js";
import { asOmniaError } from "../report.js";
import type { ExecutorRuntime } from "../runtime.js";
import type { ResolvedTool } from "../discovery.js";

/**
 * Stage 1, resolve the tool: a static or platform tool, or one the last
 * discovery found, at once (no await on that path); any other name after its
 * handler's discovery. An unknown name fails with `tool "<name>" not found`; a
 * failed discovery fails this call, and the next call tries again.
 * @internal Does not follow semver.
 */
export function resolveTool(rt: ExecutorRuntime, state: CallState): ToolOutcome | undefined | Promise<ToolOutcome | undefined> {
  const resolved = rt.discovery.resolveKnown(state.toolName);
  if (resolved !== undefined) return bind(rt, state, resolved);
  return rt.discovery.resolve(state.toolName).then(
    (found) => {
      if (found !== undefined) return bind(rt, state, found);
      logToolNotFound(rt.logger, state.toolName);
      rt.report.resolved(state, false);
      return rt.report.fail(state, new UnknownToolError(`tool ${JSON.stringify(state.toolName)} not found`));
    },
    (e: unknown) => {
      // A discovery failure that names its handler (an MCP server's credential, say) is that handler's call.
      const handlerName = (e as { handlerName?: unknown } | null)?.handlerName;
      if (typeof handlerName === "string") state.handler = rt.registry.getHandler(handlerName);
      // Not known to be served: the metrics count it under one label, whatever the model called it.
      rt.report.resolved(state, false);
      return rt.report.fail(state, asOmniaError(e));
    },
  );
}

function bind(rt: ExecutorRuntime, state: CallState, resolved: ResolvedTool): undefined {
  state.handler = resolved.handler;
  state.operation = resolved.operation;
  rt.report.resolved(state, true, resolved.descriptor.description);
  return undefined;
}
