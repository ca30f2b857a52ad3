// gRPC ListTools: optional for a handler with an inline tool (Omnia calls it
// only to discover a handler's tools), so a backend without it passes; one
// that answers should list the handler's tool with a JSON input schema.
import { boundPeerText, GRPC_PEERS, importWithPeers, OmniaToolsError } from "../core/index.js";
import type { GrpcHandlerConfig } from "../manifest/index.js";
import { waitFor, type Emit } from "./wait.js";

/**
 * Calls `ListTools` once, on its own connection, with the handler's endpoint
 * and TLS settings, within the handler's timeout (30 s when it sets none). It carries no credentials
 * (the executor's are not reachable from here): a backend that requires them
 * on `ListTools` gets a `warn` that says so.
 * @internal
 */
export async function checkGrpcListTools(handler: GrpcHandlerConfig, emit: Emit): Promise<void> {
  const c = handler.grpcConfig;
  let client;
  try {
    const grpc = await importWithPeers(() => import("../grpc/index.js"), "the gRPC backend check", GRPC_PEERS);
    client = grpc.createToolServiceClient({ endpoint: c.endpoint, tls: c.tls, tlsCertPath: c.tlsCertPath, tlsKeyPath: c.tlsKeyPath, tlsCAPath: c.tlsCAPath, tlsInsecureSkipVerify: c.tlsInsecureSkipVerify });
  } catch (error) {
    emit("list-tools", "skip", `not judged: ${boundPeerText(error instanceof Error ? error.message : String(error))}`);
    return;
  }
  try {
    // A handler without a timeout still gets one here: the checker never waits on a peer unbounded.
    const tools = await client.listTools({ timeoutMs: waitFor(handler) });
    const mine = tools.find((t) => t.name === handler.tool.name);
    if (mine === undefined) {
      emit("list-tools", "warn", `ListTools lists ${tools.length} ${tools.length === 1 ? "tool" : "tools"}, not ${JSON.stringify(handler.tool.name)}`, "list every tool Execute serves, or leave ListTools unimplemented");
      return;
    }
    let schemaOk = true;
    try {
      const schema: unknown = JSON.parse(mine.inputSchema);
      schemaOk = typeof schema === "object" && schema !== null && !Array.isArray(schema);
    } catch {
      schemaOk = false;
    }
    if (!schemaOk) emit("list-tools", "warn", `ListTools lists ${JSON.stringify(handler.tool.name)} with an input_schema that is not a JSON object: ${boundPeerText(mine.inputSchema)}`, "send the tool's JSON Schema as JSON text in input_schema");
    else emit("list-tools", "pass", `ListTools lists ${tools.length} ${tools.length === 1 ? "tool" : "tools"}, ${JSON.stringify(handler.tool.name)} among them`);
  } catch (error) {
    const code = error instanceof OmniaToolsError ? (error as { grpcCode?: string }).grpcCode : undefined;
    const text = boundPeerText(error instanceof Error ? error.message : String(error));
    if (code === "UNIMPLEMENTED") emit("list-tools", "pass", "ListTools is not implemented: it is optional, Omnia calls only Execute for a handler with an inline tool");
    else emit("list-tools", "warn", `ListTools failed: ${text}${handler.auth === undefined ? "" : " (it was called without the handler's credentials)"}`, "answer ListTools, or leave it unimplemented (UNIMPLEMENTED)");
  } finally {
    await client.close().catch(() => undefined);
  }
}
