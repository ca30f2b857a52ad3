// A real MCP server on 127.0.0.1 over streamable-http (stateful, /mcp) or the
// legacy SSE transport (GET /sse + POST /messages), built with the SDK's server
// transports. It records every HTTP request, answers 404 for a session it does
// not know (the MCP spec's "session expired"), can fail the next tools/call
// POSTs with a status, and close() leaves no connection behind. Restart it on
// the same port with `startMcpHttpServer({ ..., port: old.port })`.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpTestServer, STANDARD_TOOLS, type TestTool } from "./mcp-tools.js";

export interface RecordedMcpRequest {
  readonly method: string;
  /** Path and query. */
  readonly url: string;
  /** Node's lower-cased header map. */
  readonly headers: IncomingMessage["headers"];
  /** The JSON-RPC method of a POST body (`initialize`, `tools/call`, ...), if any. */
  readonly rpcMethod: string | undefined;
}

export interface McpHttpTestServer {
  readonly transport: "streamable-http" | "sse";
  /** The endpoint to put in `mcpConfig.endpoint`. */
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedMcpRequest[];
  /** Tool names in call order, as the server saw them. */
  readonly calls: string[];
  /** Live sessions. */
  sessionCount(): number;
  /** Resolves when the server starts executing a call of `name` (at once if it already has, `count` times in all). */
  waitForCall(name: string, count?: number): Promise<void>;
  /** The next `count` POSTs that carry `tools/call` are answered `status` without reaching the server. */
  failToolCalls(count: number, status: number): void;
  close(): Promise<void>;
}

export interface McpHttpTestServerOptions {
  readonly transport: "streamable-http" | "sse";
  readonly tools?: readonly TestTool[];
  /** Listen on this port (to restart a server where a client expects it). Default: any free port. */
  readonly port?: number;
  /**
   * sse only: called with each session's event stream (GET /sse) once the SDK's
   * transport has opened it, so that a test can write into it as a hostile
   * server would. (On streamable-http, take the GET over with `intercept`.)
   */
  readonly onEventStream?: (res: ServerResponse) => void;
  /** Sees each request (its parsed JSON body) first; returning true takes the response over, and the MCP server never sees the request. */
  readonly intercept?: (req: IncomingMessage, body: unknown, res: ServerResponse) => boolean;
  /**
   * How long an idle keep-alive connection stays open, in ms. Default: Node's (5 s). A bench whose
   * rounds leave connections idle for seconds sets it past its clients' own idle timeouts, so that
   * the clients close them, never the server while a client is sending a request on one.
   */
  readonly keepAliveTimeoutMs?: number;
}

interface Live {
  readonly server: Server;
  readonly transport: StreamableHTTPServerTransport | SSEServerTransport;
}

export async function startMcpHttpServer(options: McpHttpTestServerOptions): Promise<McpHttpTestServer> {
  const tools = options.tools ?? STANDARD_TOOLS;
  const requests: RecordedMcpRequest[] = [];
  const calls: string[] = [];
  const sessions = new Map<string, Live>();
  const waiters: { name: string; count: number; resolve: () => void }[] = [];
  const onCall = (name: string): void => {
    calls.push(name);
    for (const w of [...waiters]) {
      if (calls.filter((c) => c === w.name).length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  const sockets = new Set<Socket>();
  let failures = 0;
  let failureStatus = 503;

  const connect = async (transport: StreamableHTTPServerTransport | SSEServerTransport): Promise<Server> => {
    const server = createMcpTestServer(tools, onCall);
    await server.connect(transport);
    return server;
  };

  const onStreamable = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    if (req.url?.split("?")[0] !== "/mcp") return notFound(res);
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const live = sessions.get(sessionId);
      if (live === undefined) return sessionNotFound(res);
      await (live.transport as StreamableHTTPServerTransport).handleRequest(req, res, body);
      return;
    }
    if (req.method !== "POST" || (body as { method?: unknown } | undefined)?.method !== "initialize") {
      res.writeHead(400, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: no session"},"id":null}');
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { server, transport });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    const server = await connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const onSse = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const [path, query = ""] = (req.url ?? "").split("?");
    if (req.method === "GET" && path === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      const server = await connect(transport);
      sessions.set(transport.sessionId, { server, transport });
      res.on("close", () => sessions.delete(transport.sessionId));
      options.onEventStream?.(res);
      return;
    }
    if (req.method === "POST" && path === "/messages") {
      const live = sessions.get(new URLSearchParams(query).get("sessionId") ?? "");
      if (live === undefined) return sessionNotFound(res);
      await (live.transport as SSEServerTransport).handlePostMessage(req, res, body);
      return;
    }
    notFound(res);
  };

  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      const rpcMethod = (body as { method?: unknown } | undefined)?.method;
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, rpcMethod: typeof rpcMethod === "string" ? rpcMethod : undefined });
      if (rpcMethod === "tools/call" && failures > 0) {
        failures--;
        res.writeHead(failureStatus, { "content-type": "text/plain" }).end("injected failure");
        return;
      }
      if (options.intercept?.(req, body, res) === true) return;
      const handle = options.transport === "sse" ? onSse : onStreamable;
      handle(req, res, body).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(e));
      });
    });
  });
  if (options.keepAliveTimeoutMs !== undefined) http.keepAliveTimeout = options.keepAliveTimeoutMs;
  http.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    transport: options.transport,
    url: options.transport === "sse" ? `${base}/sse` : `${base}/mcp`,
    port,
    requests,
    calls,
    sessionCount: () => sessions.size,
    waitForCall(name, count = 1) {
      if (calls.filter((c) => c === name).length >= count) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ name, count, resolve }));
    },
    failToolCalls(count, status) {
      failures = count;
      failureStatus = status;
    },
    async close() {
      for (const live of [...sessions.values()]) await live.server.close().catch(() => undefined);
      sessions.clear();
      const closing = [...sockets].map((s) => new Promise<void>((resolve) => (s.destroyed && s.closed ? resolve() : s.once("close", () => resolve()))));
      http.closeAllConnections();
      for (const s of sockets) s.destroy();
      await Promise.all(closing);
      await new Promise<void>((resolve) => http.close(() => resolve()));
      const open = await new Promise<number>((resolve, reject) => http.getConnections((e, n) => (e ? reject(e) : resolve(n))));
      if (sockets.size !== 0 || open !== 0) throw new Error(`mcp test server: ${Math.max(open, sockets.size)} connections still open after close`);
    },
  };
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { "content-type": "text/plain" }).end("not found");
}

/** The MCP spec: a request with a session id the server does not know gets 404. */
function sessionNotFound(res: ServerResponse): void {
  res.writeHead(404, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}');
}
