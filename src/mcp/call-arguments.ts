import type { JsonValue } from "../core/index.js";
import { McpArgumentsError } from "./errors.js";
import { describe } from "./error-text.js";

/**
 * Go's rule (`parseMCPArgs`): the arguments must decode into a JSON object; empty means `{}`, and blank or
 * cut-off text fails with Go's `unexpected end of JSON input`.
 */
export function mcpArguments(args: string | JsonValue | undefined): Record<string, JsonValue> {
  let value: unknown = args;
  if (typeof args === "string") {
    if (args === "") return {};
    try {
      value = JSON.parse(args);
    } catch (error) {
      // Text that ends before its value does (blank text too) is Go's `unexpected end of JSON input`; V8 says it capitalised.
      const why = error instanceof SyntaxError && /^unexpected end of JSON input$/i.test(error.message) ? "unexpected end of JSON input" : describe(error);
      throw new McpArgumentsError(`failed to parse MCP args: ${why}`, { cause: error });
    }
  }
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new McpArgumentsError(`failed to parse MCP args: json: cannot unmarshal ${goKind(value)} into Go value of type map[string]interface {}`);
  }
  return value as Record<string, JsonValue>;
}

function goKind(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (typeof value === "boolean") return "bool";
  return typeof value;
}
