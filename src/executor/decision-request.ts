import { copyJsonValue, type JsonValue, type Logger } from "../core/index.js";
import type { ToolRegistry } from "../manifest/index.js";
import type { ExecutableHandler } from "../backends/index.js";
import { buildOmniaHeaders, canonicalizeHeaders, identityPayload, toolHopIdentity, type AgentInfo, type Identity } from "../headers/index.js";
import type { DecisionRequest } from "../policy/index.js";

/**
 * The policy decision request for one call, as Omnia's broker client builds it: the headers
 * an HTTP tool call would carry, MIME-canonicalised, with the **registry** name
 * (the ToolRegistry's, else the handler's) as `X-Omnia-Tool-Registry`; the
 * arguments when they are an object; the identity payload. The arguments are
 * the request's own copy: a policy function that changes them changes neither
 * the request sent to the backend nor the record (Omnia's broker gets them as
 * JSON text, which cannot reach back either).
 * @internal Does not follow semver.
 */
export function buildDecisionRequest(input: {
  readonly toolName: string;
  readonly handler: ExecutableHandler;
  readonly registry: ToolRegistry;
  readonly identity: Identity | undefined;
  readonly agent: AgentInfo | undefined;
  readonly args: JsonValue | undefined;
  readonly logger: Logger;
}): DecisionRequest {
  const registryName = input.registry.name ?? input.handler.name;
  const headers = canonicalizeHeaders(
    buildOmniaHeaders({
      identity: input.identity,
      agent: input.agent,
      toolName: input.toolName,
      handlerName: registryName,
      args: input.args,
      logger: input.logger,
    }),
  );
  const args = input.args;
  // Go decodes the arguments into a map: `{}` is an empty object, anything that is not an object is null.
  const body = typeof args === "object" && args !== null && !Array.isArray(args) ? copyJsonValue(args) : null;
  return {
    toolName: input.toolName,
    handlerName: input.handler.name,
    handlerType: input.handler.type,
    registryName,
    arguments: body,
    identity: identityPayload(toolHopIdentity({ identity: input.identity, agent: input.agent })),
    headers,
  };
}
