import { ConfigError, ErrorCode, InvalidOptionError, noopLogger, parseGoDuration, type Logger } from "../core/index.js";
import { DEFAULT_PROBE_INTERVAL_MS, DEFAULT_PROBE_TIMEOUT_MS, TOOL_REGISTRY_API_VERSION } from "./defaults.js";
import { readDocuments, type ManifestInput, type SourceDocument } from "./documents.js";
import { DuplicateToolError, type DuplicateTool } from "./duplicate-tool-error.js";
import { describeValue, formatPath, translateZodIssue, type IssueSink, type PathSegment } from "./issues.js";
import { isPlainObject } from "./json.js";
import { expandListDocuments } from "./list-documents.js";
import { normalizeHandler } from "./normalize-handler.js";
import type { RawHandler, RawProbe, RawResource } from "./schemas.js";
import { schemas } from "./lazy-schemas.js";
import type {
  HandlerConfig,
  ManifestIssue,
  McpHandlerConfig,
  OpenApiHandlerConfig,
  ProbeConfig,
  ToolDescriptor,
  ToolRegistry,
} from "./types.js";
import { validateHandler } from "./validate-handler.js";
import { checkSchemaTargets, parseSchemaTargets, type SchemaTarget } from "./schema-targets.js";

/**
 * Options of {@link loadToolRegistry}.
 * @public
 */
export interface LoadToolRegistryOptions {
  /**
   * Receives one `warn` per warning: unknown fields, configuration blocks the
   * handler type ignores, settings with which every call would fail. Default:
   * discard (the warnings are still on `registry.warnings`).
   */
  logger?: Logger;
  /**
   * Reports as errors, not warnings, what the Kubernetes API server would
   * reject when the manifest is applied with strict field validation
   * (`kubectl apply --validate=strict`): unknown fields, a
   * `retryPolicy.backoffMultiplier` written as a number (the CRD's type is a
   * string), an `apiVersion` other than `omnia.altairalabs.ai/v1alpha1`.
   * Default `false`: those are warnings and the manifest loads.
   */
  strict?: boolean;
  /**
   * Model providers whose rules each static tool (`http`, `grpc`, `client`)
   * is checked against: its name and `inputSchema` as `openai-strict`,
   * `anthropic` or `gemini` would refuse them (`checkSchemaTargets`). Each
   * problem is a warning at its path and line
   * (`spec.handlers[0].tool.inputSchema.properties.q.additionalProperties:
   * gemini: ...`): Omnia itself accepts the schema, but a request that offers
   * the tool to that provider fails. Default: none.
   */
  targets?: readonly SchemaTarget[];
}

/**
 * Everything one load found: the registry when there is no error, else the
 * error `loadToolRegistry` throws; and the warnings in either case.
 * @internal Does not follow semver.
 */
export interface ToolRegistryInspection {
  readonly registry?: ToolRegistry;
  readonly error?: ConfigError | DuplicateToolError;
  readonly warnings: readonly ManifestIssue[];
}

/** One handler found in the input, with where it came from. */
interface FoundHandler {
  readonly raw: unknown;
  readonly path: PathSegment[];
  readonly doc: SourceDocument;
}

/** Collects issues with their full path and line. */
class Collector implements IssueSink {
  readonly errors: ManifestIssue[] = [];
  readonly warnings: ManifestIssue[] = [];
  private doc: SourceDocument | undefined;

  constructor(private readonly strict: boolean) {}

  use(doc: SourceDocument): void {
    this.doc = doc;
  }

  private issue(path: readonly PathSegment[], message: string, code?: string): ManifestIssue {
    const line = this.doc?.lineOf(path);
    const out: { path: string; message: string; line?: number; code?: string } = {
      path: formatPath([...(this.doc?.prefix ?? []), ...path]),
      message,
    };
    if (line !== undefined) out.line = line;
    if (code !== undefined) out.code = code;
    return out;
  }

  error(path: readonly PathSegment[], message: string, code?: string): void {
    this.errors.push(this.issue(path, message, code));
  }

  warning(path: readonly PathSegment[], message: string, apiServerRejects = false): void {
    if (apiServerRejects && this.strict) this.errors.push(this.issue(path, strictMessage(message)));
    else this.warnings.push(this.issue(path, message));
  }

  schema(result: { success: boolean; error?: { issues: readonly unknown[] } }, base: readonly PathSegment[], schema?: unknown): void {
    if (result.success || result.error === undefined) return;
    for (const issue of result.error.issues) {
      for (const t of translateZodIssue(issue as Parameters<typeof translateZodIssue>[0], base, schema)) {
        if (t.warning) this.warning(t.path, t.message, t.unknownField === true);
        else this.error(t.path, t.message);
      }
    }
  }
}

/**
 * Loads, validates and normalises a ToolRegistry manifest: the same YAML that
 * Omnia users write for the `ToolRegistry` CRD.
 *
 * `input` is YAML or JSON text (a string or UTF-8 bytes), a parsed object, or an
 * array of them. Accepted documents: a ToolRegistry resource (`apiVersion`,
 * `kind: ToolRegistry`, `metadata`, `spec.handlers[]`), or a bare
 * `{ handlers: [...] }`. A multi-document YAML (or an array) merges the handlers
 * of every such document; documents of another `kind` (a Secret next to the
 * registry) are skipped, and the paths of a multi-document input start with
 * `documents[<i>]`. A `kind: List` or `ToolRegistryList` (what
 * `kubectl get toolregistries -o yaml` prints) is read as its `items`, their
 * paths under `items[<i>]`.
 *
 * Defaults are applied the way Omnia's CRD and operator do (see
 * {@link HandlerConfig}): timeout 30 s per attempt, method POST, contentType
 * `application/json`, retryPolicy defaults (initialBackoff 100 ms, multiplier 2,
 * maxBackoff 30 s, retryOn `[408, 429, 500, 502, 503, 504]`, both flags true),
 * legacy `authType`/`authSecretRef` folded into `auth`.
 *
 * `tools` lists the tools known at load time, one per `http`, `grpc` and
 * `client` handler. `mcp` and `openapi` handlers serve tools discovered at run
 * time and add nothing to `tools`.
 *
 * Unknown fields are not errors: each one is reported through
 * `options.logger.warn` and on `registry.warnings` (naming the known field
 * nearest to a typo: `did you mean "httpConfig"?`), then ignored; with
 * `options.strict` they, and whatever else the Kubernetes API server would
 * reject, are errors.
 *
 * @throws ConfigError (`ERR_OMNIA_CONFIG`) listing **every** problem, one per
 * line as `<path>: <message>` (e.g. `spec.handlers[2].httpConfig.retryPolicy.maxAttempts: must be at most 10; got 11`);
 * each issue also carries its `line` when the input was text. A YAML syntax
 * error is reported as `invalid YAML at line <n>, column <c>: <reason>`.
 * @throws DuplicateToolError (`ERR_OMNIA_DUPLICATE_TOOL`) when the only problems
 * are tool names served by two handlers; the message names both handlers.
 *
 * @example
 * ```ts
 * const registry = loadToolRegistry(readFileSync("registry.yaml", "utf8"), { logger });
 * for (const tool of registry.tools) console.log(tool.name, tool.handlerName, tool.execution);
 * ```
 * @public
 */
export function loadToolRegistry(input: ManifestInput, options: LoadToolRegistryOptions = {}): ToolRegistry {
  const { registry, error } = inspectToolRegistry(input, options);
  if (error !== undefined) throw error;
  return registry as ToolRegistry;
}

/**
 * {@link loadToolRegistry} without the throw: the registry or the error, and
 * every warning either way (what `omnia-tools validate` prints).
 * @internal Does not follow semver.
 */
export function inspectToolRegistry(input: ManifestInput, options: LoadToolRegistryOptions = {}): ToolRegistryInspection {
  const logger = options.logger ?? noopLogger;
  let targets: readonly SchemaTarget[] = [];
  if (options.targets !== undefined && !(Array.isArray(options.targets) && options.targets.length === 0)) {
    const parsed = parseSchemaTargets(options.targets, "loadToolRegistry: targets");
    if ("error" in parsed) throw new InvalidOptionError(parsed.error);
    targets = parsed.targets;
  }
  const collect = new Collector(options.strict === true);
  const documents = expandListDocuments(readDocuments(input, collect.errors, collect.warnings));

  const found: FoundHandler[] = [];
  let name: string | undefined;
  let namespace: string | undefined;
  let rawProbe: RawProbe | null | undefined;
  let registryDocuments = 0;
  for (const doc of documents) {
    collect.use(doc);
    const value = doc.value;
    if (value === null || value === undefined) continue; // an empty YAML document
    if (!isPlainObject(value)) {
      collect.error([], `expected a ToolRegistry resource or an object with handlers; got ${describeValue(value)}`);
      continue;
    }
    if ("kind" in value && value.kind !== "ToolRegistry" && documents.length > 1) {
      logger.info(`ToolRegistry: skipped ${formatPath(doc.prefix)}, a document of kind ${describeValue(value.kind)}`);
      continue;
    }
    let handlers: unknown;
    let base: PathSegment[];
    if ("spec" in value || "kind" in value || "apiVersion" in value) {
      collect.schema(schemas().toolRegistryResourceSchema.safeParse(value, { reportInput: true }), [], schemas().toolRegistryResourceSchema);
      if (typeof value.apiVersion === "string" && value.apiVersion !== TOOL_REGISTRY_API_VERSION) {
        collect.warning(["apiVersion"], `expected ${TOOL_REGISTRY_API_VERSION}; got ${describeValue(value.apiVersion)}; the resource is read as ${TOOL_REGISTRY_API_VERSION}`, true);
      }
      const resource = value as RawResource;
      handlers = isPlainObject(resource.spec) ? resource.spec.handlers : undefined;
      base = ["spec", "handlers"];
      if (isPlainObject(resource.metadata) && registryDocuments === 0) {
        if (typeof resource.metadata.name === "string") name = resource.metadata.name;
        if (typeof resource.metadata.namespace === "string") namespace = resource.metadata.namespace;
      }
      if (registryDocuments === 0 && isPlainObject(resource.spec)) rawProbe = resource.spec.probe as RawProbe | null | undefined;
    } else if ("handlers" in value) {
      collect.schema(schemas().bareHandlersSchema.safeParse(value, { reportInput: true }), [], schemas().bareHandlersSchema);
      handlers = value.handlers;
      base = ["handlers"];
      if (registryDocuments === 0) rawProbe = value.probe as RawProbe | null | undefined;
    } else {
      const hint = "type" in value && "name" in value ? " (a single handler must be wrapped as { handlers: [ ... ] })" : "";
      collect.error([], `expected a ToolRegistry resource (kind: ToolRegistry, spec.handlers) or an object with handlers; got an object with keys ${Object.keys(value).join(", ") || "(none)"}${hint}`);
      continue;
    }
    registryDocuments++;
    if (Array.isArray(handlers)) {
      handlers.forEach((raw, i) => {
        const path = [...base, i];
        found.push({ raw, path, doc });
        validateHandler(raw, path, collect);
        if (targets.length > 0) checkToolTargets(raw, path, targets, collect);
      });
    }
  }
  if (registryDocuments === 0 && collect.errors.length === 0) {
    collect.use({ value: undefined, prefix: [], lineOf: () => undefined });
    collect.error([], "no ToolRegistry document found: expected a ToolRegistry resource or an object with handlers");
  }

  const duplicates = checkDuplicates(found, collect);

  for (const warning of collect.warnings) {
    const fields: Record<string, unknown> = { path: warning.path };
    if (warning.line !== undefined) fields.line = warning.line;
    logger.warn(`ToolRegistry: ${warning.path === "" ? "" : `${warning.path}: `}${warning.message}`, fields);
  }
  if (collect.errors.length > 0) {
    if (duplicates.length > 0 && collect.errors.every((e) => e.code === ErrorCode.DUPLICATE_TOOL)) {
      return { error: new DuplicateToolError(collect.errors, duplicates), warnings: collect.warnings };
    }
    return { error: new ConfigError(collect.errors), warnings: collect.warnings };
  }

  const handlerConfigs = Object.freeze(found.map((h) => normalizeHandler(h.raw as RawHandler)));
  const registry = buildRegistry(handlerConfigs, collect.warnings, name, namespace, normalizeProbe(rawProbe));
  return { registry, warnings: registry.warnings };
}

/** Each provider problem of a handler's static tool, as a warning at its path (and line). */
function checkToolTargets(raw: unknown, path: readonly PathSegment[], targets: readonly SchemaTarget[], collect: Collector): void {
  if (!isPlainObject(raw) || !isPlainObject(raw.tool)) return;
  const { name, inputSchema } = raw.tool;
  if (typeof name !== "string") return;
  for (const issue of checkSchemaTargets({ name, inputSchema }, targets)) {
    collect.warning(issue.field === "name" ? [...path, "tool", "name"] : [...path, "tool", "inputSchema", ...issue.path], issue.message);
  }
}

/** A strict-mode error for what was a warning: `unknown field; it is ignored (...)` -> `unknown field (...); the API server rejects it ...`. */
function strictMessage(message: string): string {
  const version = /^(expected .*; got .*); the resource is read as .*$/.exec(message);
  if (version !== null) return `${version[1]}; the Kubernetes API server serves no other version of ToolRegistry`;
  const unknown = /^unknown field; it is ignored(?: \((.*)\))?$/.exec(message);
  if (unknown === null) return message;
  const hint = unknown[1] === undefined ? "" : ` (${unknown[1]})`;
  return `unknown field${hint}; the Kubernetes API server rejects it under strict field validation`;
}

function checkDuplicates(found: readonly FoundHandler[], collect: Collector): DuplicateTool[] {
  const handlerNames = new Map<string, FoundHandler>();
  const toolNames = new Map<string, { handler: string; at: FoundHandler }>();
  const duplicates: DuplicateTool[] = [];
  for (const entry of found) {
    if (!isPlainObject(entry.raw)) continue;
    collect.use(entry.doc);
    const handlerName = entry.raw.name;
    if (typeof handlerName !== "string") continue;
    const previous = handlerNames.get(handlerName);
    if (previous !== undefined) {
      collect.error([...entry.path, "name"], `duplicate handler name ${JSON.stringify(handlerName)}; already used by ${formatPath([...previous.doc.prefix, ...previous.path])}`);
    } else {
      handlerNames.set(handlerName, entry);
    }
    // Only http, grpc and client handlers serve their `tool` (mcp and openapi ignore it).
    const type = entry.raw.type;
    const tool = entry.raw.tool;
    if ((type !== "http" && type !== "grpc" && type !== "client") || !isPlainObject(tool) || typeof tool.name !== "string") continue;
    const first = toolNames.get(tool.name);
    if (first === undefined) {
      toolNames.set(tool.name, { handler: handlerName, at: entry });
      continue;
    }
    duplicates.push({ toolName: tool.name, handlers: [first.handler, handlerName] });
    const firstPath = formatPath([...first.at.doc.prefix, ...first.at.path]);
    const thisPath = formatPath([...entry.doc.prefix, ...entry.path]);
    collect.error(
      [...entry.path, "tool", "name"],
      `duplicate tool name ${JSON.stringify(tool.name)}: served by handler ${JSON.stringify(first.handler)} (${firstPath}) and handler ${JSON.stringify(handlerName)} (${thisPath})`,
      ErrorCode.DUPLICATE_TOOL,
    );
  }
  return duplicates;
}

/**
 * A registry with no handler: what a runtime serves when the AgentRuntime has
 * no `toolRegistryRef` (no `OMNIA_TOOLS_CONFIG_PATH`). A loaded manifest needs
 * at least one handler; this is the absence of one.
 * @internal Does not follow semver.
 */
export function emptyToolRegistry(): ToolRegistry {
  return buildRegistry([], [], undefined, undefined, normalizeProbe(undefined));
}

function normalizeProbe(probe: RawProbe | null | undefined): ProbeConfig {
  return Object.freeze({
    enabled: probe?.enabled ?? false,
    intervalMs: probe?.interval == null ? DEFAULT_PROBE_INTERVAL_MS : parseGoDuration(probe.interval),
    timeoutMs: probe?.timeout == null ? DEFAULT_PROBE_TIMEOUT_MS : parseGoDuration(probe.timeout),
  });
}

/**
 * The same registry with other handler configs (the tools rebuilt from them):
 * name, namespace, probe and warnings kept.
 * @internal Does not follow semver.
 */
export function rebuildToolRegistry(registry: ToolRegistry, handlers: readonly HandlerConfig[]): ToolRegistry {
  return buildRegistry(Object.freeze([...handlers]), registry.warnings, registry.name, registry.namespace, registry.probe);
}

function buildRegistry(
  handlers: readonly HandlerConfig[],
  warnings: readonly ManifestIssue[],
  name: string | undefined,
  namespace: string | undefined,
  probe: ProbeConfig,
): ToolRegistry {
  const tools: ToolDescriptor[] = [];
  const discovered: (McpHandlerConfig | OpenApiHandlerConfig)[] = [];
  for (const handler of handlers) {
    if (handler.type === "mcp" || handler.type === "openapi") {
      discovered.push(handler);
      continue;
    }
    const tool = handler.tool;
    const descriptor: { -readonly [K in keyof ToolDescriptor]: ToolDescriptor[K] } = {
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      handlerName: handler.name,
      handlerType: handler.type,
      execution: handler.type === "client" ? "client" : "server",
    };
    if (tool.outputSchema !== undefined) descriptor.outputSchema = tool.outputSchema;
    tools.push(Object.freeze(descriptor));
  }
  const toolsByName = new Map(tools.map((t) => [t.name, t]));
  const handlersByName = new Map(handlers.map((h) => [h.name, h]));
  const registry: { -readonly [K in keyof ToolRegistry]: ToolRegistry[K] } = {
    tools: Object.freeze(tools),
    handlers,
    discoveredHandlers: Object.freeze(discovered),
    probe,
    warnings: Object.freeze(warnings.map((w) => Object.freeze({ ...w }))),
    getTool: (toolName) => toolsByName.get(toolName),
    getHandler: (handlerName) => handlersByName.get(handlerName),
  };
  if (name !== undefined) registry.name = name;
  if (namespace !== undefined) registry.namespace = namespace;
  return Object.freeze(registry);
}
