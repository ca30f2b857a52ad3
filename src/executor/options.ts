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
}
