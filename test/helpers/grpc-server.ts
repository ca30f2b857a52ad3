// gRPC test helpers: an independent gRPC stack (@grpc/grpc-js + @grpc/proto-loader
// on proto/omnia/tools/v1/tools.proto) as a server and as a client, TLS material
// generated at test time by selfsigned (no openssl binary), and a handle check.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { generate } from "selfsigned";

const PROTO_ROOT = join(import.meta.dirname, "..", "..", "proto");
const TOOLS_PROTO = join(PROTO_ROOT, "omnia", "tools", "v1", "tools.proto");
const HEALTH_PROTO = join(PROTO_ROOT, "grpc", "health", "v1", "health.proto");

/** A grpc-js grpc.health.v1.Health client (from our vendored health.proto); resolves Check's status name. */
export function grpcJsHealthCheck(address: string, service: string): Promise<string> {
  const definition = protoLoader.loadSync(HEALTH_PROTO, { keepCase: true, defaults: true, enums: String });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } };
  const client = new pkg.grpc.health.v1.Health(address, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
    check(r: unknown, cb: (e: grpc.ServiceError | null, v: { status: string }) => void): void;
  };
  return new Promise<string>((resolve, reject) => {
    client.check({ service }, (e, v) => {
      client.close();
      if (e === null) resolve(v.status);
      else reject(e);
    });
  });
}

/** The ToolService as grpc-js sees it (plain objects, proto field names kept). */
function loadToolService(): grpc.ServiceClientConstructor {
  const definition = protoLoader.loadSync(TOOLS_PROTO, { keepCase: true, defaults: true });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as { omnia: { tools: { v1: { ToolService: grpc.ServiceClientConstructor } } } };
  return pkg.omnia.tools.v1.ToolService;
}

export interface WireToolRequest {
  tool_name: string;
  arguments_json: string;
  metadata: Record<string, string>;
}
export interface WireToolResponse {
  result_json?: string;
  is_error?: boolean;
  error_message?: string;
}
/** What one Execute call brought to the grpc-js server. */
export interface ReceivedCall {
  readonly request: WireToolRequest;
  /** Every metadata entry, lower-case keys, values as strings (repeated keys joined by ", "). */
  readonly metadata: Record<string, string>;
  /** The deadline grpc-js derived from grpc-timeout, in ms from arrival (Infinity when none). */
  readonly deadlineMs: number;
  /** Resolves when the call is cancelled (the client gave up or its deadline passed). */
  readonly cancelled: Promise<void>;
}
/** A handler's answer: a response, or a status error `{ code, details }`. */
export type GrpcJsAnswer = WireToolResponse | { code: grpc.status; details: string };

export interface GrpcJsToolServer {
  readonly port: number;
  readonly endpoint: string;
  readonly calls: ReceivedCall[];
  handle(fn: (call: ReceivedCall) => GrpcJsAnswer | Promise<GrpcJsAnswer>): void;
  close(): Promise<void>;
}

/** A grpc-js ToolService on 127.0.0.1:0 that records every Execute call. */
export async function startGrpcJsToolServer(
  fn: (call: ReceivedCall) => GrpcJsAnswer | Promise<GrpcJsAnswer> = () => ({ result_json: "{}" }),
  credentials: grpc.ServerCredentials = grpc.ServerCredentials.createInsecure(),
): Promise<GrpcJsToolServer> {
  let current = fn;
  const calls: ReceivedCall[] = [];
  const server = new grpc.Server();
  server.addService(loadToolService().service, {
    execute(call: grpc.ServerUnaryCall<WireToolRequest, WireToolResponse>, callback: grpc.sendUnaryData<WireToolResponse>) {
      const metadata: Record<string, string> = {};
      for (const [key, values] of Object.entries(call.metadata.getMap())) metadata[key] = Buffer.isBuffer(values) ? values.toString("base64") : String(values);
      const deadline = call.getDeadline();
      const at = deadline instanceof Date ? deadline.getTime() : deadline;
      const deadlineMs = at === Infinity ? Infinity : at - Date.now();
      const cancelled = new Promise<void>((resolve) => call.once("cancelled", () => resolve()));
      const received: ReceivedCall = { request: call.request, metadata, deadlineMs, cancelled };
      calls.push(received);
      Promise.resolve(current(received)).then(
        (answer) => {
          if ("code" in answer) callback({ code: answer.code, details: answer.details });
          else callback(null, answer);
        },
        (e: unknown) => callback({ code: grpc.status.INTERNAL, details: String(e) }),
      );
    },
    listTools(_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) {
      callback(null, { tools: [{ name: "echo", description: "Echoes its arguments", input_schema: '{"type":"object"}' }] });
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", credentials, (e, p) => (e === null ? resolve(p) : reject(e))),
  );
  return {
    port,
    endpoint: `127.0.0.1:${port}`,
    calls,
    handle(f) {
      current = f;
    },
    async close() {
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      server.forceShutdown();
    },
  };
}

export interface GrpcJsToolClient {
  execute(request: Partial<WireToolRequest>, metadata?: Record<string, string>, options?: { deadlineMs?: number }): Promise<Required<WireToolResponse>>;
  listTools(): Promise<{ tools: { name: string; description: string; input_schema: string }[] }>;
  close(): void;
}

/** A grpc-js ToolService client for `host:port`. */
export function grpcJsToolClient(address: string, credentials: grpc.ChannelCredentials = grpc.credentials.createInsecure()): GrpcJsToolClient {
  const Client = loadToolService();
  const client = new Client(address, credentials) as grpc.Client & Record<string, (...args: unknown[]) => unknown>;
  const unary = <T>(method: string, request: unknown, md = new grpc.Metadata(), options: grpc.CallOptions = {}) =>
    new Promise<T>((resolve, reject) => {
      (client[method] as (r: unknown, m: grpc.Metadata, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, v: T) => void) => void).call(
        client,
        request,
        md,
        options,
        (e, v) => (e === null ? resolve(v) : reject(e)),
      );
    });
  return {
    execute(request, metadata = {}, options = {}) {
      const md = new grpc.Metadata();
      for (const [k, v] of Object.entries(metadata)) md.set(k, v);
      return unary("execute", request, md, options.deadlineMs === undefined ? {} : { deadline: Date.now() + options.deadlineMs });
    },
    listTools: () => unary("listTools", {}),
    close: () => client.close(),
  };
}

export interface TlsFixture {
  readonly dir: string;
  readonly caCert: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly clientCert: string;
  readonly clientKey: string;
  /** A CA that signed none of the above. */
  readonly otherCaCert: string;
  /** Paths of the PEM files written to `dir`. */
  readonly paths: { readonly ca: string; readonly clientCert: string; readonly clientKey: string; readonly otherCa: string; readonly garbage: string };
  cleanup(): void;
}

/**
 * A CA, a server certificate for 127.0.0.1/localhost and a client certificate
 * signed by it, and an unrelated CA; generated now (EC P-256, SHA-256).
 */
export async function createTlsFixture(): Promise<TlsFixture> {
  const caExtensions = [
    { name: "basicConstraints" as const, cA: true, critical: true },
    { name: "keyUsage" as const, keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
  ];
  const base = { keyType: "ec" as const, algorithm: "sha256" };
  const ca = await generate([{ name: "commonName", value: "omnia-tools test CA" }], { ...base, extensions: caExtensions });
  const otherCa = await generate([{ name: "commonName", value: "some other CA" }], { ...base, extensions: caExtensions });
  const signer = { key: ca.private, cert: ca.cert };
  const server = await generate([{ name: "commonName", value: "localhost" }], {
    ...base,
    ca: signer,
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames: [{ type: 2, value: "localhost" }, { type: 7, ip: "127.0.0.1" }] },
    ],
  });
  const client = await generate([{ name: "commonName", value: "omnia-runtime" }], {
    ...base,
    ca: signer,
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
      { name: "extKeyUsage", clientAuth: true },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), "omnia-grpc-tls-"));
  const write = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  return {
    dir,
    caCert: ca.cert,
    serverCert: server.cert,
    serverKey: server.private,
    clientCert: client.cert,
    clientKey: client.private,
    otherCaCert: otherCa.cert,
    paths: {
      ca: write("ca.pem", ca.cert),
      clientCert: write("client.pem", client.cert),
      clientKey: write("client-key.pem", client.private),
      otherCa: write("other-ca.pem", otherCa.cert),
      garbage: write("garbage.pem", "not a certificate\n"),
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export { settledLeaks } from "./resources.js";
