/**
 * A JSON value as `JSON.parse` returns it.
 * @public
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * A JSON object.
 * @public
 */
export type JsonObject = { [key: string]: JsonValue };

/**
 * A copy of `value` that shares no array or plain object with it, so that
 * changing the copy changes nothing else. A plain object is one whose
 * prototype is `null` or a realm's `Object.prototype` (a `vm` context's too).
 * Anything else (a function, a class instance such as a `Date`) is kept as it
 * is: this never throws where reading `value` does not. An object met twice
 * is copied once, so a graph of shared objects (or a cycle) costs its size,
 * not its paths. An own `__proto__` key stays an own property.
 * @internal Does not follow semver.
 */
export function copyJsonValue<T>(value: T): T {
  return copyInto(value, new Map()) as T;
}

function copyInto(value: unknown, copies: Map<object, unknown>): unknown {
  if (value === null || typeof value !== "object") return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    copies.set(value, out);
    for (let i = 0; i < value.length; i++) if (i in value) out[i] = copyInto(value[i], copies);
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== null && Object.getPrototypeOf(proto) !== null) return value;
  const out: Record<string, unknown> = {};
  copies.set(value, out);
  for (const key of Object.keys(value)) {
    const copied = copyInto((value as Record<string, unknown>)[key], copies);
    if (key === "__proto__") Object.defineProperty(out, key, { value: copied, enumerable: true, writable: true, configurable: true });
    else out[key] = copied;
  }
  return out;
}
