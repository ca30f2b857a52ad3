import { ConfigError } from "../core/index.js";

/**
 * Where the Omnia operator mounts the PromptPack when `OMNIA_PROMPTPACK_PATH`
 * is not set (Omnia's default).
 * @public
 */
export const DEFAULT_PROMPTPACK_PATH = "/etc/omnia/pack/pack.json";

/**
 * The configuration the Omnia operator gives a runtime container, read from
 * its environment by {@link readRuntimeEnvironment}.
 * @public
 */
export interface RuntimeEnvironment {
  /** `OMNIA_AGENT_NAME` (required): the AgentRuntime's name. */
  readonly agentName: string;
  /** `OMNIA_NAMESPACE` (required): its namespace. */
  readonly namespace: string;
  /** `OMNIA_GRPC_PORT`, default 9000: where the facade dials the runtime. */
  readonly grpcPort: number;
  /** `OMNIA_HEALTH_PORT`, default 9001: `/healthz`, `/readyz` and `/metrics`. */
  readonly healthPort: number;
  /** `OMNIA_PROMPTPACK_PATH`, default `/etc/omnia/pack/pack.json`. */
  readonly promptPackPath: string;
  /** `OMNIA_PROMPT_NAME`, default `default`: the pack's prompt for conversations. */
  readonly promptName: string;
  /** `OMNIA_TOOLS_CONFIG_PATH`: the mounted ToolRegistry; unset when the AgentRuntime has none. */
  readonly toolsConfigPath: string | undefined;
  /** `SESSION_API_URL`: where tool calls are recorded; unset records nothing. */
  readonly sessionApiUrl: string | undefined;
  /** `POLICY_BROKER_URL`: the policy-broker sidecar; unset allows every call. */
  readonly policyBrokerUrl: string | undefined;
  /** `POLICY_BROKER_FAIL_MODE`: `open` or `closed` (default `closed`, as Omnia). */
  readonly policyBrokerFailOpen: boolean;
  /** `OMNIA_TRACING_ENABLED` (`true`), `OMNIA_TRACING_ENDPOINT`, `OMNIA_TRACING_INSECURE` (`true`), `OMNIA_TRACING_SAMPLE_RATE` (0 to 1). */
  readonly tracing: {
    readonly enabled: boolean;
    readonly endpoint: string | undefined;
    readonly insecure: boolean;
    readonly sampleRate: number | undefined;
  };
}

/** A set, non-empty value (Omnia treats an empty variable as unset). */
function value(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === "" ? undefined : v;
}

/** A value as an error shows it: quoted, at most 64 characters. */
function shown(raw: string): string {
  return JSON.stringify(raw.length > 64 ? `${raw.slice(0, 64)}...` : raw);
}

function port(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError({ path: "", message: `invalid ${name}: ${shown(raw)} is not a port number from 0 to 65535` });
  }
  return Number(raw);
}

/**
 * Reads the environment the Omnia operator injects into a runtime container
 * (the same for a custom runtime as for Omnia's own): the agent's name and
 * namespace (required, as Omnia's runtime requires them), the gRPC and health
 * ports (9000 and 9001), the mounted PromptPack and ToolRegistry paths, the
 * prompt name, session-api, the policy broker and tracing. An empty variable
 * counts as unset, as in Omnia.
 *
 * @param env - Default `process.env`.
 * @throws ConfigError (`ERR_OMNIA_CONFIG`) naming the variable: `OMNIA_AGENT_NAME
 *   and OMNIA_NAMESPACE are required (set via Downward API)` (or the one that is
 *   missing), `invalid OMNIA_GRPC_PORT: "x" is not a port number from 0 to 65535`,
 *   `invalid OMNIA_TRACING_SAMPLE_RATE: must be between 0.0 and 1.0`,
 *   `invalid POLICY_BROKER_FAIL_MODE: "x" is not open or closed`
 * @public
 */
export function readRuntimeEnvironment(env: Readonly<Record<string, string | undefined>> = process.env): RuntimeEnvironment {
  const agentName = value(env, "OMNIA_AGENT_NAME");
  const namespace = value(env, "OMNIA_NAMESPACE");
  if (agentName === undefined || namespace === undefined) {
    const missing = [agentName === undefined ? "OMNIA_AGENT_NAME" : undefined, namespace === undefined ? "OMNIA_NAMESPACE" : undefined].filter((n) => n !== undefined);
    throw new ConfigError({ path: "", message: `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} required (set via Downward API)` });
  }
  const rate = value(env, "OMNIA_TRACING_SAMPLE_RATE");
  let sampleRate: number | undefined;
  if (rate !== undefined) {
    sampleRate = Number(rate);
    if (!/^\d+(\.\d+)?$/.test(rate)) throw new ConfigError({ path: "", message: `invalid OMNIA_TRACING_SAMPLE_RATE: ${shown(rate)} is not a number` });
    if (sampleRate < 0 || sampleRate > 1) throw new ConfigError({ path: "", message: "invalid OMNIA_TRACING_SAMPLE_RATE: must be between 0.0 and 1.0" });
  }
  const failMode = value(env, "POLICY_BROKER_FAIL_MODE") ?? "closed";
  if (failMode !== "open" && failMode !== "closed") {
    throw new ConfigError({ path: "", message: `invalid POLICY_BROKER_FAIL_MODE: ${shown(failMode)} is not open or closed` });
  }
  return Object.freeze({
    agentName,
    namespace,
    grpcPort: port(env, "OMNIA_GRPC_PORT", 9000),
    healthPort: port(env, "OMNIA_HEALTH_PORT", 9001),
    promptPackPath: value(env, "OMNIA_PROMPTPACK_PATH") ?? DEFAULT_PROMPTPACK_PATH,
    promptName: value(env, "OMNIA_PROMPT_NAME") ?? "default",
    toolsConfigPath: value(env, "OMNIA_TOOLS_CONFIG_PATH"),
    sessionApiUrl: value(env, "SESSION_API_URL"),
    policyBrokerUrl: value(env, "POLICY_BROKER_URL"),
    policyBrokerFailOpen: failMode === "open",
    tracing: Object.freeze({
      enabled: env["OMNIA_TRACING_ENABLED"] === "true",
      endpoint: value(env, "OMNIA_TRACING_ENDPOINT"),
      insecure: env["OMNIA_TRACING_INSECURE"] === "true",
      sampleRate,
    }),
  });
}
