import type { JsonObject, Logger } from "../core/index.js";
import type { ToolPage } from "./rpc.js";
import type { McpToolDescriptor } from "./types.js";

/** A server that pages forever is cut off here. */
const MAX_LIST_PAGES = 1_000;

/**
 * Lists every tool the server serves that the handler's toolFilter allows, page
 * by page (at most 1 000 pages), the first of a twice-listed name kept.
 */
export async function listServerTools(
  list: (cursor: string | undefined, signal: AbortSignal) => Promise<ToolPage>,
  client: { readonly handlerName: string; readonly logger: Logger; serves(name: string): boolean },
  signal: AbortSignal,
): Promise<readonly McpToolDescriptor[]> {
  const out: McpToolDescriptor[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const result = await list(cursor, signal);
    for (const tool of result.tools) {
      if (!client.serves(tool.name)) {
        client.logger.debug("mcp: tool filtered out", { handler: client.handlerName, tool: tool.name });
        continue;
      }
      if (seen.has(tool.name)) {
        client.logger.warn("mcp: the server listed a tool twice; keeping the first", { handler: client.handlerName, tool: tool.name });
        continue;
      }
      seen.add(tool.name);
      const descriptor: McpToolDescriptor = {
        name: tool.name,
        description: tool.description ?? "",
        inputSchema: tool.inputSchema as JsonObject,
        ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema as JsonObject }),
      };
      out.push(Object.freeze(descriptor));
    }
    if (result.nextCursor === undefined || result.nextCursor === "" || result.nextCursor === cursor) return Object.freeze(out);
    cursor = result.nextCursor;
  }
  client.logger.warn("mcp: tools/list kept paging; stopped", { handler: client.handlerName, pages: MAX_LIST_PAGES });
  return Object.freeze(out);
}
