// Free-form JSON fields (inputSchema, staticBody, sandbox, …): checked to be JSON,
// then copied and deep-frozen so that a registry never shares mutable state with
// the caller's objects.
import type { JsonObject, JsonValue } from "../core/index.js";
import { describeValue, type PathSegment } from "./issues.js";

/** Where a value stops being JSON, and why. */
export interface NonJson {
  readonly path: PathSegment[];
  readonly message: string;
}

/** Returns the first place where `value` is not a JSON value, or undefined. */
export function findNonJson(value: unknown): NonJson | undefined {
  return walk(value, [], new Set());
}

function walk(value: unknown, path: PathSegment[], ancestors: Set<object>): NonJson | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") {
    return Number.isFinite(value) ? undefined : { path, message: `expected a JSON value; got ${describeValue(value)}` };
  }
  if (typeof value !== "object") return { path, message: `expected a JSON value; got ${describeValue(value)}` };
  if (ancestors.has(value)) return { path, message: "expected a JSON value; got a value that contains itself (a recursive YAML alias)" };
  if (Array.isArray(value)) {
    ancestors.add(value);
    for (let i = 0; i < value.length; i++) {
      const bad = walk(value[i], [...path, i], ancestors);
      if (bad !== undefined) return bad;
    }
    ancestors.delete(value);
    return undefined;
  }
  if (!isPlainObject(value)) return { path, message: `expected a JSON value; got ${describeValue(value)}` };
  ancestors.add(value);
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    if (child === undefined) continue; // JSON.stringify drops it too
    const bad = walk(child, [...path, key], ancestors);
    if (bad !== undefined) return bad;
  }
  ancestors.delete(value);
  return undefined;
}

/** A plain `{}` object (prototype Object.prototype or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A deep, frozen copy of a value already checked by {@link findNonJson}. */
export function freezeJson(value: unknown): JsonValue {
  if (value === null || typeof value !== "object") return value as JsonValue;
  if (Array.isArray(value)) return Object.freeze(value.map(freezeJson)) as JsonValue;
  return freezeJsonObject(value as Record<string, unknown>);
}

/** {@link freezeJson} for an object; keys whose value is `undefined` are dropped. */
export function freezeJsonObject(value: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(value)) {
    const child = value[key];
    if (child === undefined) continue;
    defineEntry(out, key, freezeJson(child));
  }
  return Object.freeze(out);
}

/** Sets an own data property, even for the key `__proto__`. */
export function defineEntry<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A frozen copy of a string map (`headers`, `staticQuery`, …), `{}` when absent. */
export function freezeStringMap(value: Readonly<Record<string, string>> | null | undefined): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  if (value != null) for (const key of Object.keys(value)) defineEntry(out, key, value[key] as string);
  return Object.freeze(out);
}

/** A frozen copy of a list, `[]` when absent. */
export function freezeList<T>(value: readonly T[] | null | undefined): readonly T[] {
  return Object.freeze(value == null ? [] : [...value]);
}
