import { ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import { boundPeerText, ConfigError, InvalidOptionError, toError, type ConfigIssue, type JsonObject } from "../core/index.js";
import { ToolService } from "../gen/omnia/tools/v1/tools_pb.js";
import { registerHealth } from "./health.js";

/**
 * What a tool implementation gets besides its arguments.
 * @public
 */
export interface ToolServiceContext {
  /** The `tool_name` of the request. */
  readonly toolName: string;
  /**
   * The request's gRPC metadata as a record with lower-case keys (the
   * `x-omnia-*` identity keys, `authorization`, and the transport's own such
   * as `grpc-timeout`). Repeated keys are joined with `", "`.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** Aborts when the client cancels, the `grpc-timeout` deadline passes, or the server shuts down. */
  readonly signal: AbortSignal;
}

/**
 * One tool served by `createToolServiceHandler` and `serveToolService`.
 * @public
 */
export interface ToolImplementation<Args = any> {
  /** Served by `ListTools`. */
  readonly description: string;
  /**
   * The JSON Schema the arguments must satisfy, validated with ajv (draft-07
   * by default; draft 2019-09 or 2020-12 when `$schema` names it; `format` is
   * not checked). Served by `ListTools` as JSON text.
   */
  readonly inputSchema: JsonObject | boolean;
  /**
   * Runs the tool. The returned value becomes `result_json` (JSON-stringified;
   * `undefined` gives an empty `result_json`, which the runtime reads as
   * `null`). A thrown error becomes `is_error` with the error's message; a
   * thrown `ConnectError` is sent as that gRPC status instead.
   */
  execute(args: Args, ctx: ToolServiceContext): unknown;
}

/**
 * The tools a backend serves, by the name the model calls.
 * @public
 */
export type ToolImplementations = Readonly<Record<string, ToolImplementation>>;

/**
 * Options of {@link createToolServiceHandler}.
 * @public
 */
export interface ToolServiceHandlerOptions {
  /** Also register `grpc.health.v1.Health` (Check and Watch). Default `true`. */
  readonly health?: boolean | undefined;
}

interface CompiledTool {
  readonly impl: ToolImplementation;
  readonly validate: ValidateFunction;
  readonly schemaText: string;
}

/**
 * Builds the routes of an `omnia.tools.v1.ToolService` backend from a map of
 * tool implementations, for a connect router (`connectNodeAdapter({ routes })`,
 * fastify, express, ...). Every schema is compiled here, once.
 *
 * `Execute`:
 * - an unknown `tool_name`: `is_error`, `unknown tool "<name>"`;
 * - `arguments_json` that is not JSON (an empty one reads as `{}`):
 *   `is_error`, `invalid arguments for tool "<name>": arguments_json is not valid JSON: <parser message>`;
 * - arguments that fail the schema: `is_error`,
 *   `invalid arguments for tool "<name>": <error>; <error>...`, each error as
 *   `<instance path or (root)> <ajv message>` (every error, not only the first);
 * - a thrown error: `is_error` with its message; a thrown `ConnectError`: that status;
 * - otherwise `result_json` = `JSON.stringify(value)` (`""` for `undefined`).
 *
 * `ListTools` lists every tool in insertion order with `name`, `description`
 * and `input_schema` (the schema as JSON text).
 *
 * @throws InvalidOptionError when `tools` is not an object; ConfigError
 *   listing every tool whose description, schema or execute is invalid.
 * @public
 */
export function createToolServiceHandler(tools: ToolImplementations, options: ToolServiceHandlerOptions = {}): (router: ConnectRouter) => void {
  const compiled = compileTools(tools);
  const health = options.health ?? true;
  const list = [...compiled].map(([name, t]) => ({ name, description: t.impl.description, inputSchema: t.schemaText }));
  return (router) => {
    router.service(ToolService, {
      async execute(request, ctx) {
        const tool = compiled.get(request.toolName);
        if (tool === undefined) return toolError(`unknown tool ${JSON.stringify(request.toolName)}`);
        const where = `invalid arguments for tool ${JSON.stringify(request.toolName)}`;
        let args: unknown;
        try {
          args = JSON.parse(request.argumentsJson.trim() === "" ? "{}" : request.argumentsJson);
        } catch (e) {
          return toolError(`${where}: arguments_json is not valid JSON: ${(e as Error).message}`);
        }
        let valid: boolean;
        try {
          valid = tool.validate(args) as boolean;
        } catch (e) {
          // A schema whose $ref recurses without consuming input (or arguments nested past the stack) overflows ajv's validator.
          return toolError(`${where}: the input schema could not be evaluated: ${toError(e).message}`);
        }
        if (!valid) return toolError(`${where}: ${formatAjvErrors(tool.validate.errors ?? [])}`);
        let value: unknown;
        try {
          value = await tool.impl.execute(args, { toolName: request.toolName, headers: headerRecord(ctx), signal: ctx.signal });
        } catch (e) {
          if (e instanceof ConnectError) throw e;
          // The client is gone or the deadline passed: answer with that status, as grpc-go would.
          if (ctx.signal.aborted) throw ConnectError.from(ctx.signal.reason);
          return toolError(toError(e).message);
        }
        let text: string | undefined;
        try {
          text = JSON.stringify(value);
        } catch (e) {
          return toolError(`tool ${JSON.stringify(request.toolName)} returned a value that is not JSON: ${toError(e).message}`);
        }
        return { resultJson: text ?? "" };
      },
      listTools() {
        return { tools: list };
      },
    });
    if (health) registerHealth(router);
  };
}

/**
 * `error_message` is cut at 512 UTF-8 bytes (a character boundary), then `...`,
 * as the HTTP error-body rule: a tool's own error text, or ajv's list of every
 * error for a large argument, stays bounded on the wire.
 */
function toolError(message: string) {
  return { isError: true, errorMessage: boundPeerText(message) };
}

function headerRecord(ctx: HandlerContext): Record<string, string> {
  const out = new Map<string, string>();
  ctx.requestHeader.forEach((value, key) => out.set(key, value));
  return Object.fromEntries(out);
}

/** `<instance path or (root)> <message>` per error, joined with `"; "`. */
function formatAjvErrors(errors: readonly ErrorObject[]): string {
  return errors
    .map((e) => {
      let text = `${e.instancePath === "" ? "(root)" : e.instancePath} ${e.message ?? `fails ${e.keyword}`}`;
      const extra = (e.params as { additionalProperty?: unknown }).additionalProperty;
      if (e.keyword === "additionalProperties" && typeof extra === "string") text += ` (${JSON.stringify(extra)})`;
      return text;
    })
    .join("; ");
}

function compileTools(tools: ToolImplementations): Map<string, CompiledTool> {
  if (typeof tools !== "object" || tools === null || Array.isArray(tools)) {
    throw new InvalidOptionError(`createToolServiceHandler: tools must be an object of name -> { description, inputSchema, execute }; got ${Array.isArray(tools) ? "an array" : String(tools)}`);
  }
  const issues: ConfigIssue[] = [];
  const out = new Map<string, CompiledTool>();
  for (const [name, impl] of Object.entries(tools)) {
    const path = `tools[${JSON.stringify(name)}]`;
    if (typeof impl !== "object" || impl === null) {
      issues.push({ path, message: `expected { description, inputSchema, execute }; got ${String(impl)}` });
      continue;
    }
    if (typeof impl.description !== "string") issues.push({ path: `${path}.description`, message: `expected a string; got ${typeof impl.description}` });
    if (typeof impl.execute !== "function") issues.push({ path: `${path}.execute`, message: `expected a function; got ${typeof impl.execute}` });
    const schema: unknown = impl.inputSchema;
    if (typeof schema !== "boolean" && (typeof schema !== "object" || schema === null || Array.isArray(schema))) {
      issues.push({ path: `${path}.inputSchema`, message: `expected a JSON Schema object; got ${schema === null ? "null" : Array.isArray(schema) ? "an array" : typeof schema}` });
      continue;
    }
    let validate: ValidateFunction;
    try {
      validate = newAjv(schema).compile(schema as JsonObject | boolean);
    } catch (e) {
      issues.push({ path: `${path}.inputSchema`, message: `invalid JSON Schema: ${toError(e).message}` });
      continue;
    }
    out.set(name, { impl, validate, schemaText: JSON.stringify(schema) });
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return out;
}

/** ajv's three draft classes. ajv is CommonJS, so `require` gives the one instance `import` would. */
interface AjvClasses {
  readonly Ajv: typeof import("ajv").Ajv;
  readonly Ajv2019: typeof import("ajv/dist/2019.js").Ajv2019;
  readonly Ajv2020: typeof import("ajv/dist/2020.js").Ajv2020;
}

let ajvClasses: AjvClasses | undefined;

/** Loads ajv on the first schema compiled, so that importing the package (or serving a runtime) does not pay for it. */
function loadAjv(): AjvClasses {
  if (ajvClasses === undefined) {
    const require = createRequire(import.meta.url);
    ajvClasses = {
      Ajv: (require("ajv") as typeof import("ajv")).Ajv,
      Ajv2019: (require("ajv/dist/2019.js") as typeof import("ajv/dist/2019.js")).Ajv2019,
      Ajv2020: (require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js")).Ajv2020,
    };
  }
  return ajvClasses;
}

/** One validator per tool, so that two tools' `$id`s never collide. `logger: false`: ajv never writes to the console. */
function newAjv(schema: object | boolean): { compile(schema: object | boolean): ValidateFunction } {
  const options = { allErrors: true, strict: false, validateFormats: false, logger: false as const };
  const draft = typeof schema === "object" ? (schema as { $schema?: unknown }).$schema : undefined;
  const { Ajv, Ajv2019, Ajv2020 } = loadAjv();
  if (typeof draft === "string" && draft.includes("2020-12")) return new Ajv2020(options);
  if (typeof draft === "string" && draft.includes("2019-09")) return new Ajv2019(options);
  return new Ajv(options);
}
