// Reads a manifest input (YAML or JSON text, bytes, parsed objects, or an array of
// them) into documents, keeping enough of the YAML to point an issue at its line.
import { createRequire } from "node:module";
import type * as Yaml from "yaml";
import type { Document, LineCounter } from "yaml";
import { aliasExpansionProblem } from "../yaml-limits/index.js";
import { jsonLineLookup } from "./json-lines.js";
import type { PathSegment } from "./issues.js";
import type { ManifestIssue } from "./types.js";

/** yaml, loaded on the first YAML text read (a JSON or object manifest never loads it), so that importing the package does not. yaml is CommonJS in Node: `require` gives the instance `import` would. */
let yamlModule: typeof Yaml | undefined;
function yaml(): typeof Yaml {
  return (yamlModule ??= createRequire(import.meta.url)("yaml") as typeof Yaml);
}

/**
 * What `loadToolRegistry` and `loadPromptPack` accept: YAML or JSON text (a
 * string or UTF-8 bytes), an already parsed object, or an array of those (each
 * element one or more documents).
 * @public
 */
export type ManifestInput = string | Uint8Array | object | readonly (string | Uint8Array | object)[];

/** One document of the input. */
export interface SourceDocument {
  /** The parsed value (`null` for an empty YAML document). */
  readonly value: unknown;
  /** Prepended to every path reported inside this document (`documents[1]` when there are several). */
  prefix: PathSegment[];
  /** The 1-based line of the node at `path`, or of its nearest existing ancestor; undefined for object input. */
  lineOf(path: readonly PathSegment[]): number | undefined;
}

const noLine = (): undefined => undefined;
const decoder = new TextDecoder("utf-8");

/**
 * Splits the input into documents. YAML syntax errors are appended to `errors`
 * (with their line) and YAML warnings to `warnings`; documents are returned only
 * when there is no syntax error. With `format` `"json"` text is JSON only: what
 * `JSON.parse` refuses (a trailing comma, a comment) is an error, not YAML.
 */
export function readDocuments(input: ManifestInput, errors: ManifestIssue[], warnings: ManifestIssue[], format: "json" | "yaml" = "yaml"): SourceDocument[] {
  const parts: readonly unknown[] = Array.isArray(input) ? input : [input];
  const documents: SourceDocument[] = [];
  const read = format === "json" ? readJsonText : readText;
  for (const part of parts) {
    if (typeof part === "string") documents.push(...read(part, errors, warnings));
    else if (part instanceof Uint8Array) documents.push(...read(decoder.decode(part), errors, warnings));
    else documents.push({ value: part, prefix: [], lineOf: noLine });
  }
  if (documents.length > 1) documents.forEach((doc, i) => (doc.prefix = ["documents", i]));
  return errors.length > 0 ? [] : documents;
}

/** JSON text as `JSON.parse` reads it; its syntax error with the line and column of V8's position. */
function readJsonText(text: string, errors: ManifestIssue[]): SourceDocument[] {
  try {
    return [{ value: JSON.parse(text) as unknown, prefix: [], lineOf: jsonLineLookup(text) }];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // V8: `<what> in JSON at position N` (Node 22 adds ` (line L column C)`); an empty text has no position.
    const position = /\bat position (\d+)/.exec(message);
    // Without a position V8 quotes the text (`Unexpected token ']', ..."<text>" is not valid JSON`): not repeated here.
    const what = message.replace(/ in JSON at position \d+.*$/s, "").replace(/, (\.\.\.)?".*" is not valid JSON$/s, "");
    if (position === null) {
      errors.push({ path: "", message: `invalid JSON: ${what}` });
      return [];
    }
    const offset = Number(position[1]);
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - before.lastIndexOf("\n");
    errors.push({ path: "", message: `invalid JSON at line ${line}, column ${column}: ${what}`, line });
    return [];
  }
}

function readText(text: string, errors: ManifestIssue[], warnings: ManifestIssue[]): SourceDocument[] {
  // JSON is the common machine-written form: parse it natively (lines come from a scan
  // of the text), and fall back to the YAML parser (a superset of JSON) only to report
  // a syntax error with its line.
  const first = /\S/.exec(text)?.[0];
  if (first === "{" || first === "[") {
    try {
      return [{ value: JSON.parse(text) as unknown, prefix: [], lineOf: jsonLineLookup(text) }];
    } catch {
      // fall through to YAML
    }
  }
  const { LineCounter, parseAllDocuments } = yaml();
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter, merge: true, uniqueKeys: true, prettyErrors: true });
  const docs: Document.Parsed[] = Array.isArray(parsed) ? parsed : [];
  let failed = false;
  for (const doc of docs) {
    for (const error of doc.errors) {
      failed = true;
      const line = error.linePos?.[0].line ?? lineCounter.linePos(error.pos[0]).line;
      const column = error.linePos?.[0].col ?? lineCounter.linePos(error.pos[0]).col;
      errors.push({ path: "", message: `invalid YAML at line ${line}, column ${column}: ${firstLine(error.message)}`, line });
    }
    for (const warning of doc.warnings) {
      const line = warning.linePos?.[0].line ?? lineCounter.linePos(warning.pos[0]).line;
      warnings.push({ path: "", message: `YAML warning at line ${line}: ${firstLine(warning.message)}`, line });
    }
  }
  if (failed) return [];
  const out: SourceDocument[] = [];
  for (const doc of docs) {
    // Before toJS: the expansion is what costs memory, and yaml's alias limit does not bound it.
    const tooBig = aliasExpansionProblem(doc);
    if (tooBig !== undefined) {
      const line = lineCounter.linePos(tooBig.offset).line;
      errors.push({ path: "", message: `invalid YAML at line ${line}: ${tooBig.message}`, line });
      return [];
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 1000 });
    } catch (error) {
      errors.push({ path: "", message: `invalid YAML: ${error instanceof Error ? error.message : String(error)}` });
      return [];
    }
    out.push({ value, prefix: [], lineOf: (path) => lineOfNode(doc, lineCounter, path) });
  }
  return out;
}

/** The message without the ` at line L, column C:` suffix and the code frame that `prettyErrors` adds. */
function firstLine(message: string): string {
  const line = message.split("\n", 1)[0] ?? message;
  return line.replace(/ at line \d+, column \d+:?$/, "");
}

function lineOfNode(doc: Document.Parsed, lineCounter: LineCounter, path: readonly PathSegment[]): number | undefined {
  for (let length = path.length; length >= 0; length--) {
    let node: unknown;
    try {
      node = doc.getIn(path.slice(0, length), true);
    } catch {
      node = undefined;
    }
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    if (range !== undefined) return lineCounter.linePos(range[0]).line;
  }
  return undefined;
}
