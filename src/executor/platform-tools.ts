import { InvalidOptionError } from "../core/index.js";
import { DEFAULT_HANDLER_TIMEOUT_MS, DuplicateToolError, type ToolDescriptor, type ToolRegistry } from "../manifest/index.js";
import type { PlatformHandlerConfig, PlatformTool } from "../backends/index.js";
import type { ResolvedTool } from "./discovery.js";

/** The name every platform tool's record and descriptor carry as `handlerName`. */
const PLATFORM_HANDLER_NAME = "platform";

/**
 * Checks the `platformTools` option and binds each tool to a frozen stand-in
 * handler. A name the registry serves too is a `DuplicateToolError`, as two
 * handlers serving one name are.
 * @throws InvalidOptionError for a tool that is not `{ description, inputSchema, execute }` or a bad `timeoutMs`
 * @throws DuplicateToolError for a name a registry tool has
 * @internal Does not follow semver.
 */
export function bindPlatformTools(registry: ToolRegistry, tools: Readonly<Record<string, PlatformTool>> | undefined): ReadonlyMap<string, ResolvedTool> {
  const out = new Map<string, ResolvedTool>();
  if (tools === undefined) return out;
  if (tools === null || typeof tools !== "object") throw new InvalidOptionError(`createToolExecutor: platformTools must be an object of tools by name; got ${tools === null ? "null" : typeof tools}`);
  const collisions: { toolName: string; handlers: [string, string] }[] = [];
  for (const name of Object.keys(tools)) {
    const tool = tools[name] as PlatformTool | undefined;
    const where = `createToolExecutor: platformTools[${JSON.stringify(name)}]`;
    if (name === "") throw new InvalidOptionError("createToolExecutor: platformTools: a tool name must not be empty");
    if (tool === null || typeof tool !== "object") throw new InvalidOptionError(`${where} must be { description, inputSchema, execute }; got ${tool === null ? "null" : typeof tool}`);
    if (typeof tool.execute !== "function") throw new InvalidOptionError(`${where}.execute must be a function; got ${typeof tool.execute}`);
    if (typeof tool.description !== "string") throw new InvalidOptionError(`${where}.description must be a string; got ${typeof tool.description}`);
    if (tool.inputSchema === null || typeof tool.inputSchema !== "object" || Array.isArray(tool.inputSchema)) {
      throw new InvalidOptionError(`${where}.inputSchema must be a JSON Schema object; got ${tool.inputSchema === null ? "null" : Array.isArray(tool.inputSchema) ? "array" : typeof tool.inputSchema}`);
    }
    const timeoutMs = tool.timeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS;
    if (!(Number.isFinite(timeoutMs) && timeoutMs >= 0)) throw new InvalidOptionError(`${where}.timeoutMs must be a number of ms >= 0 (0: none); got ${String(tool.timeoutMs)}`);
    const existing = registry.getTool(name);
    if (existing !== undefined) {
      collisions.push({ toolName: name, handlers: [existing.handlerName, PLATFORM_HANDLER_NAME] });
      continue;
    }
    const handler: PlatformHandlerConfig = Object.freeze({ type: "platform", name: PLATFORM_HANDLER_NAME, endpoint: "", timeoutMs, tool });
    const descriptor: ToolDescriptor = Object.freeze({
      name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      handlerName: PLATFORM_HANDLER_NAME,
      handlerType: "platform",
      execution: "server",
    });
    out.set(name, Object.freeze({ descriptor, handler }));
  }
  if (collisions.length > 0) {
    throw new DuplicateToolError(
      collisions.map((c) => ({
        path: `platformTools.${c.toolName}`,
        message: `duplicate tool name ${JSON.stringify(c.toolName)}: served by handler ${JSON.stringify(c.handlers[0])} and platform tool ${JSON.stringify(c.toolName)}`,
        code: DuplicateToolError.code,
      })),
      collisions,
    );
  }
  return out;
}
