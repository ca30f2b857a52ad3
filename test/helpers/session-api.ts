// A loopback session-api for tool-call rows: every body is validated against the ToolCall
// schema of Omnia's session-api OpenAPI document (test/fixtures/session-api/openapi.yaml),
// and the server answers as session-api's handleRecordToolCall does: 201, or 404/413/500
// for the session ids below, 400 for a body that is not a valid ToolCall.
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import { parse } from "yaml";
import { startHttpServer, type Handler, type TestServer } from "./http-server.js";

/** A session that session-api does not know: 404 `session not found`. */
export const SID_MISSING = "00000000-0000-4000-8000-000000000404";
/** A session whose writes are too large: 413 `request body too large`. */
export const SID_TOO_LARGE = "00000000-0000-4000-8000-000000000413";
/** A session whose writes fail: 500 `internal server error`. */
export const SID_DOWN = "00000000-0000-4000-8000-000000000500";

const TOOL_CALLS_PATH = /^\/api\/v1\/sessions\/([^/]+)\/tool-calls$/;

/** The document's ToolCall schema, compiled strictly, with no property beyond the schema's allowed. */
export function toolCallSchema(): ValidateFunction {
  const doc = parse(readFileSync("test/fixtures/session-api/openapi.yaml", "utf8")) as { components: { schemas: Record<string, object> } };
  const ajv = new Ajv({ strict: true, allErrors: true });
  ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat("date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isSafeInteger(n) });
  // The document's $refs are `#/components/schemas/<name>`: each component becomes a schema with $id <name>.
  const local = (schema: object) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"')) as Record<string, unknown>;
  for (const [name, schema] of Object.entries(doc.components.schemas)) if (name !== "ToolCall") ajv.addSchema({ ...local(schema), $id: name });
  // The schema does not forbid other keys; session-api's Go decoder ignores them. Rows carry one only:
  // `sequenceNum`, the call's record position (issue #34; the name session-api gives message positions).
  const toolCall = local(doc.components.schemas.ToolCall as object) as { properties: Record<string, unknown> };
  return ajv.compile({ ...toolCall, properties: { ...toolCall.properties, sequenceNum: { type: "integer", minimum: 0 } }, $id: "ToolCall", additionalProperties: false });
}

export interface SessionApiServer {
  readonly server: TestServer;
  /** The base URL to give createSessionApiRecorder. */
  readonly url: string;
  /** Bodies that failed validation, with the errors (a test expects none). */
  readonly invalid: string[];
  /** session-api's handler, to restore after `server.handle(...)`. */
  readonly handler: Handler;
  close(): Promise<void>;
}

export async function startSessionApi(): Promise<SessionApiServer> {
  const validate = toolCallSchema();
  const invalid: string[] = [];
  const handler: Handler = (req, res) => {
    const m = TOOL_CALLS_PATH.exec(req.url ?? "");
    const reply = (status: number, body?: object) => {
      res.statusCode = status;
      if (body !== undefined) res.setHeader("content-type", "application/json");
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (req.method !== "POST" || m === null) return reply(404, { error: "not found" });
    let body: unknown;
    try {
      body = JSON.parse(req.bodyBytes.toString("utf8"));
    } catch {
      return reply(400, { error: "missing or invalid request body" });
    }
    if (!validate(body)) {
      invalid.push(`${req.bodyBytes.toString("utf8")}: ${JSON.stringify(validate.errors)}`);
      return reply(400, { error: "invalid tool call" });
    }
    switch (m[1]) {
      case SID_MISSING:
        return reply(404, { error: "session not found" });
      case SID_TOO_LARGE:
        return reply(413, { error: "request body too large" });
      case SID_DOWN:
        return reply(500, { error: "internal server error" });
      default:
        return reply(201);
    }
  };
  const server = await startHttpServer(handler);
  return { server, url: server.url, invalid, handler, close: () => server.close() };
}
