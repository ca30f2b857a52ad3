import { readFile } from "node:fs/promises";
import type { Clock } from "../core/index.js";
import type { HandlerConfig, SecretKeyRef } from "../manifest/index.js";
import { AuthError, thrownText } from "../core/index.js";

/**
 * Resolves a Kubernetes Secret reference (`auth.secretRef`, `headersFromSecret`)
 * to its value. Called on every call, so a rotated secret takes effect at once.
 * @public
 */
export type SecretResolver = (ref: SecretKeyRef, handlerName: string) => string | Promise<string>;

/**
 * Acquires a workload-identity token for `scope` (`<audience>/.default`).
 * Return `expiresAtMs` (on the executor's clock) to let the executor cache the
 * token until 5 minutes before it expires, as Omnia does.
 * @public
 */
export type WorkloadTokenAcquirer = (request: {
  /** The handler's `workloadIdentity.cloud`: `azure`, the one cloud the ToolRegistry CRD allows. */
  readonly cloud: "azure";
  readonly audience: string;
  readonly scope: string;
}) => Promise<{ readonly token: string; readonly expiresAtMs?: number }>;

/** How credentials are found. @internal Does not follow semver. */
export interface CredentialSources {
  readonly secrets?: SecretResolver | undefined;
  readonly workloadIdentity?: WorkloadTokenAcquirer | undefined;
  readonly clock: Clock;
}

const WORKLOAD_REFRESH_MARGIN_MS = 5 * 60 * 1000;

/**
 * The per-audience workload-identity token cache of one executor.
 * @internal Does not follow semver.
 */
export type WorkloadTokenCache = Map<string, { token: string; expiresAtMs: number }>;

/**
 * Builds a handler's own auth header, once per call (Omnia's `internal/runtime/tools/auth.go`):
 * bearer and basic from `secrets` (or the mounted token file, re-read on every
 * call, trailing LF stripped), serviceAccount from the projected token file,
 * workloadIdentity from the acquirer. Returns `{}` for a handler without auth.
 * @throws AuthError `handler "<h>" auth: <why>`
 * @internal Does not follow semver.
 */
export async function resolveAuthHeaders(
  handler: HandlerConfig,
  sources: CredentialSources,
  cache: WorkloadTokenCache,
): Promise<Record<string, string>> {
  const auth = handler.auth;
  if (auth === undefined) return {};
  const fail = (why: string): never => {
    throw new AuthError(`handler ${JSON.stringify(handler.name)} auth: ${why}`);
  };
  try {
    switch (auth.type) {
      case "bearer":
      case "serviceAccount": {
        const token =
          auth.type === "bearer" && sources.secrets !== undefined
            ? stringFrom(await sources.secrets(auth.secretRef, handler.name), "the secrets resolver")
            : await readTokenFile(auth.tokenPath);
        if (token === "") fail("bearer auth requires a token");
        return { Authorization: `Bearer ${token}` };
      }
      case "basic": {
        const token = sources.secrets !== undefined ? stringFrom(await sources.secrets(auth.secretRef, handler.name), "the secrets resolver") : await readTokenFile(auth.tokenPath);
        if (token === "") fail("basic auth requires credentials");
        if (!token.includes(":")) fail("basic auth token must be 'username:password'");
        return { Authorization: `Basic ${Buffer.from(token, "utf8").toString("base64")}` };
      }
      case "workloadIdentity": {
        const { cloud, audience, header } = auth.workloadIdentity;
        const acquire = sources.workloadIdentity;
        if (acquire === undefined) fail("workloadIdentity: no token acquirer configured");
        const now = sources.clock.now();
        const cached = cache.get(audience);
        if (cached !== undefined && now < cached.expiresAtMs - WORKLOAD_REFRESH_MARGIN_MS) return { [header]: `Bearer ${cached.token}` };
        let token: string;
        let expiresAtMs: unknown;
        try {
          // Each field is read once: a getter that changes its answer cannot split the cache from the header.
          const got: unknown = await acquire!({ cloud, audience, scope: `${audience}/.default` });
          if (got === null || typeof got !== "object") throw new TypeError("the acquirer returned no { token }");
          token = stringFrom((got as { token?: unknown }).token, "the acquirer");
          expiresAtMs = (got as { expiresAtMs?: unknown }).expiresAtMs;
        } catch (e) {
          return fail(`acquire azure token for ${JSON.stringify(audience)}: ${thrownText(e)}`);
        }
        if (typeof expiresAtMs === "number") cache.set(audience, { token, expiresAtMs });
        return { [header]: `Bearer ${token}` };
      }
      default:
        return fail(`unsupported auth type: ${(auth as { type: string }).type}`);
    }
  } catch (e) {
    if (e instanceof AuthError) throw e;
    throw new AuthError(`handler ${JSON.stringify(handler.name)} auth: ${thrownText(e)}`, { cause: e });
  }
}

/**
 * Resolves `httpConfig.headersFromSecret` through the secrets resolver.
 * @throws AuthError when there are entries and no resolver
 * @internal Does not follow semver.
 */
export async function resolveSecretHeaders(
  handlerName: string,
  refs: Readonly<Record<string, SecretKeyRef>>,
  secrets: SecretResolver | undefined,
): Promise<Record<string, string>> {
  const names = Object.keys(refs);
  if (names.length === 0) return {};
  if (secrets === undefined) throw new AuthError(`handler ${JSON.stringify(handlerName)} auth: headersFromSecret needs a secrets resolver`);
  const out: Record<string, string> = {};
  for (const name of names) {
    try {
      out[name] = stringFrom(await secrets(refs[name] as SecretKeyRef, handlerName), "the secrets resolver");
    } catch (e) {
      throw new AuthError(`handler ${JSON.stringify(handlerName)} auth: headersFromSecret ${JSON.stringify(name)}: ${thrownText(e)}`, { cause: e });
    }
  }
  return out;
}

/** A host callback's answer, which must be a string: anything else is a failure of that callback, never `[object Object]` in a header. */
function stringFrom(value: unknown, who: string): string {
  if (typeof value === "string") return value;
  throw new TypeError(`${who} returned ${value === null ? "null" : typeof value}, not a string`);
}

/** Reads a token file; only trailing LF characters are stripped (CR and spaces are kept), as Omnia does. */
async function readTokenFile(path: string): Promise<string> {
  try {
    return (await readFile(path, "utf8")).replace(/\n+$/, "");
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const why = code === "ENOENT" ? `open ${path}: no such file or directory` : thrownText(e);
    throw new Error(`read auth token file ${JSON.stringify(path)}: ${why}`, { cause: e });
  }
}
