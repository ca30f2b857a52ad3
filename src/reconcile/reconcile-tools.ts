// The pack decides what the model is offered; the registry only binds names to
// executors (Omnia's "Tool execution model" docs page). Nothing here widens a prompt: the
// 1.3.0 "surfacing" that unioned every registry tool into every prompt is not ported.
import { ConfigError, InvalidOptionError, noopLogger, type ConfigIssue, type Logger } from "../core/index.js";
import { EXEMPT_TOOL_NAMESPACES, isExemptToolName } from "./exempt.js";

/**
 * The part of a PromptPack that reconciliation reads: each prompt's `tools`
 * allow-list, the `agents` members and the composition steps. A `loadPromptPack` result fits, and so does a bare
 * `{ prompts: { a: { tools: ["x"] } } }`.
 * @public
 */
export interface ReconcilablePack {
  readonly prompts?: Readonly<Record<string, { readonly tools?: readonly string[] | null | undefined } | null | undefined>> | null | undefined;
  /**
   * The pack's A2A agents: a prompt's `tools` entry that is a `members` key is
   * an agent, which PromptKit offers as `a2a__<member>`, not a registry tool.
   */
  readonly agents?: { readonly members?: Readonly<Record<string, unknown>> | null | undefined } | null | undefined;
  /**
   * The pack's compositions: a step of `kind: "tool"` calls its `tool` from the
   * registry directly; `parallel` steps hold more steps in `branches`.
   */
  readonly compositions?: Readonly<Record<string, { readonly steps?: readonly ReconcilableStep[] | null | undefined } | null | undefined>> | null | undefined;
}

/**
 * The part of a composition step that reconciliation reads.
 * @public
 */
export interface ReconcilableStep {
  readonly id?: string | undefined;
  readonly kind?: string | undefined;
  readonly tool?: string | undefined;
  readonly branches?: readonly ReconcilableStep[] | null | undefined;
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
export type MismatchKind = "declared-not-served" | "served-not-declared" | "composition-tool-not-served";

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
  /** For `composition-tool-not-served`: tool -> the steps that call it, as `<composition>.<step id>`. */
  readonly steps?: Readonly<Record<string, readonly string[]>>;
}

/**
 * A tool user of the pack other than a prompt's registry tools, which is not a
 * mismatch: `agent-member` (a prompt's `tools` entry naming an `agents` member,
 * offered by PromptKit as `a2a__<member>` over A2A) or `composition-tool` (a
 * served tool that a composition `tool` step calls directly).
 * @public
 */
export type ToolUseKind = "agent-member" | "composition-tool";

/**
 * One kind of {@link ToolUseKind}, naming every tool and who uses it.
 * @public
 */
export interface ToolUse {
  readonly kind: ToolUseKind;
  /** Sorted, each name once. */
  readonly tools: readonly string[];
  /** Names the tools and their users; also the text of the info log record. */
  readonly message: string;
  /** For `agent-member`: member -> the prompt keys whose tools list names it. */
  readonly prompts?: Readonly<Record<string, readonly string[]>>;
  /** For `composition-tool`: tool -> the steps that call it, as `<composition>.<step id>`. */
  readonly steps?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The result of `reconcileTools`. Every list is sorted, each name once.
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
  /** At most one per kind: `served-not-declared`, `declared-not-served`, `composition-tool-not-served`, in that order. */
  mismatches: Mismatch[];
  /** `agents` members named by a prompt's tools list and not served (PromptKit offers each as `a2a__<member>`). */
  agentMembers: string[];
  /** Served tools that a composition `tool` step calls (whether or not a prompt declares them too). */
  compositionTools: string[];
  /** At most one per kind: `agent-member`, then `composition-tool`. */
  uses: ToolUse[];
}

/** The fixes, in the words of Omnia's "Tool execution model" docs page. */
const FIX_SERVED_NOT_DECLARED = "add the name to the prompt's tools list and republish the pack";
const FIX_DECLARED_NOT_SERVED = "expose the tool from the attached ToolRegistry";

/**
 * Decides which tools the model is offered, per prompt, and reports every
 * mismatch between the pack and the registry. Offered = the union of the
 * prompts' `tools`, intersected with what is served; a prompt is never widened.
 *
 * - A prompt is offered `prompt.tools ∩ served` (exact, case-sensitive match),
 *   plus every served tool matching one of its wildcard entries (an entry ending
 *   in `*` is a prefix), plus every served tool in an exempt namespace
 *   (`memory__`, `skill__`, `a2a__`, `workflow__`, `mcp__`), in name order.
 * - A served tool that no prompt declares is never offered, and a declared tool
 *   that is not served is never offered. Neither is an error: each direction
 *   gives one {@link Mismatch} and one `warn` through `options.logger`, naming
 *   the tools and the fix. Exempt tools and wildcard entries are never reported.
 * - A declared name that is a key of `pack.agents.members` (and is not served)
 *   is an A2A agent, which PromptKit offers as `a2a__<member>`: it is in
 *   `agentMembers`, not `declaredNotServed`.
 * - A composition step of `kind: "tool"` (parallel `branches` included) calls
 *   its `tool` from the registry without any prompt's tools list: a served tool
 *   it names is in `compositionTools`, never `servedNotDeclared`; one not served
 *   is the mismatch `composition-tool-not-served`, naming the steps. An `agent`
 *   step's `tools` only narrow its prompt's tools and declare nothing.
 * - Those other tool users are one {@link ToolUse} per kind in `uses`, each
 *   logged once at `info`; they are not mismatches.
 * - The pack is never modified and a prompt is never widened.
 *
 * Sorts the served names and the prompts' entries once each and matches them by
 * merging, so the time is that of two sorts plus a pass linear in the entries and
 * served names. Every list is in UTF-16 code-unit order (`Array.prototype.sort`).
 *
 * @param pack - a PromptPack (`loadPromptPack`) or `{ prompts: { <key>: { tools } } }`
 * @param served - the served tool names, or a ToolRegistry
 * @throws ConfigError (`ERR_OMNIA_CONFIG`) when `pack` is malformed (a `tools` that is not a list of names, an `agents` or `compositions` section of the wrong shape)
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
  // Sort and merge rather than one hash table of every name: on Node 20 a Map of more than
  // 4,096 entries puts its table (over 128 KiB) in V8's large-object space, on fresh pages
  // every call, and those page faults made the cost grow 2.3x per doubling of the names.
  // The sorted served names also give offered and servedNotDeclared already in order.
  const servedNames = sortedUnique(readServed(served));
  const prompts = readPrompts(pack);

  // Every exact (non-wildcard) entry of every prompt, sorted, each once, merged with the
  // served names: `declared[i]` marks servedNames[i] as declared, and what is left is
  // declared but not served, which is usually few names and the only hash table here.
  const entries: string[] = [];
  for (const [, tools] of prompts) {
    for (const entry of tools) if (!isPattern(entry)) entries.push(entry);
  }
  sortedUnique(entries);
  const declared = new Uint8Array(servedNames.length);
  const notServed: string[] = [];
  for (let i = 0, j = 0; j < entries.length; j++) {
    const entry = entries[j] as string;
    while (i < servedNames.length && (servedNames[i] as string) < entry) i++;
    if (i < servedNames.length && servedNames[i] === entry) declared[i++] = 1;
    else notServed.push(entry);
  }
  // Name -> the prompt key(s) declaring it, for the names declared but not served.
  const promptsOf = new Map<string, PromptKeys>();
  for (const name of notServed) promptsOf.set(name, undefined);

  // Each prompt collects its offered names in an array, sorted and de-duplicated at the end;
  // a declared name is served unless the merge left it in promptsOf.
  const byPromptLists: [string, string[]][] = [];
  // Wildcard prefix -> the offered lists of the prompts declaring it.
  const patternLists = new Map<string, string[][]>();
  for (const [key, tools] of prompts) {
    const list: string[] = [];
    byPromptLists.push([key, list]);
    for (const entry of tools) {
      if (isPattern(entry)) {
        const prefix = entry.slice(0, -1);
        const lists = patternLists.get(prefix);
        if (lists === undefined) patternLists.set(prefix, [list]);
        else if (lists[lists.length - 1] !== list) lists.push(list);
      } else if (promptsOf.size > 0 && promptsOf.has(entry)) {
        addPromptKey(promptsOf, entry, key);
      } else {
        list.push(entry);
      }
    }
  }
  // The served names a prefix matches are one run of the sorted list (code-unit order keeps
  // every name with a given prefix together), found by binary search.
  for (const [prefix, lists] of patternLists) {
    for (let i = lowerBound(servedNames, prefix); i < servedNames.length && (servedNames[i] as string).startsWith(prefix); i++) {
      declared[i] = 1;
      const name = servedNames[i] as string;
      for (const list of lists) list.push(name);
    }
  }

  const offered: string[] = [];
  const servedNotDeclared: string[] = [];
  const exemptServed: string[] = [];
  for (let i = 0; i < servedNames.length; i++) {
    const name = servedNames[i] as string;
    if (isExempt(name)) {
      exemptServed.push(name);
      offered.push(name);
    } else if (declared[i] === 1) offered.push(name);
    else servedNotDeclared.push(name);
  }
  // A declared name that is an `agents` member is an A2A agent (PromptKit's agent tool
  // resolver offers it as a2a__<member>), not a registry tool the registry fails to serve.
  const members = readAgentMembers(pack);
  const declaredNotServed: string[] = [];
  const agentMembers: string[] = [];
  const exemptNotServed: string[] = [];
  for (const name of notServed) {
    if (isExempt(name)) exemptNotServed.push(name);
    else if (members.has(name)) agentMembers.push(name);
    else declaredNotServed.push(name);
  }
  const exempt = mergeSorted(exemptServed, exemptNotServed);

  // A composition `tool` step calls the registry directly (no prompt's tools list is
  // consulted), so a served tool it names is in use, and one not served fails that step.
  const toolSteps = readCompositionToolSteps(pack);
  const compositionTools: string[] = [];
  const compositionNotServed: string[] = [];
  if (toolSteps.size > 0) {
    for (const name of [...toolSteps.keys()].sort()) {
      if (isExempt(name)) continue;
      const at = lowerBound(servedNames, name);
      (servedNames[at] === name ? compositionTools : compositionNotServed).push(name);
    }
    if (compositionTools.length > 0) {
      let kept = 0;
      for (const name of servedNotDeclared) if (!toolSteps.has(name)) servedNotDeclared[kept++] = name;
      servedNotDeclared.length = kept;
    }
  }

  // Each prompt's own names sorted, then merged with the (sorted) exempt names every prompt
  // is offered. Object.fromEntries defines `__proto__` as an ordinary own key.
  const byPromptEntries: [string, string[]][] = [];
  for (const [key, list] of byPromptLists) byPromptEntries.push([key, mergeUnique(sortedUnique(list), exemptServed)]);
  const byPrompt = Object.fromEntries(byPromptEntries) as Record<string, string[]>;

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
    const promptEntries: [string, readonly string[]][] = [];
    const listed: string[] = [];
    for (const name of declaredNotServed) {
      const keys = Object.freeze(promptKeysOf(promptsOf.get(name)).sort());
      promptEntries.push([name, keys]);
      listed.push(`${name} (${keys.join(", ")})`);
    }
    const promptsByTool = Object.fromEntries(promptEntries) as Record<string, readonly string[]>;
    mismatches.push(
      Object.freeze({
        kind: "declared-not-served",
        tools: Object.freeze([...declaredNotServed]),
        message: `pack prompts declare tools the ToolRegistry does not serve, so they will not be offered to the model: ${listed.join(", ")}; fix: ${FIX_DECLARED_NOT_SERVED}`,
        fix: FIX_DECLARED_NOT_SERVED,
        prompts: Object.freeze(promptsByTool),
      }),
    );
  }
  if (compositionNotServed.length > 0) {
    const steps = stepsOf(compositionNotServed, toolSteps);
    mismatches.push(
      Object.freeze({
        kind: "composition-tool-not-served",
        tools: Object.freeze([...compositionNotServed]),
        message: `pack composition steps call tools the ToolRegistry does not serve, so those steps will fail: ${listWith(compositionNotServed, steps)}; fix: ${FIX_DECLARED_NOT_SERVED}`,
        fix: FIX_DECLARED_NOT_SERVED,
        steps,
      }),
    );
  }
  for (const mismatch of mismatches) {
    const fields: Record<string, unknown> = { kind: mismatch.kind, tools: mismatch.tools, fix: mismatch.fix };
    if (registryName !== undefined) fields.registry = registryName;
    if (mismatch.prompts !== undefined) fields.prompts = mismatch.prompts;
    if (mismatch.steps !== undefined) fields.steps = mismatch.steps;
    logger.warn(mismatch.message, fields);
  }

  const uses: ToolUse[] = [];
  if (agentMembers.length > 0) {
    const promptEntries: [string, readonly string[]][] = [];
    for (const name of agentMembers) promptEntries.push([name, Object.freeze(promptKeysOf(promptsOf.get(name)).sort())]);
    const promptsByMember = Object.freeze(Object.fromEntries(promptEntries) as Record<string, readonly string[]>);
    uses.push(
      Object.freeze({
        kind: "agent-member",
        tools: Object.freeze([...agentMembers]),
        message: `pack prompts name agents members, which PromptKit offers as a2a__<member> tools over A2A, not from the ToolRegistry: ${listWith(agentMembers, promptsByMember)}`,
        prompts: promptsByMember,
      }),
    );
  }
  if (compositionTools.length > 0) {
    const steps = stepsOf(compositionTools, toolSteps);
    uses.push(
      Object.freeze({
        kind: "composition-tool",
        tools: Object.freeze([...compositionTools]),
        message: `ToolRegistry tools are called by pack composition steps, which run them without a prompt's tools list: ${listWith(compositionTools, steps)}`,
        steps,
      }),
    );
  }
  for (const use of uses) {
    const fields: Record<string, unknown> = { kind: use.kind, tools: use.tools };
    if (registryName !== undefined) fields.registry = registryName;
    if (use.prompts !== undefined) fields.prompts = use.prompts;
    if (use.steps !== undefined) fields.steps = use.steps;
    logger.info(use.message, fields);
  }

  return { offered, byPrompt, declaredNotServed, servedNotDeclared, exempt, mismatches, agentMembers, compositionTools, uses };
}

/** `name (a, b), other (c)`: each name with the sorted keys it maps to. */
function listWith(names: readonly string[], by: Readonly<Record<string, readonly string[]>>): string {
  return names.map((name) => `${name} (${(by[name] ?? []).join(", ")})`).join(", ");
}

/** Tool -> its calling steps (sorted), for the given tools. */
function stepsOf(names: readonly string[], toolSteps: ReadonlyMap<string, string[]>): Readonly<Record<string, readonly string[]>> {
  const entries: [string, readonly string[]][] = [];
  for (const name of names) entries.push([name, Object.freeze([...new Set(toolSteps.get(name))].sort())]);
  return Object.freeze(Object.fromEntries(entries) as Record<string, readonly string[]>);
}

/** An entry ending in `*` is a prefix pattern, not a name. */
function isPattern(entry: string): boolean {
  return entry.charCodeAt(entry.length - 1) === 42; // "*"
}

/**
 * Sorts in place and drops repeats. The default sort, i.e. UTF-16 code-unit order, which is
 * also the order of the `<` used by the merges and the binary search.
 */
function sortedUnique(list: string[]): string[] {
  list.sort();
  let out = 0;
  for (let i = 0; i < list.length; i++) {
    if (i === 0 || list[i] !== list[out - 1]) list[out++] = list[i] as string;
  }
  list.length = out;
  return list;
}

/** The first index of sorted `list` whose name is not below `name` (`list.length` if none). */
function lowerBound(list: readonly string[], name: string): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((list[mid] as string) < name) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Two sorted lists, each name once in each, merged into one sorted list with each name once:
 * `a` itself when `b` is empty (the caller passes a list of its own), else a new list.
 */
function mergeUnique(a: string[], b: readonly string[]): string[] {
  if (b.length === 0) return a;
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as string;
    const y = b[j] as string;
    if (x === y) {
      out.push(x);
      i++;
      j++;
    } else if (x < y) {
      out.push(x);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  while (i < a.length) out.push(a[i++] as string);
  while (j < b.length) out.push(b[j++] as string);
  return out;
}

/** Two sorted lists with no name in common, merged into one sorted list. */
function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  if (b.length === 0) return a.slice();
  if (a.length === 0) return b.slice();
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push((a[i] as string) < (b[j] as string) ? (a[i++] as string) : (b[j++] as string));
  while (i < a.length) out.push(a[i++] as string);
  while (j < b.length) out.push(b[j++] as string);
  return out;
}

/** The prompt keys declaring a name that is not served: none yet, one, or several in order. */
type PromptKeys = undefined | string | string[];

/**
 * Records that prompt `key` declares `name`. One prompt is kept as a bare string (most
 * names are declared once), more as an array; a prompt's entries arrive together, so a
 * repeat within one prompt is the last value.
 */
function addPromptKey(map: Map<string, PromptKeys>, name: string, key: string): void {
  const known = map.get(name);
  if (known === undefined) map.set(name, key);
  else if (typeof known === "string") {
    if (known !== key) map.set(name, [known, key]);
  } else if (known[known.length - 1] !== key) known.push(key);
}

function promptKeysOf(known: PromptKeys): string[] {
  return typeof known === "string" ? [known] : Array.isArray(known) ? [...known] : [];
}

function isRegistryLike(value: unknown): value is { tools: readonly unknown[]; name?: unknown } {
  return typeof value === "object" && value !== null && !(Symbol.iterator in value) && Array.isArray((value as { tools?: unknown }).tools);
}

function registryNameOf(served: ServedTools): string | undefined {
  return isRegistryLike(served) && typeof served.name === "string" ? served.name : undefined;
}

/** The served names, in their given order (repeats included), in a new array. */
function readServed(served: ServedTools): string[] {
  const names: string[] = [];
  if (isRegistryLike(served)) {
    served.tools.forEach((tool, i) => {
      const name = (tool as { name?: unknown } | null)?.name;
      if (typeof name !== "string") throw new InvalidOptionError(`reconcileTools: served.tools[${i}].name must be a tool name string; got ${typeof name}`);
      names.push(name);
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
    names.push(name);
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

/** A readable path segment: `.key` for an identifier, else `["key"]`. */
function segment(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

/** The `agents.members` keys; none when the pack has no `agents`. */
function readAgentMembers(pack: ReconcilablePack): Set<string> {
  const agents = pack.agents;
  if (agents === undefined || agents === null) return new Set();
  if (typeof agents !== "object" || Array.isArray(agents)) {
    throw new ConfigError({ path: "agents", message: `expected an agents object; got ${kindOf(agents)}` });
  }
  const members = agents.members;
  if (members === undefined || members === null) return new Set();
  if (typeof members !== "object" || Array.isArray(members)) {
    throw new ConfigError({ path: "agents.members", message: `expected an object of members; got ${kindOf(members)}` });
  }
  return new Set(Object.keys(members));
}

/**
 * Tool name -> the `<composition>.<step id>` of every `kind: "tool"` step naming it,
 * `parallel` branches included (the steps PromptKit's composition engine runs).
 */
function readCompositionToolSteps(pack: ReconcilablePack): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const compositions = pack.compositions;
  if (compositions === undefined || compositions === null) return out;
  if (typeof compositions !== "object" || Array.isArray(compositions)) {
    throw new ConfigError({ path: "compositions", message: `expected an object of compositions; got ${kindOf(compositions)}` });
  }
  const issues: ConfigIssue[] = [];
  const walk = (steps: unknown, path: string, name: string): void => {
    if (steps === undefined || steps === null) return;
    if (!Array.isArray(steps)) {
      issues.push({ path, message: `expected a list of steps; got ${kindOf(steps)}` });
      return;
    }
    steps.forEach((step: unknown, i) => {
      const at = `${path}[${i}]`;
      if (typeof step !== "object" || step === null || Array.isArray(step)) {
        issues.push({ path: at, message: `expected a step object; got ${kindOf(step)}` });
        return;
      }
      const { id, kind, tool, branches } = step as Record<string, unknown>;
      if (kind === "tool" && tool !== undefined) {
        if (typeof tool !== "string") {
          issues.push({ path: `${at}.tool`, message: `expected a tool name string; got ${kindOf(tool)}` });
        } else {
          const label = `${name}.${typeof id === "string" && id !== "" ? id : String(i)}`;
          const known = out.get(tool);
          if (known === undefined) out.set(tool, [label]);
          else known.push(label);
        }
      }
      if (kind === "parallel") walk(branches, `${at}.branches`, name);
    });
  };
  for (const key of Object.keys(compositions)) {
    const composition = compositions[key];
    const path = `compositions${segment(key)}`;
    if (composition === undefined || composition === null) continue;
    if (typeof composition !== "object" || Array.isArray(composition)) {
      issues.push({ path, message: `expected a composition object; got ${kindOf(composition)}` });
      continue;
    }
    walk(composition.steps, `${path}.steps`, key);
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return out;
}
