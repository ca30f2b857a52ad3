import type { Identity } from "./identity.js";

/**
 * Every `x-omnia-*` header name this package reads or writes, in its lowercase
 * emit form. The two `…_PREFIX` entries end with `-` and take a claim name or
 * a PascalCase argument name. `authorization` is deliberately not here.
 * @public
 */
export const OmniaHeader = Object.freeze({
  AGENT_NAME: "x-omnia-agent-name",
  NAMESPACE: "x-omnia-namespace",
  SESSION_ID: "x-omnia-session-id",
  REQUEST_ID: "x-omnia-request-id",
  USER_ID: "x-omnia-user-id",
  SUBJECT_ID: "x-omnia-subject-id",
  USER_EMAIL: "x-omnia-user-email",
  PROVIDER: "x-omnia-provider",
  MODEL: "x-omnia-model",
  ORIGIN: "x-omnia-origin",
  WORKSPACE: "x-omnia-workspace",
  CLAIM_PREFIX: "x-omnia-claim-",
  TOOL_NAME: "x-omnia-tool-name",
  TOOL_REGISTRY: "x-omnia-tool-registry",
  DELEGATION: "x-omnia-delegation",
  PARAM_PREFIX: "x-omnia-param-",
  CLIENT_TOOLS: "x-omnia-client-tools",
  SESSION_OPEN: "x-omnia-session-open",
  DECLARE_BIN: "x-omnia-declare-bin",
} as const);

/**
 * One of the {@link OmniaHeader} values.
 * @public
 */
export type OmniaHeaderName = (typeof OmniaHeader)[keyof typeof OmniaHeader];

/**
 * Which hop a key belongs to:
 * - `identity`: the caller, set by the facade (`headerKeyMap` in Omnia's `pkg/policy/context.go`);
 * - `runtime`: set by the runtime from its Provider (`provider`, `model`), also in `headerKeyMap`;
 * - `tool`: added by the runtime on a tool call only;
 * - `facade-hop`: describes the facade → runtime call itself; never reaches a tool, a claim or the broker.
 * @public
 */
export type OmniaKeyGroup = "identity" | "runtime" | "tool" | "facade-hop";

/**
 * The string-valued fields of {@link Identity}.
 * @public
 */
export type IdentityStringField = Exclude<keyof Identity, "claims">;

/**
 * One row of {@link OMNIA_HEADER_KEYS}.
 * @public
 */
export interface OmniaHeaderKey {
  /** The lowercase header / metadata name (a prefix when `prefix` is true). */
  readonly header: OmniaHeaderName;
  readonly group: OmniaKeyGroup;
  /** The {@link Identity} field a flat identity or runtime key maps to. */
  readonly field?: IdentityStringField;
  /** The name is a prefix followed by a claim or parameter name. */
  readonly prefix?: true;
  /** The value is binary metadata (base64 on the wire). */
  readonly binary?: true;
}

/**
 * The single source of truth for the `x-omnia-*` keys, in Omnia's
 * `headerKeyMap` emission order (`pkg/policy/context.go`; `subject-id` is the 1.9.0
 * addition and sits after `user-id`). Every function of this module derives
 * its key lists from this table.
 * @public
 */
export const OMNIA_HEADER_KEYS: readonly OmniaHeaderKey[] = Object.freeze([
  { header: OmniaHeader.AGENT_NAME, group: "identity", field: "agentName" },
  { header: OmniaHeader.NAMESPACE, group: "identity", field: "namespace" },
  { header: OmniaHeader.SESSION_ID, group: "identity", field: "sessionId" },
  { header: OmniaHeader.REQUEST_ID, group: "identity", field: "requestId" },
  { header: OmniaHeader.USER_ID, group: "identity", field: "userId" },
  { header: OmniaHeader.SUBJECT_ID, group: "identity", field: "subjectId" },
  { header: OmniaHeader.USER_EMAIL, group: "identity", field: "userEmail" },
  { header: OmniaHeader.PROVIDER, group: "runtime", field: "provider" },
  { header: OmniaHeader.MODEL, group: "runtime", field: "model" },
  { header: OmniaHeader.ORIGIN, group: "identity", field: "origin" },
  { header: OmniaHeader.WORKSPACE, group: "identity", field: "workspace" },
  { header: OmniaHeader.CLAIM_PREFIX, group: "identity", prefix: true },
  { header: OmniaHeader.TOOL_NAME, group: "tool" },
  { header: OmniaHeader.TOOL_REGISTRY, group: "tool" },
  { header: OmniaHeader.DELEGATION, group: "tool" },
  { header: OmniaHeader.PARAM_PREFIX, group: "tool", prefix: true },
  { header: OmniaHeader.CLIENT_TOOLS, group: "facade-hop" },
  { header: OmniaHeader.SESSION_OPEN, group: "facade-hop" },
  { header: OmniaHeader.DECLARE_BIN, group: "facade-hop", binary: true },
].map((k) => Object.freeze(k as OmniaHeaderKey)));

/**
 * A flat identity/runtime key: its Identity field and its header.
 * @internal Does not follow semver.
 */
export interface FlatKey {
  readonly field: IdentityStringField;
  readonly header: string;
}

/**
 * The flat keys of `headerKeyMap` (identity and runtime groups), in emission order.
 * @internal Does not follow semver.
 */
export const FLAT_IDENTITY_KEYS: readonly FlatKey[] = Object.freeze(
  OMNIA_HEADER_KEYS.filter((k) => k.field !== undefined).map((k) => Object.freeze({ field: k.field as IdentityStringField, header: k.header })),
);

/**
 * Header name → Identity field, for the flat keys.
 * @internal Does not follow semver.
 */
export const FIELD_BY_HEADER: ReadonlyMap<string, IdentityStringField> = new Map(FLAT_IDENTITY_KEYS.map((k) => [k.header, k.field]));
