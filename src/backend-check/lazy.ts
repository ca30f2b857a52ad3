// checkBackend loads the executor, the turn's validator and the backends on its
// first call, so that importing omnia-tools/testing for a test backend or a
// cassette does not load them.
import type { ToolRegistry } from "../manifest/index.js";
import type { BackendCheckReport, CheckBackendOptions } from "./types.js";

/**
 * Calls every handler's backend (or the one named) as Omnia's runtime does,
 * and reports what the tool backend contract requires, check by check (see
 * {@link BackendCheckName}). Per handler: its health probe; its tool list
 * (MCP `tools/list`, the OpenAPI operations, gRPC `ListTools`, which is
 * optional); then per tool a call with valid arguments (given in `args`, else
 * built from the input schema), judged for its answer, its identity headers,
 * its latency against the handler's timeout and its `outputSchema`; a call
 * with arguments the schema refuses (a required argument left out, or one of
 * the wrong type), judged for whose fault its answer says it is and how short
 * and plain its text is; and, for a handler with a `retryPolicy`, whether the
 * backend looks safe to retry: an idempotent HTTP method, or the same call
 * answered the same twice.
 *
 * These are real calls with real effects, through an executor of the
 * handler alone (its own breakers; no policy hook; client handlers are not
 * called): point it at a test or staging backend. Calls run one after
 * another. Nothing a backend sends is thrown: every failure is a result.
 * Backend text in a reason is cut at 1,024 bytes.
 * @throws InvalidOptionError for a registry that is not one, an unknown
 *   option, or a `handler` the registry does not have
 * @public
 */
export async function checkBackend(registry: ToolRegistry, options: CheckBackendOptions = {}): Promise<BackendCheckReport> {
  const { runBackendCheck } = await import("./check-backend.js");
  return runBackendCheck(registry, options);
}
