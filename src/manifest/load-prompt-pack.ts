import { schemas } from "./lazy-schemas.js";
import { ConfigError, noopLogger, type JsonObject, type Logger } from "../core/index.js";
import { readDocuments, type ManifestInput, type SourceDocument } from "./documents.js";
import { describeValue, formatPath, translateZodIssue, unknownFieldMessage } from "./issues.js";
import { findNonJson, freezeJsonObject, isPlainObject } from "./json.js";
import { findPackSource } from "./pack-documents.js";
import type { ManifestIssue } from "./types.js";

/**
 * One prompt of a PromptPack (`prompts.<key>`). Only the fields that tool
 * reconciliation needs are typed; every other field is kept as it was.
 * @public
 */
export interface PackPrompt {
  readonly id?: string;
  readonly name?: string;
  readonly version?: string;
  readonly system_template?: string;
  /** The prompt's tool allow-list: exact names, or prefixes ending in `*`. Absent means none. */
  readonly tools?: readonly string[];
  readonly [field: string]: unknown;
}

/**
 * A pack-level tool definition (`tools.<name>`).
 * @public
 */
export interface PackToolDefinition {
  readonly name?: string;
  readonly description?: string;
  readonly parameters?: JsonObject;
  readonly [field: string]: unknown;
}

/**
 * A PromptPack (promptpack.org) as `loadPromptPack` returns it: frozen, typed
 * where tool reconciliation needs it, every other field kept.
 * @public
 */
export interface PromptPack {
  readonly id?: string;
  readonly name?: string;
  readonly version?: string;
  readonly template_engine?: JsonObject;
  /** Prompt key (the task type) -> prompt. */
  readonly prompts: Readonly<Record<string, PackPrompt>>;
  /** Pack-level tool definitions, when the pack has them. */
  readonly tools?: Readonly<Record<string, PackToolDefinition>>;
  readonly [field: string]: unknown;
}

/** The pack schema, built on the first pack read (zod loads with it: see lazy-schemas.ts). */
let packSchema: ReturnType<typeof buildPackSchema> | undefined;
function buildPackSchema() {
  const { z } = schemas();
  const optionalString = z.string().nullish();

  const promptSchema = z.looseObject({
    id: optionalString,
    name: optionalString,
    version: optionalString,
    system_template: optionalString,
    tools: z.array(z.string()).nullish(),
  });

  const packToolSchema = z.looseObject({
    name: optionalString,
    description: optionalString,
    parameters: z.record(z.string(), z.unknown()).nullish(),
  });

  const promptPackSchema = z
    .looseObject({
      id: optionalString,
      name: optionalString,
      version: optionalString,
      template_engine: z.record(z.string(), z.unknown()).nullish(),
      prompts: z.record(z.string(), promptSchema),
      tools: z.record(z.string(), packToolSchema).nullish(),
    })
    .check((ctx) => {
      const bad = findNonJson(ctx.value);
      if (bad !== undefined) ctx.issues.push({ code: "custom", message: bad.message, input: ctx.value, path: bad.path });
    });
  return promptPackSchema;
}

/** The fields the PromptPack schema (promptpack.org, `additionalProperties: false`) defines, plus Omnia's `compositions`. */
const PACK_FIELDS = ["$schema", "id", "name", "version", "description", "template_engine", "prompts", "fragments", "tools", "metadata", "compilation", "evals", "workflow", "agents", "skills", "compositions"];
const PROMPT_FIELDS = ["id", "name", "description", "version", "system_template", "variables", "tools", "tool_policy", "pipeline", "parameters", "validators", "evals", "tested_models", "model_overrides", "media"];
const TOOL_FIELDS = ["name", "description", "parameters"];

/** Unknown fields of the pack, its prompts and its tools, as the registry reports its own: `unknown field; it is ignored (did you mean "tools"?)`. */
function unknownFields(pack: Record<string, unknown>, doc: SourceDocument): ManifestIssue[] {
  const out: ManifestIssue[] = [];
  const check = (value: unknown, path: string[], known: readonly string[]): void => {
    if (!isPlainObject(value)) return;
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const at = [...path, key];
      const line = doc.lineOf(at);
      const issue = { path: formatPath(at), message: unknownFieldMessage(path, key, known) };
      out.push(line === undefined ? issue : { ...issue, line });
    }
  };
  check(pack, [], PACK_FIELDS);
  for (const [key, prompt] of Object.entries(pack.prompts as Record<string, unknown>)) check(prompt, ["prompts", key], PROMPT_FIELDS);
  if (isPlainObject(pack.tools)) for (const [key, tool] of Object.entries(pack.tools)) check(tool, ["tools", key], TOOL_FIELDS);
  return out;
}

/**
 * Options of {@link loadPromptPack}.
 * @public
 */
export interface LoadPromptPackOptions {
  /**
   * Receives one `info` naming the document the pack was read from, when it
   * came from a ConfigMap, and one `warn` per unknown field of the pack, a
   * prompt or a pack tool (`PromptPack: prompts.support.tool: unknown field; it
   * is ignored (did you mean "tools"?)`, with `path` and `line` fields).
   * Default: discard.
   */
  logger?: Logger;
  /**
   * `"json"`: the text is JSON (a `pack.json`), read by `JSON.parse` alone, so
   * a trailing comma or a comment is an error with its line, as `packc` and
   * Omnia's Go reader make it. Default `"yaml"`: YAML or JSON, as
   * `loadToolRegistry` reads a manifest. The `pack.json` of a ConfigMap is
   * always read as JSON.
   */
  format?: "json" | "yaml";
}

/**
 * Loads a PromptPack (the compiled `pack.json`, or its YAML source) for tool
 * reconciliation. Omnia's two-document form (a `PromptPack` resource and the
 * `ConfigMap` whose `data."pack.json"` holds the pack) and a bare ConfigMap are
 * read as they are: the pack is the `pack.json` of the ConfigMap that the
 * PromptPack's `spec.source.configMapRef` names, else of the only ConfigMap
 * that has one; `options.logger` gets an `info` naming it. When none is found
 * the ConfigError says which ConfigMaps it looked at.
 *
 * It checks what reconciliation reads: `prompts` is an object of prompt
 * objects, and each prompt's `tools`, when present, is a list of names. `id`,
 * `name`, `version` and `system_template`, when present, must be strings. Every
 * other field is kept unchanged (the PromptPack JSON Schema and `packc` validate
 * the rest). A `tools: null` is dropped, so an absent list means "no tools".
 * A field the PromptPack schema does not define (at the top, in a prompt or in
 * a pack tool; Omnia's `compositions` is known) is kept and warned about on
 * `options.logger`, with a did-you-mean for a near miss.
 *
 * @throws ConfigError (`ERR_OMNIA_CONFIG`) listing every problem with its path,
 * e.g. `prompts.support.tools[1]: expected a string; got 42`.
 * @public
 */
export function loadPromptPack(input: ManifestInput, options: LoadPromptPackOptions = {}): PromptPack {
  const errors: ManifestIssue[] = [];
  const logger = options.logger ?? noopLogger;
  const documents = readDocuments(input, errors, [], options.format);
  if (errors.length > 0) throw new ConfigError(errors);
  const source = findPackSource(documents);
  let doc = source.kind === "document" ? source.doc : undefined;
  if (source.kind === "configMap") {
    logger.info(`PromptPack: read the pack from ${source.description}`, { source: source.description });
    const inner = readDocuments(source.text, errors, [], "json");
    if (errors.length > 0) throw new ConfigError(errors.map((e) => ({ ...e, message: `${source.description}: ${e.message}` })));
    const packs = inner.filter((d) => d.value !== null && d.value !== undefined);
    if (packs.length !== 1) throw new ConfigError({ path: "", message: `${source.description}: expected one pack; got ${packs.length} documents` });
    doc = packs[0];
  }
  if (doc === undefined) throw new ConfigError({ path: "", message: "no pack found" });
  doc.prefix = [];
  if (!isPlainObject(doc.value)) {
    throw new ConfigError({ path: "", message: `expected a PromptPack object; got ${describeValue(doc.value)}` });
  }
  const result = (packSchema ??= buildPackSchema()).safeParse(doc.value, { reportInput: true });
  if (!result.success) {
    const issues: ManifestIssue[] = [];
    for (const issue of result.error.issues) {
      for (const t of translateZodIssue(issue)) {
        if (t.warning) continue;
        const line = doc.lineOf(t.path);
        issues.push(line === undefined ? { path: formatPath(t.path), message: t.message } : { path: formatPath(t.path), message: t.message, line });
      }
    }
    throw new ConfigError(issues);
  }
  for (const warning of unknownFields(doc.value, doc)) {
    logger.warn(`PromptPack: ${warning.path}: ${warning.message}`, warning.line === undefined ? { path: warning.path } : { path: warning.path, line: warning.line });
  }
  const copy = freezeJsonObject(withoutNullTools(doc.value));
  return copy as unknown as PromptPack;
}

/** Drops `tools: null` from the pack and its prompts, so that absent is the only "no tools". */
function withoutNullTools(pack: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...pack };
  if (out.tools === null) delete out.tools;
  const prompts = out.prompts as Record<string, Record<string, unknown>>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(prompts)) {
    const prompt = prompts[key] as Record<string, unknown>;
    if (prompt.tools === null) {
      const { tools: _dropped, ...rest } = prompt;
      Object.defineProperty(copy, key, { value: rest, enumerable: true, writable: true, configurable: true });
    } else {
      Object.defineProperty(copy, key, { value: prompt, enumerable: true, writable: true, configurable: true });
    }
  }
  out.prompts = copy;
  return out;
}
