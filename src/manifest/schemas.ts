// zod schemas of the ToolRegistry resource, field by field (Omnia's `api/v1alpha1/toolregistry_types.go`).
//
// These schemas check the shape of each field: types, enums, patterns, ranges and
// single-field operator rules (a Go duration that parses, a backoffMultiplier >= 1).
// Objects are strict, and every unknown key comes back as an `unrecognized_keys`
// issue, which the loader reports as a warning (never an error, never silently).
// Rules that span fields or depend on the handler type (the controller's
// `validateHandler`, the auth CEL rules, maxBackoff >= initialBackoff, duplicates)
// live in validate-handler.ts.
import { z } from "zod";

/** zod itself, for the pack schema (loaded with this module: see lazy-schemas.ts). */
export { z };
import { ConfigError, didYouMean, jsonDepthMessage, jsonValueTooDeep, parseGoDuration, type JsonObject, type JsonValue } from "../core/index.js";
import {
  AUTH_TYPES,
  BACKOFF_MULTIPLIER_PATTERN,
  GRPC_STATUS_CODE_NAMES,
  HANDLER_NAME_MAX_LENGTH,
  HANDLER_NAME_PATTERN,
  HANDLER_TYPES,
  MCP_TRANSPORTS,
  TOOL_NAME_MAX_LENGTH,
  TOOL_NAME_PATTERN,
} from "./defaults.js";
import { formatGoFloat } from "./go-float.js";
import { describeValue } from "./issues.js";
import { findNonJson, isPlainObject } from "./json.js";
import type { GrpcStatusCodeName } from "./types.js";

/** A schema that accepts `T` when `validate` returns no message; the message becomes a custom issue. */
function checked<T>(validate: (value: unknown) => string | undefined) {
  return z.custom<T>().check((ctx) => {
    const message = validate(ctx.value);
    if (message !== undefined) ctx.issues.push({ code: "custom", message, input: ctx.value });
  });
}

/** Parses a Go duration to ms, or returns the problem. Negative durations are rejected. */
export function checkGoDuration(value: unknown): { ms: number } | { message: string } {
  if (typeof value !== "string") return { message: `expected a Go duration string such as "30s"; got ${describeValue(value)}` };
  let ms: number;
  try {
    ms = parseGoDuration(value);
  } catch (error) {
    if (error instanceof ConfigError && error.issues[0] !== undefined) return { message: error.issues[0].message };
    throw error;
  }
  if (ms < 0) return { message: `must not be negative; got ${JSON.stringify(value)}` };
  return { ms };
}

/** A Go duration string (`"300ms"`, `"1m30s"`, `"0"`, `""`). */
export const goDurationSchema = checked<string>((value) => {
  const result = checkGoDuration(value);
  return "message" in result ? result.message : undefined;
});

const nonEmptyString = z.string().min(1);

/**
 * Any JSON value, nested at most 1000 levels deep (checked first, without
 * recursion, so that a deeper value is this issue and not a stack overflow);
 * the issue points at the first non-JSON part (NaN, binary, a recursive alias).
 */
export const jsonValueSchema = z.custom<JsonValue>().check((ctx) => {
  if (ctx.value === undefined) {
    ctx.issues.push({ code: "custom", message: "is required", input: ctx.value });
    return;
  }
  if (jsonValueTooDeep(ctx.value)) {
    ctx.issues.push({ code: "custom", message: `JSON ${jsonDepthMessage()}`, input: ctx.value });
    return;
  }
  const bad = findNonJson(ctx.value);
  if (bad !== undefined) ctx.issues.push({ code: "custom", message: bad.message, input: ctx.value, path: bad.path });
});

/** A JSON object (a JSON Schema, a sandbox block), nested at most 1000 levels deep as {@link jsonValueSchema}. */
export const jsonObjectSchema = z.custom<JsonObject>().check((ctx) => {
  if (ctx.value === undefined) {
    ctx.issues.push({ code: "custom", message: "is required", input: ctx.value });
    return;
  }
  if (!isPlainObject(ctx.value)) {
    ctx.issues.push({ code: "custom", message: `expected a JSON object; got ${describeValue(ctx.value)}`, input: ctx.value });
    return;
  }
  if (jsonValueTooDeep(ctx.value)) {
    ctx.issues.push({ code: "custom", message: `JSON ${jsonDepthMessage()}`, input: ctx.value });
    return;
  }
  const bad = findNonJson(ctx.value);
  if (bad !== undefined) ctx.issues.push({ code: "custom", message: bad.message, input: ctx.value, path: bad.path });
});

/** An integer, optionally within [min, max]: `expected an integer; got "3"`, `must be at most 10; got 11`. */
function integerSchema(min?: number, max?: number) {
  return checked<number>((value) => {
    if (value === undefined) return "is required";
    if (typeof value !== "number" || !Number.isInteger(value)) return `expected an integer; got ${describeValue(value)}`;
    if (min !== undefined && value < min) return `must be at least ${min}; got ${value}`;
    if (max !== undefined && value > max) return `must be at most ${max}; got ${value}`;
    return undefined;
  });
}

const stringList = z.array(z.string());
const stringMap = z.record(z.string(), z.string());

const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// eslint-disable-next-line no-control-regex
const HEADER_VALUE_CTL = /[\x00-\x08\x0a-\x1f\x7f]/;

/**
 * Static headers: checked at load so that a header no request
 * could carry fails here, with its path, instead of failing every call.
 */
const headerMap = stringMap.superRefine((headers, ctx) => {
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_TOKEN.test(name)) ctx.addIssue({ code: "custom", path: [name], message: `invalid header name; got ${JSON.stringify(name)}` });
    else if (HEADER_VALUE_CTL.test(value)) ctx.addIssue({ code: "custom", path: [name], message: "invalid header value: it holds a control character (CR, LF, NUL, ...)" });
  }
});

/** `headerParams`: argument name -> header name; the header names are checked at load. */
const headerNameMap = stringMap.superRefine((params, ctx) => {
  for (const [arg, name] of Object.entries(params)) {
    if (!HEADER_TOKEN.test(name)) ctx.addIssue({ code: "custom", path: [arg], message: `invalid header name; got ${JSON.stringify(name)}` });
  }
});

/** A Kubernetes SecretKeySelector: `{name, key}`. */
export const secretKeyRefSchema = z.strictObject({ name: nonEmptyString, key: nonEmptyString });

/** The `tool` block (ToolDefinition). */
export const toolDefinitionSchema = z.strictObject({
  name: z.string().max(TOOL_NAME_MAX_LENGTH).regex(TOOL_NAME_PATTERN),
  description: z.string(),
  inputSchema: jsonObjectSchema,
  outputSchema: jsonObjectSchema.nullish(),
});

/** The transports whose retry policies Omnia validates, and their message prefixes. */
export type RetryTransport = "http" | "grpc" | "mcp";

/** Parses a backoffMultiplier: a decimal string in the CRD, a number in tools.yaml. */
export function checkBackoffMultiplier(value: unknown, transport: RetryTransport): { value: number } | { message: string } {
  const prefix = `${transport} retry policy: `;
  let parsed: number;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return { message: `expected a decimal string such as "2.0"; got ${describeValue(value)}` };
    parsed = value;
  } else if (typeof value === "string") {
    if (!BACKOFF_MULTIPLIER_PATTERN.test(value)) {
      if (!GO_FLOAT_SYNTAX.test(value)) {
        // The operator's own text for a value strconv.ParseFloat rejects (`buildHTTPRetryPolicy`).
        return { message: `${prefix}invalid backoffMultiplier ${JSON.stringify(value)}: strconv.ParseFloat: parsing ${JSON.stringify(value)}: invalid syntax` };
      }
      return { message: `must match ${BACKOFF_MULTIPLIER_PATTERN.source}; got ${describeValue(value)}` };
    }
    parsed = Number(value);
  } else {
    return { message: `expected a decimal string such as "2.0"; got ${describeValue(value)}` };
  }
  if (parsed < 1) return { message: `${prefix}backoffMultiplier ${formatGoFloat(parsed)} must be >= 1.0` };
  return { value: parsed };
}

/** What Go's strconv.ParseFloat accepts (decimal, exponent, inf, nan); enough to choose the message. */
const GO_FLOAT_SYNTAX = /^[+-]?(?:(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan|0[xX][\da-fA-F_.]+(?:[pP][+-]?\d+)?)$/i;

function backoffMultiplierSchema(transport: RetryTransport) {
  return checked<string | number>((value) => {
    const result = checkBackoffMultiplier(value, transport);
    return "message" in result ? result.message : undefined;
  });
}

const retryShape = (transport: RetryTransport) => ({
  maxAttempts: integerSchema(1, 10),
  initialBackoff: goDurationSchema.nullish(),
  backoffMultiplier: backoffMultiplierSchema(transport).nullish(),
  maxBackoff: goDurationSchema.nullish(),
});

/** `httpConfig.retryPolicy` and `openAPIConfig.retryPolicy`. */
export const httpRetryPolicySchema = z.strictObject({
  ...retryShape("http"),
  retryOn: z.array(integerSchema()).nullish(),
  retryOnNetworkError: z.boolean().nullish(),
  respectRetryAfter: z.boolean().nullish(),
});

const grpcStatusCodeSchema = z.string().refine((code) => (GRPC_STATUS_CODE_NAMES as readonly string[]).includes(code), {
  error: (issue) => `grpc retry policy: unknown gRPC status code ${JSON.stringify(issue.input)}`,
});

/** `grpcConfig.retryPolicy`. */
export const grpcRetryPolicySchema = z.strictObject({
  ...retryShape("grpc"),
  retryableStatusCodes: z.array(grpcStatusCodeSchema as z.ZodType<GrpcStatusCodeName, GrpcStatusCodeName>).nullish(),
});

/** `mcpConfig.retryPolicy`. */
export const mcpRetryPolicySchema = z.strictObject(retryShape("mcp"));

const legacyAuthTypeSchema = z.string().refine((t) => t.toLowerCase() === "bearer" || t.toLowerCase() === "basic", {
  error: (issue) => `expected one of bearer|basic; got ${describeValue(issue.input)}`,
});

/** `httpConfig`. */
export const httpConfigSchema = z.strictObject({
  endpoint: z.string(),
  method: z.string().nullish(),
  headers: headerMap.nullish(),
  contentType: z.string().nullish(),
  headersFromSecret: z.record(z.string(), secretKeyRefSchema).nullish(),
  queryParams: stringList.nullish(),
  headerParams: headerNameMap.nullish(),
  staticQuery: stringMap.nullish(),
  staticBody: jsonValueSchema.nullish(),
  bodyMapping: z.string().nullish(),
  responseMapping: z.string().nullish(),
  redact: stringList.nullish(),
  urlTemplate: z.string().nullish(),
  retryPolicy: httpRetryPolicySchema.nullish(),
  authType: legacyAuthTypeSchema.nullish(),
  authSecretRef: secretKeyRefSchema.nullish(),
});

/** `grpcConfig`. */
export const grpcConfigSchema = z.strictObject({
  endpoint: nonEmptyString,
  tls: z.boolean().nullish(),
  tlsCertPath: z.string().nullish(),
  tlsKeyPath: z.string().nullish(),
  tlsCAPath: z.string().nullish(),
  tlsInsecureSkipVerify: z.boolean().nullish(),
  retryPolicy: grpcRetryPolicySchema.nullish(),
});

/** `mcpConfig`. */
export const mcpConfigSchema = z.strictObject({
  transport: z.enum(MCP_TRANSPORTS),
  endpoint: z.string().nullish(),
  command: z.string().nullish(),
  args: stringList.nullish(),
  env: stringMap.nullish(),
  workDir: z.string().nullish(),
  toolFilter: z.strictObject({ allowlist: stringList.nullish(), blocklist: stringList.nullish() }).nullish(),
  retryPolicy: mcpRetryPolicySchema.nullish(),
});

/** `openAPIConfig`. */
export const openApiConfigSchema = z.strictObject({
  specURL: nonEmptyString,
  baseURL: z.string().nullish(),
  operationFilter: stringList.nullish(),
  headers: headerMap.nullish(),
  retryPolicy: httpRetryPolicySchema.nullish(),
  authType: legacyAuthTypeSchema.nullish(),
  authSecretRef: secretKeyRefSchema.nullish(),
});

/** `clientConfig`. */
export const clientConfigSchema = z.strictObject({
  consentMessage: z.string().nullish(),
  categories: stringList.nullish(),
});

/** The handler-level `auth` stanza. */
export const authSchema = z.strictObject({
  type: z.enum(AUTH_TYPES).nullish(),
  secretRef: secretKeyRefSchema.nullish(),
  serviceAccount: z.strictObject({ audience: nonEmptyString }).nullish(),
  workloadIdentity: z
    .strictObject({
      // The CRD's enum: the API server refuses any other cloud.
      cloud: z.enum(["azure"]),
      audience: nonEmptyString,
      header: z.string().nullish(),
    })
    .nullish(),
});

/** `delegation` (1.9.0): `enabled` is typed, the rest is kept verbatim. */
export const delegationSchema = z.looseObject({ enabled: z.boolean().nullish() }).check((ctx) => {
  const bad = findNonJson(ctx.value);
  if (bad !== undefined) ctx.issues.push({ code: "custom", message: bad.message, input: ctx.value, path: bad.path });
});

const handlerTypeSchema = z.string().refine((t) => (HANDLER_TYPES as readonly string[]).includes(t), {
  // The controller's own wording (`validateHandler`, `internal/controller/toolregistry_controller.go`), then the valid types.
  error: (issue) => {
    const hint = typeof issue.input === "string" ? didYouMean(issue.input, HANDLER_TYPES) : undefined;
    return `unknown handler type: ${String(issue.input)}; expected one of ${HANDLER_TYPES.join("|")}${hint === undefined ? "" : ` (${hint})`}`;
  },
});

/** One entry of `spec.handlers`. */
export const handlerSchema = z.strictObject({
  name: z.string().max(HANDLER_NAME_MAX_LENGTH).regex(HANDLER_NAME_PATTERN),
  type: handlerTypeSchema as z.ZodType<(typeof HANDLER_TYPES)[number], (typeof HANDLER_TYPES)[number]>,
  tool: toolDefinitionSchema.nullish(),
  httpConfig: httpConfigSchema.nullish(),
  grpcConfig: grpcConfigSchema.nullish(),
  mcpConfig: mcpConfigSchema.nullish(),
  openAPIConfig: openApiConfigSchema.nullish(),
  clientConfig: clientConfigSchema.nullish(),
  auth: authSchema.nullish(),
  timeout: goDurationSchema.nullish(),
  delegation: delegationSchema.nullish(),
  sandbox: jsonObjectSchema.nullish(),
});

/** `spec.probe`. */
export const probeSchema = z.strictObject({
  // Required by the CRD whenever probe is present.
  enabled: z.boolean(),
  interval: goDurationSchema.nullish(),
  timeout: goDurationSchema.nullish(),
});

/** `handlers` of a resource or bare list: at least one entry; each entry is checked with {@link handlerSchema}. */
const handlerListSchema = z.array(z.unknown()).min(1);

/** A whole ToolRegistry resource. `status` (as `kubectl get -o yaml` prints it) is accepted and ignored. */
export const toolRegistryResourceSchema = z.strictObject({
  apiVersion: z.string().nullish(),
  kind: z.literal("ToolRegistry").nullish(),
  metadata: z.looseObject({ name: z.string().nullish(), namespace: z.string().nullish() }).nullish(),
  spec: z.strictObject({ handlers: handlerListSchema, probe: probeSchema.nullish() }),
  status: z.unknown().optional(),
});

/** A bare `{ handlers: [...] }` document. */
export const bareHandlersSchema = z.strictObject({
  handlers: handlerListSchema,
  probe: probeSchema.nullish(),
});

/** The raw (validated) input types the normaliser reads. */
export type RawHandler = z.input<typeof handlerSchema>;
export type RawHttpConfig = z.input<typeof httpConfigSchema>;
export type RawHttpRetryPolicy = z.input<typeof httpRetryPolicySchema>;
export type RawGrpcRetryPolicy = z.input<typeof grpcRetryPolicySchema>;
export type RawMcpRetryPolicy = z.input<typeof mcpRetryPolicySchema>;
export type RawAuth = z.input<typeof authSchema>;
export type RawSecretKeyRef = z.input<typeof secretKeyRefSchema>;
export type RawProbe = z.input<typeof probeSchema>;
export type RawResource = z.input<typeof toolRegistryResourceSchema>;
