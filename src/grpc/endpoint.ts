import { readFileSync } from "node:fs";
import { X509Certificate } from "node:crypto";
import { createSecureContext } from "node:tls";
import { isIP } from "node:net";
import { ConfigError, InvalidOptionError, type Logger } from "../core/index.js";

const WHERE = "createToolServiceClient";

/**
 * Where and how to dial, normalised once at create time.
 * @internal Does not follow semver.
 */
export interface ResolvedEndpoint {
  /** `http://host:port` or `https://host:port` (IPv6 hosts bracketed). */
  readonly baseUrl: string;
  /** Host name or IP, without brackets. */
  readonly host: string;
  readonly port: number;
  /** TLS material, present only when TLS is on. */
  readonly tls: ResolvedTls | undefined;
}

/** @internal Does not follow semver. */
export interface ResolvedTls {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly rejectUnauthorized: boolean;
}

/** The TLS fields of `grpcConfig`, as the client options carry them. */
interface TlsFields {
  readonly tls?: boolean | undefined;
  readonly tlsCertPath?: string | undefined;
  readonly tlsKeyPath?: string | undefined;
  readonly tlsCAPath?: string | undefined;
  readonly tlsInsecureSkipVerify?: boolean | undefined;
}

/**
 * Parses `grpcConfig.endpoint` and reads the TLS files.
 *
 * The endpoint is `host:port` (as in a ToolRegistry), `[v6]:port`,
 * `dns:///host:port`, or an `http://` / `https://` URL with no path. A host
 * without a port gets 443, as grpc-go's resolver gives it. An `https:` URL
 * turns TLS on when `tls` is not set; a scheme that contradicts an explicit
 * `tls` is an error.
 *
 * TLS follows Omnia's `buildGRPCTLSConfig`: off unless `tls` is true (the
 * paths are then ignored); `tlsCAPath` replaces the system roots;
 * `tlsCertPath` takes effect only together with `tlsKeyPath` (either alone is
 * ignored, with a warning); `tlsInsecureSkipVerify` skips the chain and host
 * name checks. The files are read here, once.
 * @internal Does not follow semver.
 */
export function resolveEndpoint(endpoint: unknown, fields: TlsFields, logger: Logger): ResolvedEndpoint {
  if (typeof endpoint !== "string" || endpoint === "") {
    throw new InvalidOptionError(`${WHERE}: endpoint must be "host:port" or an http(s) URL; got ${describe(endpoint)}`);
  }
  for (const flag of ["tls", "tlsInsecureSkipVerify"] as const) {
    const v = fields[flag];
    if (v !== undefined && typeof v !== "boolean") throw new InvalidOptionError(`${WHERE}: ${flag} must be a boolean; got ${describe(v)}`);
  }
  for (const path of ["tlsCertPath", "tlsKeyPath", "tlsCAPath"] as const) {
    const v = fields[path];
    if (v !== undefined && typeof v !== "string") throw new InvalidOptionError(`${WHERE}: ${path} must be a file path; got ${describe(v)}`);
  }
  const parsed = parseEndpoint(endpoint);
  let useTls = fields.tls;
  if (parsed.scheme !== undefined) {
    const schemeTls = parsed.scheme === "https:";
    if (useTls !== undefined && useTls !== schemeTls) {
      throw new InvalidOptionError(`${WHERE}: endpoint scheme "${parsed.scheme}" contradicts tls: ${String(useTls)}; got "${endpoint}"`);
    }
    useTls = schemeTls;
  }
  const hostPart = isIP(parsed.host) === 6 ? `[${parsed.host}]` : parsed.host;
  const baseUrl = `${useTls === true ? "https" : "http"}://${hostPart}:${parsed.port}`;
  if (useTls !== true) {
    if (fields.tlsCAPath !== undefined || fields.tlsCertPath !== undefined || fields.tlsKeyPath !== undefined) {
      logger.debug("grpc client: tls is off, so the TLS file paths are ignored", { endpoint });
    }
    return { baseUrl, host: parsed.host, port: parsed.port, tls: undefined };
  }
  return { baseUrl, host: parsed.host, port: parsed.port, tls: readTls(fields, logger) };
}

function readTls(fields: TlsFields, logger: Logger): ResolvedTls {
  const out: { ca?: Buffer; cert?: Buffer; key?: Buffer; rejectUnauthorized: boolean } = {
    rejectUnauthorized: fields.tlsInsecureSkipVerify !== true,
  };
  if (fields.tlsCAPath !== undefined && fields.tlsCAPath !== "") {
    const ca = readOrThrow("tlsCAPath", fields.tlsCAPath, "failed to read CA cert");
    if (!hasCertificate(ca)) {
      throw new ConfigError({ path: "tlsCAPath", message: `failed to parse CA cert; got "${fields.tlsCAPath}"` });
    }
    out.ca = ca;
  }
  const certPath = fields.tlsCertPath ?? "";
  const keyPath = fields.tlsKeyPath ?? "";
  if (certPath !== "" && keyPath !== "") {
    const cert = readOrThrow("tlsCertPath", certPath, "failed to load client cert");
    const key = readOrThrow("tlsKeyPath", keyPath, "failed to load client cert");
    try {
      createSecureContext({ cert, key });
    } catch (e) {
      throw new ConfigError({ path: "tlsCertPath", message: `failed to load client cert: ${(e as Error).message}; got "${certPath}" and "${keyPath}"` }, { cause: e });
    }
    out.cert = cert;
    out.key = key;
  } else if (certPath !== "" || keyPath !== "") {
    // As in Omnia: tlsCertPath takes effect only together with tlsKeyPath.
    logger.warn(`grpc client: ${certPath !== "" ? "tlsCertPath is ignored without tlsKeyPath" : "tlsKeyPath is ignored without tlsCertPath"}`, {});
  }
  return out;
}

function readOrThrow(path: string, file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new ConfigError({ path, message: `${what}: ${(e as Error).message}; got "${file}"` }, { cause: e });
  }
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Go's `AppendCertsFromPEM` succeeds when at least one certificate parses. */
function hasCertificate(pem: Buffer): boolean {
  for (const block of pem.toString("latin1").match(PEM_CERT) ?? []) {
    try {
      new X509Certificate(block);
      return true;
    } catch {
      // try the next block
    }
  }
  return false;
}

function parseEndpoint(endpoint: string): { scheme: "http:" | "https:" | undefined; host: string; port: number } {
  const bad = () => new InvalidOptionError(`${WHERE}: endpoint must be "host:port" or an http(s) URL; got "${endpoint}"`);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) && !endpoint.startsWith("dns:///")) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw bad();
    }
    if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "" || (url.pathname !== "/" && url.pathname !== "")) {
      throw bad();
    }
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
    return { scheme: url.protocol, host, port };
  }
  const target = endpoint.startsWith("dns:///") ? endpoint.slice("dns:///".length) : endpoint;
  let host: string;
  let portText: string | undefined;
  const v6 = /^\[([^\]]+)\](?::(.*))?$/.exec(target);
  if (v6 !== null) {
    host = v6[1] ?? "";
    portText = v6[2];
  } else if (isIP(target) === 6) {
    host = target;
  } else {
    const colon = target.lastIndexOf(":");
    host = colon === -1 ? target : target.slice(0, colon);
    portText = colon === -1 ? undefined : target.slice(colon + 1);
  }
  if (host === "" || /[\s/?#@]/.test(host) || (v6 !== null && isIP(host) !== 6)) throw bad();
  let port = 443;
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) throw bad();
    port = Number(portText);
  }
  return { scheme: undefined, host, port };
}

function describe(value: unknown): string {
  return typeof value === "string" ? `"${value}"` : value === undefined ? "undefined" : (JSON.stringify(value) ?? String(value));
}
