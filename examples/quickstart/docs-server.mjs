// A stand-in MCP server for the quick start, over stdio (the registry's `docs` handler starts it),
// built with the official MCP SDK: one tool, search_docs.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const DOCS = { returns: "Returns are free within 30 days.", shipping: "Orders ship within 2 working days." };

const server = new Server({ name: "docs", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: "search_docs",
      description: "Search the help pages.",
      inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const query = String(request.params.arguments?.query ?? "").toLowerCase();
  const hits = Object.entries(DOCS).filter(([topic]) => query.includes(topic));
  return { content: [{ type: "text", text: hits.map(([, text]) => text).join("\n") || "No page matches." }] };
});
await server.connect(new StdioServerTransport());
