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
 * changing the copy changes nothing else. Anything else (a function, a class
 * instance such as a `Date`) is kept as it is: this never throws where reading
 * `value` does not. An own `__proto__` key stays an own property. Recursive:
 * check `value` against `MAX_JSON_DEPTH` first.
 * @internal Does not follow semver.
 */
export function copyJsonValue<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(copyJsonValue) as T;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const copied = copyJsonValue((value as Record<string, unknown>)[key]);
    if (key === "__proto__") Object.defineProperty(out, key, { value: copied, enumerable: true, writable: true, configurable: true });
    else out[key] = copied;
  }
  return out as T;
}
