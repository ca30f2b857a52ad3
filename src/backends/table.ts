import type { Backend, BackendEnv, ExecutableHandler } from "./backend.js";
import { createGrpcBackend } from "./grpc.js";
import { createHttpBackend } from "./http.js";
import { createMcpBackend } from "./mcp.js";
import { createOpenApiBackend } from "./openapi.js";
import { createPlatformBackend } from "./platform.js";

/** The handler types a backend executes on the server side (`client` calls are handed off, not executed). @internal Does not follow semver. */
export type ServerHandlerType = Exclude<ExecutableHandler["type"], "client">;

/** One backend per server handler type. @internal Does not follow semver. */
export type BackendTable = Readonly<Record<ServerHandlerType, Backend>>;

/**
 * The backends of one executor, keyed by `handler.type`: the one place that
 * knows every handler type. A new type is a module implementing `Backend` and
 * one line here.
 * @internal Does not follow semver.
 */
export function createBackendTable(env: BackendEnv): BackendTable {
  return Object.freeze({
    http: createHttpBackend(env),
    openapi: createOpenApiBackend(env),
    grpc: createGrpcBackend(env),
    mcp: createMcpBackend(env),
    platform: createPlatformBackend(env),
  });
}
