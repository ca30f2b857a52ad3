// A loopback OpenAPI service: serves a spec (with $refs, path, query and header
// parameters and a JSON request body) at /openapi.json and a small pet API
// under /v1, recording every request (test/helpers/http-server.ts).
import type { JsonObject } from "../../src/core/index.js";
import { startHttpServer, type TestServer } from "./http-server.js";

/** The spec: OpenAPI 3.0 with a relative server URL, so it works on any port. */
export const PETS_SPEC: JsonObject = {
  openapi: "3.0.3",
  info: { title: "Pets", version: "1.0.0" },
  servers: [{ url: "/v1" }],
  components: {
    parameters: {
      TraceId: { name: "X-Trace-Id", in: "header", required: false, description: "Correlation id", schema: { type: "string" } },
      PetId: { name: "petId", in: "path", required: true, schema: { type: "integer", format: "int64" } },
    },
    schemas: {
      NewPet: {
        type: "object",
        required: ["name"],
        properties: { name: { type: "string" }, tag: { $ref: "#/components/schemas/Tag" } },
      },
      Tag: { type: "string", enum: ["dog", "cat"] },
    },
  },
  paths: {
    "/pets/{petId}": {
      parameters: [{ $ref: "#/components/parameters/PetId" }, { $ref: "#/components/parameters/TraceId" }],
      get: {
        operationId: "getPetById",
        summary: "Find a pet by id",
        parameters: [{ name: "fields", in: "query", description: "Fields to return", schema: { type: "string" } }],
      },
      delete: { description: "Deletes a pet" },
    },
    "/pets": {
      get: {
        operationId: "listPets",
        parameters: [
          { name: "limit", in: "query", schema: { type: "integer" } },
          { name: "tag", in: "query", schema: { $ref: "#/components/schemas/Tag" } },
        ],
      },
      post: {
        operationId: "addPet",
        summary: "Add a pet",
        parameters: [{ $ref: "#/components/parameters/TraceId" }, { name: "dryRun", in: "query", schema: { type: "boolean" } }],
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/NewPet" } } } },
      },
    },
    "/status": { get: { operationId: "status" } },
  },
};

export interface OpenApiTestServer {
  /** The server's origin, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Where the spec is served. */
  readonly specURL: string;
  readonly server: TestServer;
  /** Requests other than the spec fetches. */
  apiRequests(): TestServer["requests"];
  close(): Promise<void>;
}

/**
 * Starts the service. `spec` replaces the served spec (text is served as is);
 * `/v1/status` answers `statusCode` with `statusBody`, to test error outcomes.
 */
export async function startOpenApiServer(options: { spec?: JsonObject | string; specStatus?: number } = {}): Promise<OpenApiTestServer & { setStatus(code: number, body: string, contentType?: string): void }> {
  let status = { code: 200, body: '{"ok":true}', contentType: "application/json" };
  const spec = options.spec ?? PETS_SPEC;
  const server = await startHttpServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path === "/openapi.json") {
      res.writeHead(options.specStatus ?? 200, { "content-type": "application/json" });
      res.end(typeof spec === "string" ? spec : JSON.stringify(spec));
      return;
    }
    if (path === "/v1/status") {
      res.writeHead(status.code, { "content-type": status.contentType });
      res.end(status.body);
      return;
    }
    if (req.method === "GET" && path?.startsWith("/v1/pets/")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"id":${JSON.stringify(path.slice("/v1/pets/".length))},"name":"Rex"}`);
      return;
    }
    if (req.method === "POST" && path === "/v1/pets") {
      res.writeHead(201, { "content-type": "application/json" });
      res.end(`{"created":${req.bodyBytes.toString("utf8") || "null"}}`);
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("no such route");
  });
  return {
    url: server.url,
    specURL: `${server.url}/openapi.json`,
    server,
    apiRequests: () => server.requests.filter((r) => r.url !== "/openapi.json"),
    setStatus(code, body, contentType = "application/json") {
      status = { code, body, contentType };
    },
    close: () => server.close(),
  };
}
