// The pack decides what the model is offered; the registry only binds names to
// executors (seed 000, runtime-tools.md §6.2). Nothing here widens a prompt: the
// 1.3.0 "surfacing" that unioned every registry tool into every prompt is not ported.
import { ConfigError, InvalidOptionError, noopLogger, type ConfigIssue, type Logger } from "../core/index.js";
import { EXEMPT_TOOL_NAMESPACES, isExemptToolName } from "./exempt.js";

/**
 * The part of a PromptPack that reconciliation reads: each prompt's `tools`
 * allow-list. A `loadPromptPack` result fits, and so does a bare
 * `{ prompts: { a: { tools: ["x"] } } }`.
 * @public
 */
export interface ReconcilablePack {
  readonly prompts?: Readonly<Record<string, { readonly tools?: readonly string[] | null | undefined } | null | undefined>> | null | undefined;
}

/**
 * What a registry serves: tool names, or any object with a `tools` array of
 * `{ name }` (a `ToolRegistry` fits; its optional `name` labels the log record).
 * @public
 */
export type ServedTools = Iterable<string> | { readonly tools: readonly { readonly name: string }[]; readonly name?: string | undefined };

/**
 * Options of {@link reconcileTools}.
 * @public
 */
export interface ReconcileOptions {
  /** Receives one `warn` per mismatch direction. Default: discard. */
  logger?: Logger;
  /** The ToolRegistry name for the log record. Default: `served.name` when it is a registry. */
  registryName?: string;
  /**
   * Namespaces offered without a declaration and never reported. Default
   * {@link EXEMPT_TOOL_NAMESPACES} (memory, skill, a2a, workflow, mcp).
   */
  exemptNamespaces?: readonly string[];
}

/**
 * Which way a mismatch goes.
 * @public
 */
export type MismatchKind = "declared-not-served" | "served-not-declared";

/**
 * One direction of mismatch between the pack and the registry, naming every
 * tool and the fix.
 * @public
 */
export interface Mismatch {
  readonly kind: MismatchKind;
  /** Sorted, each name once. */
  readonly tools: readonly string[];
  /** Names the tools and the fix; also the text of the warn log record. */
  readonly message: string;
  /** What to do about it. */
  readonly fix: string;
  /** For `declared-not-served`: tool -> the prompt keys that declare it. */
  readonly prompts?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The result of {@link reconcileTools}. Every list is sorted, each name once.
 * @public
 */
export interface ReconcileResult {
  /** Every tool offered to at least one prompt: (union of the prompts' tools) ∩ served, plus served exempt tools. */
  offered: string[];
  /** Prompt key -> what a conversation running that prompt is offered. */
  byPrompt: Record<string, string[]>;
  /** Declared by some prompt, not served, not exempt (wildcard entries excluded). */
  declaredNotServed: string[];
  /** Served, declared by no prompt (nor matched by a wildcard), not exempt. */
  servedNotDeclared: string[];
  /** The exempt-namespace names seen among the served or declared tools. */
  exempt: string[];
  /** At most one per direction, `served-not-declared` first. */
  mismatches: Mismatch[];
}

/** The fixes, in the words of seed 000. */
const FIX_SERVED_NOT_DECLARED = "add the name to the prompt's tools list and republish the pack";
const FIX_DECLARED_NOT_SERVED = "expose the tool from the attached ToolRegistry";

/**
 * Decides which tools the model is offered, per prompt, and reports every
 * mismatch between the pack and the registry (API.md decision 4).
 *
 * - A prompt is offered `prompt.tools ∩ served` (exact, case-sensitive match),
 *   plus every served tool matching one of its wildcard entries (an entry ending
 *   in `*` is a prefix), plus every served tool in an exempt namespace
 *   (`memory__`, `skill__`, `a2a__`, `workflow__`, `mcp__`), in name order.
 * - A served tool that no prompt declares is never offered, and a declared tool
 *   that is not served is never offered. Neither is an error: each direction
 *   gives one {@link Mismatch} and one `warn` through `options.logger`, naming
 *   the tools and the fix. Exempt tools and wildcard entries are never reported.
 * - The pack is never modified and a prompt is never widened.
 *
 * Runs in time linear in the number of prompt entries and served names (plus
 * sorting the output).
 *
 * @param pack - a PromptPack (`loadPromptPack`) or `{ prompts: { <key>: { tools } } }`
 * @param served - the served tool names, or a ToolRegistry
 * @throws ConfigError (`ERR_OMNIA_CONFIG`) when `pack` is malformed (a `tools` that is not a list of names)
 * @throws InvalidOptionError (`ERR_OMNIA_INVALID_OPTION`) when `served` is not a list of names or a registry
 * @example
 * ```ts
 * const { byPrompt, mismatches } = reconcileTools(loadPromptPack(packJson), registry, { logger });
 * ```
 * @public
 */
export function reconcileTools(pack: ReconcilablePack, served: ServedTools, options: ReconcileOptions = {}): ReconcileResult {
  const logger = options.logger ?? noopLogger;
  const namespaces = options.exemptNamespaces ?? EXEMPT_TOOL_NAMESPACES;
  const isExempt = (name: string): boolean => isExemptToolName(name, namespaces);
  // One hash table for every name, served or declared (one table, not two, keeps the
  // pass linear in practice as well as in theory): SERVED, SERVED_DECLARED, or, for a
  // name that is declared but not served, the prompt key(s) declaring it.
  const names = readServed(served);
  const prompts = readPrompts(pack);

  // Each prompt collects its offered names in an array, sorted and de-duplicated at the end.
  const patternPrompts = new Map<string, string | string[]>();
  const byPromptLists: [string, string[]][] = [];
  const listOf = new Map<string, string[]>();
  for (const [key, tools] of prompts) {
    const list: string[] = [];
    byPromptLists.push([key, list]);
    listOf.set(key, list);
    for (const entry of tools) {
      if (entry.endsWith("*")) {
        appendPrompt(patternPrompts, entry.slice(0, -1), key);
        continue;
      }
      const state = names.get(entry);
      if (state === SERVED || state === SERVED_DECLARED) {
        if (state === SERVED) names.set(entry, SERVED_DECLARED);
        list.push(entry);
      } else {
        appendPrompt(names, entry, key);
      }
    }
  }
  // Wildcards are matched by looking up each served name's prefix of every pattern length:
  // a handful of lengths, so the pass stays linear in the number of served names.
  const patternLengths = [...new Set([...patternPrompts.keys()].map((p) => p.length))];

  const offered: string[] = [];
  const servedNotDeclared: string[] = [];
  const exemptServed: string[] = [];
  const declaredNotServed: string[] = [];
  const exempt: string[] = [];
  for (const [name, state] of names) {
    const isServed = state === SERVED || state === SERVED_DECLARED;
    if (isExempt(name)) {
      exempt.push(name);
      if (isServed) {
        exemptServed.push(name);
        offered.push(name);
      }
      continue;
    }
    if (!isServed) {
      declaredNotServed.push(name);
      continue;
    }
    let declared = state === SERVED_DECLARED;
    for (const length of patternLengths) {
      if (length > name.length) continue;
      const keys = patternPrompts.get(name.slice(0, length));
      if (keys === undefined) continue;
      declared = true;
      for (const key of typeof keys === "string" ? [keys] : keys) listOf.get(key)?.push(name);
    }
    (declared ? offered : servedNotDeclared).push(name);
  }
  offered.sort();
  servedNotDeclared.sort();
  declaredNotServed.sort();
  exempt.sort();

  const byPrompt: Record<string, string[]> = {};
  for (const [key, list] of byPromptLists) {
    for (const name of exemptServed) list.push(name);
    Object.defineProperty(byPrompt, key, { value: sortedUnique(list), enumerable: true, writable: true, configurable: true });
  }

  const registryName = options.registryName ?? registryNameOf(served);
  const mismatches: Mismatch[] = [];
  if (servedNotDeclared.length > 0) {
    mismatches.push(
      Object.freeze({
        kind: "served-not-declared",
        tools: Object.freeze([...servedNotDeclared]),
        message: `ToolRegistry tools are not declared by any pack prompt and will not be offered to the model: ${servedNotDeclared.join(", ")}; fix: ${FIX_SERVED_NOT_DECLARED}`,
        fix: FIX_SERVED_NOT_DECLARED,
      }),
    );
  }
  if (declaredNotServed.length > 0) {
    const promptsOf: Record<string, readonly string[]> = {};
    for (const name of declaredNotServed) {
      Object.defineProperty(promptsOf, name, { value: Object.freeze(promptsOfEntry(names.get(name)).sort()), enumerable: true });
    }
    const listed = declaredNotServed.map((n) => `${n} (${(promptsOf[n] ?? []).join(", ")})`).join(", ");
    mismatches.push(
      Object.freeze({
        kind: "declared-not-served",
        tools: Object.freeze([...declaredNotServed]),
        message: `pack prompts declare tools the ToolRegistry does not serve, so they will not be offered to the model: ${listed}; fix: ${FIX_DECLARED_NOT_SERVED}`,
        fix: FIX_DECLARED_NOT_SERVED,
        prompts: Object.freeze(promptsOf),
      }),
    );
  }
  for (const mismatch of mismatches) {
    const fields: Record<string, unknown> = { kind: mismatch.kind, tools: mismatch.tools, fix: mismatch.fix };
    if (registryName !== undefined) fields.registry = registryName;
    if (mismatch.prompts !== undefined) fields.prompts = mismatch.prompts;
    logger.warn(mismatch.message, fields);
  }

  return { offered, byPrompt, declaredNotServed, servedNotDeclared, exempt, mismatches };
}

/** Sorts in place and drops repeats. */
function sortedUnique(list: string[]): string[] {
  list.sort();
  let out = 0;
  for (let i = 0; i < list.length; i++) {
    if (i === 0 || list[i] !== list[out - 1]) list[out++] = list[i] as string;
  }
  list.length = out;
  return list;
}

/** A served name that no prompt declares (yet). */
const SERVED = 0;
/** A served name that some prompt declares exactly. */
const SERVED_DECLARED = 1;
/** A name's state: served (declared or not), or not served and declared by these prompt keys. */
type NameState = typeof SERVED | typeof SERVED_DECLARED | string | string[];

/**
 * Records that prompt `prompt` declares `name`. One prompt is kept as a bare string (most
 * names are declared once), more as an array; a prompt's entries arrive together, so a
 * repeat within one prompt is the last value.
 */
function appendPrompt<V>(map: Map<string, V | string | string[]>, name: string, prompt: string): void {
  const known = map.get(name);
  if (known === undefined) map.set(name, prompt);
  else if (typeof known === "string") {
    if (known !== prompt) map.set(name, [known, prompt]);
  } else if (Array.isArray(known) && known[known.length - 1] !== prompt) known.push(prompt);
}

function promptsOfEntry(known: NameState | undefined): string[] {
  return typeof known === "string" ? [known] : Array.isArray(known) ? [...known] : [];
}

function isRegistryLike(value: unknown): value is { tools: readonly unknown[]; name?: unknown } {
  return typeof value === "object" && value !== null && !(Symbol.iterator in value) && Array.isArray((value as { tools?: unknown }).tools);
}

function registryNameOf(served: ServedTools): string | undefined {
  return isRegistryLike(served) && typeof served.name === "string" ? served.name : undefined;
}

/** The served names, each once, in their given order, each in state SERVED. */
function readServed(served: ServedTools): Map<string, NameState> {
  const names = new Map<string, NameState>();
  if (isRegistryLike(served)) {
    served.tools.forEach((tool, i) => {
      const name = (tool as { name?: unknown } | null)?.name;
      if (typeof name !== "string") throw new InvalidOptionError(`reconcileTools: served.tools[${i}].name must be a tool name string; got ${typeof name}`);
      names.set(name, SERVED);
    });
    return names;
  }
  if (typeof served === "string" || served === null || typeof served !== "object" || !(Symbol.iterator in served)) {
    const got = served === null ? "null" : typeof served;
    throw new InvalidOptionError(`reconcileTools: served must be an iterable of tool names or a ToolRegistry; got ${got}`);
  }
  let i = 0;
  for (const name of served) {
    if (typeof name !== "string") throw new InvalidOptionError(`reconcileTools: served[${i}] must be a tool name string; got ${typeof name}`);
    names.set(name, SERVED);
    i++;
  }
  return names;
}

/** Each prompt key with its tools list; a missing `prompts` or `tools` is empty. */
function readPrompts(pack: ReconcilablePack): [string, readonly string[]][] {
  if (typeof pack !== "object" || pack === null) {
    throw new ConfigError({ path: "", message: `expected a PromptPack object; got ${pack === null ? "null" : typeof pack}` });
  }
  const prompts = pack.prompts;
  if (prompts === undefined || prompts === null) return [];
  if (typeof prompts !== "object" || Array.isArray(prompts)) {
    throw new ConfigError({ path: "prompts", message: `expected an object of prompts; got ${Array.isArray(prompts) ? "an array" : typeof prompts}` });
  }
  const issues: ConfigIssue[] = [];
  const out: [string, readonly string[]][] = [];
  for (const key of Object.keys(prompts)) {
    const prompt = prompts[key];
    const path = (): string => `prompts${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`;
    if (prompt === undefined || prompt === null) {
      out.push([key, []]);
      continue;
    }
    if (typeof prompt !== "object" || Array.isArray(prompt)) {
      issues.push({ path: path(), message: `expected a prompt object; got ${Array.isArray(prompt) ? "an array" : typeof prompt}` });
      continue;
    }
    const tools = prompt.tools;
    if (tools === undefined || tools === null) {
      out.push([key, []]);
      continue;
    }
    if (!Array.isArray(tools)) {
      issues.push({ path: `${path()}.tools`, message: `expected a list of tool names; got ${typeof tools}` });
      continue;
    }
    const bad = tools.findIndex((t) => typeof t !== "string");
    if (bad >= 0) {
      issues.push({ path: `${path()}.tools[${bad}]`, message: `expected a tool name string; got ${typeof tools[bad]}` });
      continue;
    }
    out.push([key, tools]);
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return out;
}
