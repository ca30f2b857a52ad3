// The loopback backends of `npm run demo` (examples/demo.ts): one per handler of
// examples/registry.yaml, all on 127.0.0.1 port 0, all closed by close().
//
// - weather-api and currency: an HTTP tool backend from omnia-tools/testing;
// - orders: a gRPC omnia.tools.v1 backend from omnia-tools/testing;
// - docs-fs: an MCP server built with the MCP SDK (stateless streamable HTTP)
//   standing in for @modelcontextprotocol/server-filesystem, on in-memory files;
// - petstore: an OpenAPI 3 spec and the two operations the registry keeps.
//
// In your own project import from "omnia-tools/testing"; this example imports
// the sources so that it runs from a checkout.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { httpReply, startGrpcToolBackend, startHttpToolBackend, type GrpcToolBackend, type HttpToolBackend } from "../src/testing.js";

export interface DemoBackends {
  /** weather-api (`GET /v1/current`) and currency (`POST /convert/{from}/{to}`). */
  readonly http: HttpToolBackend;
  /** orders: the `lookup_order` tool. */
  readonly grpc: GrpcToolBackend;
  /** docs-fs: the MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly mcp: { readonly url: string; readonly calls: string[] };
  /** petstore: the spec at `<url>/openapi.json`, the API under `<url>/api/v3`. */
  readonly openapi: HttpToolBackend;
  close(): Promise<void>;
}

const DOCS: Readonly<Record<string, string>> = {
  "/srv/docs/returns.md": "Returns are free within 30 days. Start one from the Orders page.",
  "/srv/docs/shipping.md": "Standard shipping takes 3-5 business days; express ships the next day.",
};

/** The petstore's spec: the two operations the registry filters to, plus one it drops. */
const PETSTORE_SPEC = {
  openapi: "3.0.3",
  info: { title: "Swagger Petstore (demo)", version: "1.0.0" },
  servers: [{ url: "/api/v3" }],
  paths: {
    "/pet/{petId}": {
      get: {
        operationId: "getPetById",
        summary: "Find pet by ID",
        parameters: [{ name: "petId", in: "path", required: true, schema: { type: "integer" } }],
      },
    },
    "/pet/findByStatus": {
      get: {
        operationId: "findPetsByStatus",
        summary: "Finds pets by status",
        parameters: [{ name: "status", in: "query", schema: { type: "string", enum: ["available", "pending", "sold"] } }],
      },
    },
    "/pet": { post: { operationId: "addPet", summary: "Add a new pet" } },
  },
};

export async function startDemoBackends(): Promise<DemoBackends> {
  const http = await startHttpToolBackend({
    routes: {
      "GET /v1/current": (req) => ({ city: req.query["city"] ?? null, units: req.query["units"] ?? "metric", tempC: 18, sky: "light rain", apiKeyEcho: "k-123" }),
      "POST /convert/*": (req) => {
        const [, , from, to] = req.path.split("/");
        const amount = (req.json as { amount?: number } | undefined)?.amount ?? 0;
        return { result: { from: from ?? null, to: to ?? null, converted: Math.round(amount * 0.92 * 100) / 100 } };
      },
    },
  });
  const grpc = await startGrpcToolBackend({
    lookup_order: {
      description: "Look up an order by its ID.",
      inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
      execute: (args: { orderId: string }) => ({ orderId: args.orderId, status: "shipped", carrier: "DHL", eta: "2026-01-05" }),
    },
  });
  const openapi = await startHttpToolBackend({
    routes: {
      "GET /openapi.json": PETSTORE_SPEC,
      "GET /api/v3/pet/findByStatus": (req) => [{ id: 3, name: "Rex", status: req.query["status"] ?? "available" }],
      "GET /api/v3/pet/*": (req) => {
        const id = Number(req.path.split("/").pop());
        return Number.isInteger(id) && id > 0 ? { id, name: "Rex", status: "available" } : httpReply({ status: 404, text: "Pet not found" });
      },
    },
  });
  const mcp = await startMcpServer();
  return {
    http,
    grpc,
    mcp,
    openapi,
    async close() {
      await Promise.all([http.close(), grpc.close(), openapi.close(), mcp.close()]);
    },
  };
}

/** An MCP server on 127.0.0.1 (stateless streamable HTTP, JSON responses) with three file tools. */
async function startMcpServer(): Promise<{ url: string; calls: string[]; close(): Promise<void> }> {
  const calls: string[] = [];
  const tools = [
    { name: "read_file", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
    { name: "list_directory", description: "List a directory", inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
    { name: "write_file", description: "Write a file (dropped by the registry's allowlist)", inputSchema: { type: "object", properties: {} } },
  ];
  const call = (name: string, args: Record<string, unknown>): CallToolResult => {
    calls.push(name);
    const path = String(args["path"] ?? "");
    if (name === "read_file") {
      const text = DOCS[path];
      return text === undefined ? { isError: true, content: [{ type: "text", text: `ENOENT: no such file ${path}` }] } : { content: [{ type: "text", text }] };
    }
    if (name === "list_directory") return { content: [{ type: "text", text: Object.keys(DOCS).filter((p) => p.startsWith(`${path}/`)).map((p) => `[FILE] ${p.slice(path.length + 1)}`).join("\n") }] };
    return { isError: true, content: [{ type: "text", text: "read-only file system" }] };
  };

  const sockets = new Set<Socket>();
  const live = new Set<{ close(): Promise<void> }>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if ((req.url ?? "").split("?")[0] !== "/mcp") return void res.writeHead(404).end();
    // Stateless: no server-initiated stream, no session to delete.
    if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const mcpServer = new Server({ name: "docs-fs (demo)", version: "1.0.0" }, { capabilities: { tools: {} } });
      mcpServer.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
      mcpServer.setRequestHandler(CallToolRequestSchema, (request) => call(request.params.name, request.params.arguments ?? {}));
      // No sessionIdGenerator: stateless mode, one server and transport per request.
      const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
      const entry = {
        async close() {
          live.delete(entry);
          await transport.close();
          await mcpServer.close();
        },
      };
      live.add(entry);
      res.on("close", () => void entry.close());
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = undefined;
      }
      void mcpServer.connect(transport).then(() => transport.handleRequest(req, res, body));
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    async close() {
      await Promise.all([...live].map((l) => l.close()));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const ending = [...sockets].map((s) => new Promise<void>((resolve) => s.once("close", () => resolve())));
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
      await Promise.all(ending);
      await closed;
    },
  };
}
