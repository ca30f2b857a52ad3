// Reads OpenTelemetry's semantic-conventions model files (v1.41.1, copied in
// test/fixtures/semconv-1.41.1/) and checks a finished span against a span
// group: its kind, that every attribute it carries is one the group (with the
// groups it extends) lists, that each required one is there, and that enum
// values and types are the registry's.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";

const ROOT = join(import.meta.dirname, "..", "fixtures", "semconv-1.41.1");

interface Ref {
  readonly ref: string;
  readonly requirement_level?: unknown;
}
interface Group {
  readonly id: string;
  readonly type: string;
  readonly span_kind?: string;
  readonly extends?: string;
  readonly metric_name?: string;
  readonly unit?: string;
  readonly instrument?: string;
  readonly note?: string;
  readonly attributes?: readonly (Ref & { readonly id?: string; readonly type?: unknown })[];
}

function load(): { groups: Map<string, Group>; registry: Map<string, { type: unknown }> } {
  const groups = new Map<string, Group>();
  const registry = new Map<string, { type: unknown }>();
  for (const dir of readdirSync(ROOT, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const file of readdirSync(join(ROOT, dir.name))) {
      const doc = parse(readFileSync(join(ROOT, dir.name, file), "utf8")) as { groups: Group[] };
      for (const g of doc.groups) {
        groups.set(g.id, g);
        if (g.id.startsWith("registry.")) for (const a of g.attributes ?? []) if (a.id !== undefined) registry.set(a.id, { type: a.type });
      }
    }
  }
  return { groups, registry };
}

const model = load();

/** A group of the model files (throws for an id they do not have). */
export function group(id: string): Group {
  const g = model.groups.get(id);
  assert.ok(g !== undefined, `semantic-conventions v1.41.1 has no group ${id}`);
  return g;
}

/** A group's attributes with those of the groups it extends; the nearer group's requirement level wins. */
export function attributesOf(id: string): Map<string, unknown> {
  const g = group(id);
  const out = g.extends === undefined ? new Map<string, unknown>() : attributesOf(g.extends);
  for (const a of g.attributes ?? []) out.set(a.ref ?? a.id, a.requirement_level ?? "recommended");
  return out;
}

/** Every metric name the loaded model files define. */
export function metricNames(): string[] {
  return [...model.groups.values()].filter((g) => g.type === "metric").map((g) => g.metric_name ?? "");
}

/** The enum values of a registry attribute (`undefined` for a non-enum). */
export function enumValues(attribute: string): string[] | undefined {
  const type = model.registry.get(attribute)?.type as { members?: { value: string }[] } | undefined;
  return type?.members?.map((m) => m.value);
}

const KINDS = ["internal", "server", "client", "producer", "consumer"];

/**
 * The span name the group's note asks for, from its attributes: the note's
 * "**Span name** SHOULD be `…`" (or "SHOULD follow the format `…`") template,
 * each `{attribute}` replaced by the span's value, and MCP's `{target}` by
 * `gen_ai.tool.name` (dropped when there is none, as the note says).
 */
export function conventionalName(groupId: string, attributes: ReadableSpan["attributes"]): string {
  const note = group(groupId).note ?? "";
  const template = /\*\*Span name\*\* SHOULD (?:be|follow the format) `([^`]+)`/.exec(note)?.[1];
  assert.ok(template !== undefined, `${groupId} names its spans`);
  const tool = attributes["gen_ai.tool.name"];
  return template
    .replace(" {target}", tool === undefined ? "" : ` ${String(tool)}`)
    .replace(/\{([a-z_.]+)\}/g, (_, key: string) => String(attributes[key]));
}

/**
 * Asserts that `span` is one of `groupId`'s spans as the model files describe
 * it; its name too, unless `name` is false (a deliberate deviation the caller asserts).
 */
export function assertConforms(span: ReadableSpan, groupId: string, name = true): void {
  const g = group(groupId);
  assert.equal(g.type, "span");
  assert.equal(KINDS[span.kind], g.span_kind, `${span.name}: kind`);
  if (name) assert.equal(span.name, conventionalName(groupId, span.attributes));
  const allowed = attributesOf(groupId);
  for (const [key, value] of Object.entries(span.attributes)) {
    assert.ok(allowed.has(key), `${span.name}: ${key} is not an attribute of ${groupId}`);
    const registered = model.registry.get(key);
    assert.ok(registered !== undefined, `${key} is in no registry of v1.41.1`);
    const type = registered.type;
    if (type === "string") assert.equal(typeof value, "string", `${key} is a string`);
    if (type === "int") assert.ok(Number.isInteger(value), `${key} is an int`);
    const members = enumValues(key);
    // error.type lists only `_OTHER`: the conventions ask for the instrumentation's own low-cardinality codes there.
    if (members !== undefined && key !== "error.type") {
      // Enums are open in the conventions; every other value this package writes is a listed member.
      assert.ok(members.includes(String(value)), `${key}=${String(value)} is one of ${members.join(", ")}`);
    }
  }
  for (const [key, level] of allowed) {
    if (level === "required") assert.ok(key in span.attributes, `${span.name}: required ${key} is missing`);
  }
}
