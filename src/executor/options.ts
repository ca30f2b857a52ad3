import { InvalidOptionError, rejectUnknownOptions } from "../core/index.js";
import type { ToolRegistry } from "../manifest/index.js";
import type { ToolExecutorOptions } from "./types.js";

const KNOWN_OPTIONS = new Set([
  "registry",
  "agent",
  "breakers",
  "policy",
  "recorder",
  "logger",
  "clock",
  "dispatcher",
  "secrets",
  "workloadIdentity",
  "delegation",
  "random",
  "clientCallTimeoutMs",
  "platformTools",
  "telemetry",
  "maxArgumentBytes",
  "pinOpenApiOriginToSpec",
  "mcpToolFilterWildcards",
]);

/** Checks the host's options eagerly, at creation. @internal Does not follow semver. */
export function validateOptions(options: ToolExecutorOptions): void {
  if (options === null || typeof options !== "object") throw new InvalidOptionError(`createToolExecutor: options must be an object; got ${String(options)}`);
  rejectUnknownOptions("createToolExecutor", options, KNOWN_OPTIONS);
  const registry = options.registry as Partial<ToolRegistry> | undefined;
  if (registry === undefined || typeof registry.getTool !== "function" || typeof registry.getHandler !== "function") {
    throw new InvalidOptionError("createToolExecutor: registry must be a ToolRegistry from loadToolRegistry(); got " + (registry === undefined ? "undefined" : typeof registry));
  }
  const dispatcher = options.dispatcher as { dispatch?: unknown } | null | undefined;
  if (dispatcher !== undefined && typeof dispatcher?.dispatch !== "function") {
    throw new InvalidOptionError(`createToolExecutor: dispatcher must be an undici Dispatcher (Agent, Pool, Client or compose()) with a dispatch() method; got ${dispatcher === null ? "null" : typeof dispatcher}`);
  }
  if (options.maxArgumentBytes !== undefined && !(Number.isSafeInteger(options.maxArgumentBytes) && options.maxArgumentBytes > 0)) {
    throw new InvalidOptionError(`createToolExecutor: maxArgumentBytes must be a positive whole number of bytes; got ${String(options.maxArgumentBytes)}`);
  }
  if (options.clientCallTimeoutMs !== undefined && !(Number.isFinite(options.clientCallTimeoutMs) && options.clientCallTimeoutMs > 0)) {
    throw new InvalidOptionError(`createToolExecutor: clientCallTimeoutMs must be a positive number of ms; got ${String(options.clientCallTimeoutMs)}`);
  }
  if (options.pinOpenApiOriginToSpec !== undefined && typeof options.pinOpenApiOriginToSpec !== "boolean") {
    throw new InvalidOptionError(`createToolExecutor: pinOpenApiOriginToSpec must be a boolean; got ${typeof options.pinOpenApiOriginToSpec}`);
  }
  if (options.mcpToolFilterWildcards !== undefined && typeof options.mcpToolFilterWildcards !== "boolean") {
    throw new InvalidOptionError(`createToolExecutor: mcpToolFilterWildcards must be a boolean; got ${typeof options.mcpToolFilterWildcards}`);
  }
  checkShapes(options as unknown as Readonly<Record<string, unknown>>);
}

const AGENT_FIELDS = ["name", "namespace", "workspace", "provider", "model"] as const;
const FUNCTION_OPTIONS = ["secrets", "workloadIdentity", "delegation", "random"] as const;
const LOGGER_METHODS = ["debug", "info", "warn", "error"] as const;

/**
 * The type of every other option, so that a JavaScript host (or a cast) gets
 * `createToolExecutor: agent.name must be a string; got 5` at creation, not a
 * wrong header or a TypeError on some later call.
 */
function checkShapes(o: Readonly<Record<string, unknown>>): void {
  const agent = o["agent"];
  if (agent !== undefined) {
    const fields = objectOption("agent", agent, "an object of strings (name, namespace, workspace, provider, model)");
    rejectUnknownOptions("createToolExecutor: agent", fields, AGENT_FIELDS);
    for (const key of AGENT_FIELDS) {
      const value = fields[key];
      if (value !== undefined && typeof value !== "string") fail(`agent.${key}`, "a string", value);
    }
  }
  for (const key of FUNCTION_OPTIONS) {
    const value = o[key];
    if (value !== undefined && typeof value !== "function") fail(key, "a function", value);
  }
  if (o["logger"] !== undefined) methods("logger", o["logger"], LOGGER_METHODS, "a Logger");
  if (o["clock"] !== undefined) methods("clock", o["clock"], ["now", "setTimeout"], "a Clock");
  if (o["breakers"] !== undefined) methods("breakers", o["breakers"], ["get"], "a CircuitBreakers set from createCircuitBreakers()");
  const recorder = o["recorder"];
  if (recorder !== undefined) {
    methods("recorder", recorder, ["record"], "a Recorder");
    const start = (recorder as Record<string, unknown>)["start"];
    if (start !== undefined && typeof start !== "function") fail("recorder.start", "a function", start);
  }
  const policy = o["policy"];
  if (policy !== undefined && typeof policy !== "function") {
    const p = objectOption("policy", policy, "a decision function or { decide, failOpen? }");
    if (typeof p["decide"] !== "function") fail("policy.decide", "a function", p["decide"]);
    if (p["failOpen"] !== undefined && typeof p["failOpen"] !== "boolean") fail("policy.failOpen", "a boolean", p["failOpen"]);
  }
  const telemetry = o["telemetry"];
  if (telemetry !== undefined && telemetry !== false) objectOption("telemetry", telemetry, "false or an object of telemetry options");
}

function objectOption(path: string, value: unknown, expected: string): Readonly<Record<string, unknown>> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) fail(path, expected, value);
  return value as Readonly<Record<string, unknown>>;
}

function methods(path: string, value: unknown, names: readonly string[], expected: string): void {
  const object = value !== null && (typeof value === "object" || typeof value === "function") ? (value as Record<string, unknown>) : undefined;
  if (object === undefined) fail(path, `${expected} (an object with ${names.join(", ")})`, value);
  for (const name of names) if (typeof object[name] !== "function") fail(`${path}.${name}`, "a function", object[name]);
}

function fail(path: string, expected: string, value: unknown): never {
  throw new InvalidOptionError(`createToolExecutor: ${path} must be ${expected}; got ${describe(value)}`);
}

/** `5`, `"text"`, `null`, `undefined`, `array`, `object`, `function`. */
function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (value === null || value === undefined || typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return Array.isArray(value) ? "array" : typeof value;
}
