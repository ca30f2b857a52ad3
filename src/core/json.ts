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
