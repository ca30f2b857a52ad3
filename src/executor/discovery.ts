import type { Clock, Logger } from "../core/index.js";
import {
  DuplicateToolError,
  type HandlerConfig,
  type McpHandlerConfig,
  type OpenApiHandlerConfig,
  type ToolDescriptor,
  type ToolRegistry,
  type ManifestIssue,
  type DuplicateTool,
} from "../manifest/index.js";
import { createMcpToolClient, type McpToolClient } from "../mcp/index.js";
import { loadOpenApiOperations, type OpenApiOperation } from "../openapi/index.js";
import type { HttpDispatcher } from "../http/index.js";
import type { ExecutableHandler } from "../backends/index.js";
import type { McpRequestObserver } from "../telemetry/index.js";

/** A tool and what serves it. @internal Does not follow semver. */
export interface ResolvedTool {
  readonly descriptor: ToolDescriptor;
  readonly handler: ExecutableHandler;
  /** For an openapi tool: the operation it calls. */
  readonly operation?: OpenApiOperation;
}

/** The tools of mcp and openapi handlers, found at run time. @internal Does not follow semver. */
export interface Discovery {
  /** The tool named `name`: a static tool at once, a discovered one after the first discovery. */
  resolve(name: string): Promise<ResolvedTool | undefined>;
  /**
   * The tool named `name` when it is known without waiting: a static or
   * platform tool, or one the last discovery found (the same as `resolve`
   * gives for it); undefined for any other name, which `resolve` decides.
   */
  resolveKnown(name: string): ResolvedTool | undefined;
  /**
   * Re-runs discovery for every mcp/openapi handler, each on its own; rejects
   * with the first failed handler's error (or a DuplicateToolError) after
   * installing what the others listed.
   */
  refresh(): Promise<void>;
  /** Static tools, then discovered ones, then platform tools. */
  tools(): readonly ToolDescriptor[];
  /** The (lazily created, reused) MCP client of a handler. */
  mcpClient(handler: McpHandlerConfig): McpToolClient;
  close(): Promise<void>;
}

/** @internal Does not follow semver. */
export function createDiscovery(deps: {
  readonly registry: ToolRegistry;
  /** The executor's platform tools, by name (already checked against the registry's names). */
  readonly platform: ReadonlyMap<string, ResolvedTool>;
  readonly dispatcher: () => HttpDispatcher;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The handler's own auth header, resolved on every request (so rotated credentials apply). */
  readonly authHeaders: (handler: HandlerConfig) => Promise<Record<string, string>>;
  /** `pinOpenApiOriginToSpec`. */
  readonly pinOpenApiOriginToSpec?: boolean | undefined;
  /** `mcpToolFilterWildcards`. */
  readonly mcpToolFilterWildcards?: boolean | undefined;
  /** The telemetry's observer of MCP requests outside a call (discovery's `tools/list`). */
  readonly mcpObserver?: McpRequestObserver | undefined;
}): Discovery {
  const { registry, platform } = deps;
  const platformTools = [...platform.values()].map((t) => t.descriptor);
  const mcpClients = new Map<string, McpToolClient>();
  let discovered: Map<string, ResolvedTool> | undefined;
  let running: Promise<Error | undefined> | undefined;
  /** Static tools resolved so far (the registry is frozen, so each resolves once). */
  const statics = new Map<string, ResolvedTool>();

  const mcpClient = (handler: McpHandlerConfig): McpToolClient => {
    let client = mcpClients.get(handler.name);
    if (client === undefined) {
      client = createMcpToolClient(handler, {
        // stdio handlers cannot carry auth (rejected at load); network ones send it on every request.
        ...(handler.mcpConfig.transport === "stdio" ? {} : { headers: () => deps.authHeaders(handler) }),
        dispatcher: deps.dispatcher(),
        clock: deps.clock,
        logger: deps.logger,
        toolFilterWildcards: deps.mcpToolFilterWildcards === true,
        ...(deps.mcpObserver === undefined ? {} : { observer: deps.mcpObserver }),
      });
      mcpClients.set(handler.name, client);
    }
    return client;
  };

  /** Each discovered handler's tools from its last successful listing (a handler that failed keeps its previous ones). */
  const listed = new Map<string, readonly ResolvedTool[]>();
  /** Handlers whose last discovery failed, with the error, in manifest order. */
  let failures = new Map<string, Error>();

  async function listHandler(handler: McpHandlerConfig | OpenApiHandlerConfig): Promise<readonly ResolvedTool[]> {
    if (handler.type === "mcp") {
      return (await mcpClient(handler).listTools()).map((t) => ({ handler, descriptor: descriptorOf(handler, t.name, t.description, t.inputSchema, t.outputSchema) }));
    }
    const operations = await loadOpenApiOperations(handler, {
      dispatcher: deps.dispatcher(),
      headers: await deps.authHeaders(handler),
      clock: deps.clock,
      logger: deps.logger,
      pinOriginToSpec: deps.pinOpenApiOriginToSpec === true,
    });
    return operations.map((op) => ({ handler, operation: op, descriptor: descriptorOf(handler, op.name, op.description, op.inputSchema, undefined) }));
  }

  /**
   * Lists every discovered handler, each on its own: one that fails keeps its
   * previous tools and is remembered as failed; the others' tools are served.
   * A name that a static, platform or earlier handler's tool already has is
   * not served by the later handler (the first keeps it). Resolves with what
   * went wrong, for `refresh()` to report; never rejects.
   */
  async function discover(): Promise<Error | undefined> {
    const nextFailures = new Map<string, Error>();
    await Promise.all(
      registry.discoveredHandlers.map(async (handler) => {
        try {
          listed.set(handler.name, await listHandler(handler));
        } catch (e) {
          nextFailures.set(handler.name, e instanceof Error ? e : new Error(String(e)));
        }
      }),
    );
    const next = new Map<string, ResolvedTool>();
    const owner = new Map<string, string>([...registry.tools, ...platformTools].map((t) => [t.name, t.handlerName]));
    const issues: ManifestIssue[] = [];
    const duplicates: DuplicateTool[] = [];
    for (const handler of registry.discoveredHandlers) {
      const index = registry.handlers.indexOf(handler);
      for (const tool of listed.get(handler.name) ?? []) {
        const first = owner.get(tool.descriptor.name);
        if (first !== undefined) {
          issues.push({
            path: `handlers[${index}]`,
            message: `duplicate tool name ${JSON.stringify(tool.descriptor.name)}: served by handler ${JSON.stringify(first)} and handler ${JSON.stringify(tool.handler.name)}`,
            code: DuplicateToolError.code,
          });
          duplicates.push({ toolName: tool.descriptor.name, handlers: [first, tool.handler.name] });
          continue;
        }
        owner.set(tool.descriptor.name, tool.handler.name);
        next.set(tool.descriptor.name, tool);
      }
    }
    discovered = next;
    failures = nextFailures;
    const ordered = registry.discoveredHandlers.filter((h) => nextFailures.has(h.name));
    for (const handler of ordered) deps.logger.warn("tool discovery failed; that handler's tools are not served until it succeeds", { handler: handler.name, error: nextFailures.get(handler.name)?.message });
    const duplicateError = issues.length > 0 ? new DuplicateToolError(issues, duplicates) : undefined;
    if (duplicateError !== undefined) deps.logger.error("discovered tool names collide; the first handler keeps each name", { error: duplicateError.message });
    deps.logger.info("discovered tools", { count: next.size });
    const firstFailure = ordered[0] === undefined ? undefined : nextFailures.get(ordered[0].name);
    return firstFailure ?? duplicateError;
  }

  const rediscover = (): Promise<Error | undefined> => {
    running ??= discover().finally(() => {
      running = undefined;
    });
    return running;
  };

  const refresh = async (): Promise<void> => {
    const problem = await rediscover();
    if (problem !== undefined) throw problem;
  };

  const resolveStatic = (name: string): ResolvedTool | undefined => {
    let resolved = statics.get(name);
    if (resolved !== undefined) return resolved;
    const descriptor = registry.getTool(name);
    if (descriptor === undefined) return platform.get(name);
    const handler = registry.getHandler(descriptor.handlerName);
    if (handler === undefined) return undefined;
    resolved = { descriptor, handler };
    statics.set(name, resolved);
    return resolved;
  };

  return {
    resolveKnown: (name) => resolveStatic(name) ?? discovered?.get(name),
    async resolve(name) {
      const known = resolveStatic(name);
      if (known !== undefined || registry.getTool(name) !== undefined) return known;
      if (registry.discoveredHandlers.length === 0) return undefined;
      // First use, or a handler failed last time: discover (again) before deciding the name is unknown.
      if (discovered === undefined || failures.size > 0) {
        const found = discovered?.get(name);
        if (found !== undefined) return found;
        await rediscover();
      }
      const found = discovered?.get(name);
      if (found !== undefined) return found;
      // The name may be one of a failed handler's tools: this call fails with that handler's error.
      for (const handler of registry.discoveredHandlers) {
        const failure = failures.get(handler.name);
        if (failure !== undefined) throw failure;
      }
      return undefined;
    },
    refresh,
    tools() {
      if (discovered === undefined) return platformTools.length === 0 ? registry.tools : [...registry.tools, ...platformTools];
      return [...registry.tools, ...[...discovered.values()].map((t) => t.descriptor), ...platformTools];
    },
    mcpClient,
    async close() {
      await Promise.all([...mcpClients.values()].map((c) => c.close()));
      mcpClients.clear();
    },
  };
}

function descriptorOf(
  handler: HandlerConfig,
  name: string,
  description: string,
  inputSchema: ToolDescriptor["inputSchema"],
  outputSchema: ToolDescriptor["outputSchema"] | undefined,
): ToolDescriptor {
  return Object.freeze({
    name,
    description,
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    handlerName: handler.name,
    handlerType: handler.type,
    execution: "server" as const,
  });
}
