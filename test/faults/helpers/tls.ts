// TLS material (and an HTTPS backend) for the certificate-mismatch faults, generated at test time by
// selfsigned (EC P-256): a CA, a server certificate for 127.0.0.1/localhost, a
// certificate from the same CA for another host, and an unrelated CA. PEM files
// go to a temporary directory because grpcConfig.tlsCAPath names a file.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { generate } from "selfsigned";

export interface MismatchFixture {
  /** A key and certificate for 127.0.0.1 and localhost, signed by the CA. */
  readonly good: { readonly cert: string; readonly key: string };
  /** A key and certificate for `other.example` only, signed by the same CA. */
  readonly wrongHost: { readonly cert: string; readonly key: string };
  /** PEM file of the CA that signed both. */
  readonly caPath: string;
  /** PEM file of a CA that signed neither. */
  readonly otherCaPath: string;
  readonly caCert: string;
  cleanup(): void;
}

const CA_EXTENSIONS = [
  { name: "basicConstraints" as const, cA: true, critical: true },
  { name: "keyUsage" as const, keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
];

export async function createMismatchFixture(): Promise<MismatchFixture> {
  const base = { keyType: "ec" as const, algorithm: "sha256" };
  const ca = await generate([{ name: "commonName", value: "omnia-tools faults CA" }], { ...base, extensions: CA_EXTENSIONS });
  const otherCa = await generate([{ name: "commonName", value: "unrelated CA" }], { ...base, extensions: CA_EXTENSIONS });
  const leaf = (commonName: string, altNames: ({ type: 2; value: string } | { type: 7; ip: string })[]) =>
    generate([{ name: "commonName", value: commonName }], {
      ...base,
      ca: { key: ca.private, cert: ca.cert },
      extensions: [
        { name: "basicConstraints", cA: false },
        { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
        { name: "extKeyUsage", serverAuth: true },
        { name: "subjectAltName", altNames },
      ],
    });
  const good = await leaf("localhost", [
    { type: 2, value: "localhost" },
    { type: 7, ip: "127.0.0.1" },
  ]);
  const wrongHost = await leaf("other.example", [{ type: 2, value: "other.example" }]);
  const dir = mkdtempSync(join(tmpdir(), "omnia-faults-tls-"));
  const caPath = join(dir, "ca.pem");
  const otherCaPath = join(dir, "other-ca.pem");
  writeFileSync(caPath, ca.cert);
  writeFileSync(otherCaPath, otherCa.cert);
  return {
    good: { cert: good.cert, key: good.private },
    wrongHost: { cert: wrongHost.cert, key: wrongHost.private },
    caPath,
    otherCaPath,
    caCert: ca.cert,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** An HTTPS backend on 127.0.0.1:0 answering `{}` to everything; close() ends every connection and waits. */
export async function startHttpsBackend(cert: string, key: string): Promise<{ url: string; port: number; handshakes(): number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let handshakes = 0;
  const server = createServer({ cert, key }, (_req, res) => res.end("{}"));
  server.on("connection", (s: Socket) => {
    handshakes++;
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
    s.on("error", () => {});
  });
  // The client refusing our certificate is the fault under test.
  server.on("tlsClientError", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    handshakes: () => handshakes,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const open = [...sockets].map((s) => new Promise<void>((resolve) => s.once("close", () => resolve())));
      for (const s of sockets) s.destroy();
      await Promise.all(open);
      await closed;
    },
  };
}
