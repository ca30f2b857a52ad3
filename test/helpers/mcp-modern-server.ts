// MCP servers built with the SDK's 2.x server package (@modelcontextprotocol/server),
// which speaks revision 2026-07-28: `modern-only` refuses `initialize`
// (createMcpHandler's `legacy: "reject"`), `both` also serves the older revisions
// statelessly (its default). Served over node:http on 127.0.0.1, recording every
// request with its body; `intercept` may take a request over. The tools are the
// same TestTool set as the 1.x servers, on the low-level Server, so each result
// is sent exactly as written.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createMcpHandler, ProtocolError, Server } from "@modelcontextprotocol/server";
import type { TestTool } from "./mcp-tools.js";

const OBJECT = { type: "object", properties: {} } as const;

/** A 2.x low-level server serving `tools` (an unknown tool is JSON-RPC -32602 `Tool <name> not found`). */
export function createModernTestServer(tools: readonly TestTool[]): Server {
  const server = new Server({ name: "modern-test", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", () => ({
    tools: tools.map((t) => ({
      name: t.name,
      ...(t.description === undefined ? {} : { description: t.description }),
      inputSchema: (t.inputSchema ?? OBJECT) as { type: "object" },
      ...(t.outputSchema === undefined ? {} : { outputSchema: t.outputSchema as { type: "object" } }),
    })),
  }));
  server.setRequestHandler("tools/call", async (request) => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (tool === undefined) throw new ProtocolError(-32602, `Tool ${request.params.name} not found`);
    return (await tool.call((request.params.arguments ?? {}) as Record<string, unknown>, { headers: {}, signal: new AbortController().signal })) as never;
  });
  return server;
}

export interface RecordedModernRequest {
  readonly method: string;
  readonly headers: IncomingMessage["headers"];
  /** The JSON-RPC body of a POST, parsed. */
  readonly body: { method?: string; params?: Record<string, unknown> } | undefined;
}

export interface ModernMcpHttpServer {
  readonly url: string;
  readonly requests: RecordedModernRequest[];
  /** The JSON-RPC methods of the POSTs, in order. */
  rpcMethods(): (string | undefined)[];
  close(): Promise<void>;
}

export async function startModernMcpHttpServer(options: {
  readonly legacy: "modern-only" | "both";
  readonly tools: readonly TestTool[];
  /** Sees each request first (its parsed body); returning true takes the response over. */
  readonly intercept?: (req: IncomingMessage, body: RecordedModernRequest["body"], res: ServerResponse) => boolean;
}): Promise<ModernMcpHttpServer> {
  const handler = createMcpHandler(() => createModernTestServer(options.tools), { legacy: options.legacy === "modern-only" ? "reject" : "stateless" });
  const requests: RecordedModernRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const raw = Buffer.concat(chunks);
        let body: RecordedModernRequest["body"];
        try {
          body = raw.length === 0 ? undefined : (JSON.parse(raw.toString("utf8")) as RecordedModernRequest["body"]);
        } catch {
          body = undefined;
        }
        requests.push({ method: req.method ?? "", headers: req.headers, body });
        if (options.intercept?.(req, body, res) === true) return;
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
        const hasBody = req.method !== "GET" && req.method !== "HEAD" && raw.length > 0;
        const answer = await handler.fetch(new Request(`http://127.0.0.1${req.url ?? "/"}`, { method: req.method ?? "GET", headers, ...(hasBody ? { body: raw } : {}) }));
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        if (answer.body !== null) for await (const chunk of answer.body) res.write(chunk);
        res.end();
      })().catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    rpcMethods: () => requests.filter((r) => r.method === "POST").map((r) => r.body?.method),
    close: async () => {
      await handler.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
