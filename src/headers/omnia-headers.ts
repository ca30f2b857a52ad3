import type { Logger } from "../core/index.js";
import type { AgentInfo, Identity } from "./identity.js";
import { OmniaHeader } from "./keys.js";
import { newHeaderRecord } from "./header-record.js";
import { putGrpcMetadata, putOutboundHeaders } from "./outbound.js";
import { argsObject, putScalarParams } from "./params.js";
import { isValidGrpcMetadataValue, isValidHeaderValue } from "./validity.js";

/**
 * Everything the runtime knows about one tool call that becomes Omnia headers.
 * @public
 */
export interface OmniaHeaderContext {
  /** The caller identity, as rehydrated from the facade's metadata. */
  identity?: Identity | undefined;
  /** The runtime's own agent description (`createToolExecutor({ agent })`). */
  agent?: AgentInfo | undefined;
  /** `x-omnia-tool-name`: the tool being invoked. */
  toolName?: string | undefined;
  /** `x-omnia-tool-registry`: the **handler** name. */
  handlerName?: string | undefined;
  /**
   * `x-omnia-session-id`. When given (even as `""`), it replaces
   * `identity.sessionId`: Omnia sends the session id for A2A and
   * function-invocation calls but not for WebSocket conversations, which only
   * the host can tell apart. Omit it to use `identity.sessionId`.
   */
  sessionId?: string | undefined;
  /** `x-omnia-delegation`: the delegation JWT, when the handler enables delegation. */
  delegationToken?: string | undefined;
  /**
   * The call's **original** arguments (JSON text or a parsed value), before
   * `urlTemplate`, `headerParams` or `queryParams` consume any: they become
   * `x-omnia-param-*` on HTTP. Ignored by {@link buildOmniaGrpcMetadata}.
   */
  args?: unknown;
  /** Receives a line per skipped entry (names only, never values). Default: discard. */
  logger?: Logger | undefined;
}

/**
 * The identity as it goes out on the runtime → tool hop (Omnia's "Tool backend protocol" docs page, contract 1.9.0):
 * - agent name and namespace: the runtime's `agent` values when set, else the identity's;
 * - workspace: the identity's (the token's workspace), else the agent's;
 * - provider and model: when `agent` is given, its values only. Omnia's
 *   "Facade ↔ runtime protocol" reference:
 *   "set by the runtime and overrides any value the facade sent; absent when
 *   the runtime has no configured provider". Without `agent`, the identity's;
 * - session id: `ctx.sessionId` when given, else the identity's;
 * - subject id: dropped when it equals the user id. The tool backend protocol:
 *   "absent when the token holder is the end user" (the facade hop sends it equal).
 * @internal Does not follow semver.
 */
export function toolHopIdentity(ctx: OmniaHeaderContext): Identity {
  const id = ctx.identity ?? {};
  const agent = ctx.agent;
  const out: Identity = { ...id };
  if (agent !== undefined) {
    if (nonEmpty(agent.name)) out.agentName = agent.name;
    if (nonEmpty(agent.namespace)) out.namespace = agent.namespace;
    if (!nonEmpty(id.workspace) && nonEmpty(agent.workspace)) out.workspace = agent.workspace;
    out.provider = agent.provider;
    out.model = agent.model;
  }
  if (ctx.sessionId !== undefined) out.sessionId = ctx.sessionId;
  if (nonEmpty(out.subjectId) && out.subjectId === out.userId) out.subjectId = undefined;
  return out;
}

const NO_IDENTITY: Identity = Object.freeze({});

/**
 * What the header builders read of {@link toolHopIdentity} (the flat fields
 * and the claims), as one object of a fixed shape, read field by field from
 * the caller's identity: spreading the caller's object (any shape) cost more
 * than the headers built from it.
 */
function hopIdentity(ctx: OmniaHeaderContext): Identity {
  const id = ctx.identity ?? NO_IDENTITY;
  const agent = ctx.agent;
  let agentName = id.agentName;
  let namespace = id.namespace;
  let workspace = id.workspace;
  let provider = id.provider;
  let model = id.model;
  if (agent !== undefined) {
    if (nonEmpty(agent.name)) agentName = agent.name;
    if (nonEmpty(agent.namespace)) namespace = agent.namespace;
    if (!nonEmpty(id.workspace) && nonEmpty(agent.workspace)) workspace = agent.workspace;
    provider = agent.provider;
    model = agent.model;
  }
  const userId = id.userId;
  const subjectId = nonEmpty(id.subjectId) && id.subjectId === userId ? undefined : id.subjectId;
  return {
    agentName,
    namespace,
    sessionId: ctx.sessionId !== undefined ? ctx.sessionId : id.sessionId,
    requestId: id.requestId,
    userId,
    subjectId,
    userEmail: id.userEmail,
    provider,
    model,
    origin: id.origin,
    workspace,
    claims: id.claims,
  };
}

/**
 * The Omnia header layer of an HTTP (or OpenAPI) tool request (the `omnia`
 * source of {@link HTTP_TOOL_HEADER_PRECEDENCE}), ready for {@link mergeHttpToolHeaders}'s `omnia`.
 * - the identity headers of {@link toOutboundHeaders}, with the tool-hop rules
 *   of the agent, session and subject (see {@link OmniaHeaderContext});
 * - `x-omnia-tool-name`, `x-omnia-tool-registry` (the handler name) and
 *   `x-omnia-delegation`, each when non-empty;
 * - `x-omnia-param-*` from the **original** args ({@link promoteScalarParams}).
 *
 * Never `authorization` and never a facade-hop key. Values that are not valid
 * header values are skipped and logged.
 * @public
 */
export function buildOmniaHeaders(ctx: OmniaHeaderContext): Record<string, string> {
  const out = newHeaderRecord();
  putOmniaHeaders(out, ctx);
  return out;
}

/**
 * The headers of an HTTP tool request with no layer but the Omnia one and
 * the Content-Type: what `mergeHttpToolHeaders({ contentType, omnia:
 * buildOmniaHeaders(ctx) })` returns (`Content-Type` first when given, then
 * the Omnia headers; no name of one can be a spelling of the other's), built
 * in one record instead of two.
 * @internal Does not follow semver.
 */
export function buildHttpToolHeaders(contentType: string | undefined, ctx: OmniaHeaderContext): Record<string, string> {
  const out = newHeaderRecord();
  if (contentType !== undefined) out["Content-Type"] = contentType;
  putOmniaHeaders(out, ctx);
  return out;
}

/** Writes {@link buildOmniaHeaders}'s headers into `out`. */
function putOmniaHeaders(out: Record<string, string>, ctx: OmniaHeaderContext): void {
  putOutboundHeaders(out, hopIdentity(ctx), ctx.logger);
  putTool(out, OmniaHeader.TOOL_NAME, ctx.toolName, isValidHeaderValue, ctx.logger);
  putTool(out, OmniaHeader.TOOL_REGISTRY, ctx.handlerName, isValidHeaderValue, ctx.logger);
  putTool(out, OmniaHeader.DELEGATION, ctx.delegationToken, isValidHeaderValue, ctx.logger);
  // Straight into `out`: no key above is an `x-omnia-param-*` key.
  if (ctx.args !== undefined) {
    const obj = argsObject(ctx.args);
    if (obj !== undefined) putScalarParams(out, obj, ctx.logger);
  }
}

/**
 * The Omnia metadata of a gRPC tool call (Omnia's "Tool backend protocol" docs page): the same identity and
 * tool keys as {@link buildOmniaHeaders}, lowercase, with gRPC's validity
 * rules ({@link toGrpcMetadata}), and **no** `x-omnia-param-*` entry: the
 * runtime passes no arguments to the metadata builder. `ctx.args` is ignored.
 * Combine with the handler's credential and injected headers through
 * {@link mergeGrpcToolMetadata}.
 * @public
 */
export function buildOmniaGrpcMetadata(ctx: OmniaHeaderContext): Record<string, string> {
  const out = newHeaderRecord();
  putGrpcMetadata(out, hopIdentity(ctx), ctx.logger);
  putTool(out, OmniaHeader.TOOL_NAME, ctx.toolName, isValidGrpcMetadataValue, ctx.logger);
  putTool(out, OmniaHeader.TOOL_REGISTRY, ctx.handlerName, isValidGrpcMetadataValue, ctx.logger);
  putTool(out, OmniaHeader.DELEGATION, ctx.delegationToken, isValidGrpcMetadataValue, ctx.logger);
  return out;
}

function putTool(
  out: Record<string, string>,
  header: string,
  value: string | undefined,
  valid: (v: string) => boolean,
  logger: Logger | undefined,
): void {
  if (value === undefined || value === "") return;
  if (valid(value)) out[header] = value;
  else logger?.warn("headers: skipped a tool header with an invalid value", { header });
}

function nonEmpty(v: string | undefined): v is string {
  return v !== undefined && v !== "";
}
