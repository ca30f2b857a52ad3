// The tools every MCP test server serves (loopback streamable-http and sse, and
// the stdio child in test/fixtures/mcp-stdio-server.ts), built on the SDK's
// low-level Server so each result is sent exactly as written here.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export interface TestToolContext {
  /** The HTTP headers of the request that carried the call (lower-case names); empty on stdio. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly signal: AbortSignal;
}

export interface TestTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
  call(args: Record<string, unknown>, ctx: TestToolContext): CallToolResult | Promise<CallToolResult>;
}

const OBJECT = { type: "object", properties: {} } as const;

/** Tools whose results cover each mapping of runtime-tools.md §7.4. */
export const STANDARD_TOOLS: readonly TestTool[] = [
  {
    name: "echo",
    description: "Echoes text",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    call: (args) => ({ content: [{ type: "text", text: String(args["text"]) }] }),
  },
  {
    name: "structured",
    description: "Two text parts plus structured content",
    call: () => ({
      content: [
        { type: "text", text: "part one" },
        { type: "text", text: "part two" },
      ],
      structuredContent: { z: 1, a: "<b>&", nested: { y: [1, 2], x: null } },
    }),
  },
  {
    name: "text_and_structured",
    description: "One text part plus structured content",
    outputSchema: { type: "object", properties: { n: { type: "number" } } },
    call: () => ({ content: [{ type: "text", text: "the text wins" }], structuredContent: { n: 7 } }),
  },
  {
    name: "multi",
    description: "A text and an image, no structured content",
    call: () => ({
      content: [
        { type: "text", text: "caption" },
        { type: "image", data: "aGk=", mimeType: "image/png" },
      ],
    }),
  },
  {
    name: "image",
    description: "A single image",
    call: () => ({ content: [{ type: "image", data: "aGk=", mimeType: "image/png" }] }),
  },
  {
    name: "empty",
    description: "Nothing at all",
    call: () => ({ content: [] }),
  },
  {
    name: "fail",
    description: "A tool error",
    call: () => ({ isError: true, content: [{ type: "text", text: "boom: the widget is broken" }] }),
  },
  {
    name: "fail_silent",
    description: "A tool error without text",
    call: () => ({ isError: true, content: [] }),
  },
  {
    name: "fail_image_first",
    description: "A tool error whose first item is not text",
    call: () => ({
      isError: true,
      content: [
        { type: "image", data: "aGk=", mimeType: "image/png" },
        { type: "text", text: "not the first" },
      ],
    }),
  },
  {
    name: "args",
    description: "Returns its arguments as structured content",
    call: (args) => ({ content: [], structuredContent: args }),
  },
  {
    name: "headers",
    description: "Returns the HTTP headers of its request",
    call: (_args, ctx) => ({
      content: [],
      structuredContent: {
        authorization: ctx.headers["authorization"] ?? null,
        "x-injected": ctx.headers["x-injected"] ?? null,
        "x-call": ctx.headers["x-call"] ?? null,
      },
    }),
  },
  {
    name: "pid",
    description: "The server's process id",
    call: () => ({ content: [{ type: "text", text: String(process.pid) }] }),
  },
  {
    name: "env",
    description: "An environment variable and the working directory",
    call: (args) => ({
      content: [],
      structuredContent: { value: process.env[String(args["name"])] ?? null, cwd: process.cwd(), home: process.env["HOME"] !== undefined },
    }),
  },
  {
    name: "hang",
    description: "Never answers; ends when the call is cancelled",
    call: (_args, ctx) =>
      new Promise<CallToolResult>((resolve) => {
        ctx.signal.addEventListener("abort", () => resolve({ content: [{ type: "text", text: "cancelled" }] }), { once: true });
      }),
  },
];

/** An SDK server (one per connection) serving `tools`. `onCall` sees every call first. */
export function createMcpTestServer(tools: readonly TestTool[] = STANDARD_TOOLS, onCall?: (name: string) => void): Server {
  const server = new Server({ name: "omnia-test-mcp", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({
      name: t.name,
      ...(t.description === undefined ? {} : { description: t.description }),
      inputSchema: (t.inputSchema ?? OBJECT) as { type: "object" },
      ...(t.outputSchema === undefined ? {} : { outputSchema: t.outputSchema as { type: "object" } }),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    onCall?.(request.params.name);
    const tool = tools.find((t) => t.name === request.params.name);
    if (tool === undefined) throw new Error(`unknown tool ${request.params.name}`);
    const headers = (extra.requestInfo?.headers ?? {}) as Record<string, string | string[] | undefined>;
    return tool.call(request.params.arguments ?? {}, { headers, signal: extra.signal });
  });
  return server;
}
