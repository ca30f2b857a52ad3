#!/usr/bin/env node
// runtime-conformance: runs the omnia.runtime.v1 protocol conformance suite against a
// runtime's gRPC endpoint, prints a table (or JSON), and exits 0 when it is conformant,
// 1 when it is not (an unreachable runtime included), 2 on a usage error.
// Flags, output and exit codes follow Omnia's cmd/runtime-conformance (`main.go`);
// --json is ours.
import { parseArgs } from "node:util";
import { parseGoDuration } from "../core/index.js";
import { DEFAULT_CONFORMANCE_TIMEOUT_MS, formatConformanceReport, runConformance, runtimeBaseUrl } from "../conformance/index.js";
import { escapeTerminalText } from "./terminal-text.js";

const USAGE = `Usage: runtime-conformance --addr host:port [--timeout 30s] [--json]

Runs the omnia.runtime.v1 protocol conformance suite against a runtime's gRPC
endpoint (plaintext HTTP/2) and reports each check.

Options:
  --addr host:port    runtime gRPC address (required)
  --timeout duration  overall probe timeout, Go duration syntax: 30s, 1m, 1m30s, 500ms (default 30s)
  --json              print the result as JSON instead of a table
  -h, --help          print this help

Exit status: 0 conformant (every check passed or was skipped), 1 not conformant
or unreachable, 2 usage error.
`;

/** Go's flag package also accepts one dash before a long flag: -addr, -timeout=10s. */
const LONG_FLAG = /^-(addr|timeout|json|help)(=.*)?$/;

class UsageError extends Error {}

interface Args {
  readonly addr: string;
  readonly timeoutMs: number;
  readonly json: boolean;
}

function parse(argv: readonly string[]): Args | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.map((a) => (LONG_FLAG.test(a) ? `-${a}` : a)),
      options: {
        addr: { type: "string" },
        timeout: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help === true) return "help";
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  if (values.addr === undefined || values.addr === "") throw new UsageError("--addr is required");
  let timeoutMs = DEFAULT_CONFORMANCE_TIMEOUT_MS;
  if (values.timeout !== undefined) {
    try {
      // Go's context.WithTimeout takes a zero or negative duration as already expired.
      timeoutMs = Math.max(0, parseGoDuration(values.timeout, "--timeout"));
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  return { addr: values.addr, timeoutMs, json: values.json === true };
}

/** Every text goes out with its control characters escaped: the report quotes the runtime's own answers. */
function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(escapeTerminalText(text), () => resolve()));
}

/**
 * A hint when the first check shows `addr` is not a runtime's gRPC port: an
 * HTTP/1 (or other non-HTTP/2) server fails the HTTP/2 preface with a protocol
 * error; a gRPC server that is not a runtime answers Unimplemented.
 */
function addressHint(addr: string, health: { readonly status: string; readonly detail: string } | undefined): string | undefined {
  if (health === undefined || health.status !== "fail") return undefined;
  if (/desc = Protocol error$/.test(health.detail)) return `runtime-conformance: ${addr} is not a gRPC server (it does not speak HTTP/2); is --addr the runtime's gRPC port?`;
  if (/code = Unimplemented\b/.test(health.detail)) return `runtime-conformance: ${addr} is a gRPC server without omnia.runtime.v1.RuntimeService; is --addr the runtime's port?`;
  return undefined;
}

async function main(argv: readonly string[]): Promise<number> {
  let args: Args | "help";
  try {
    args = parse(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    await write(process.stderr, `error: ${e.message}\n${USAGE}`);
    return 2;
  }
  if (args === "help") {
    await write(process.stdout, USAGE);
    return 0;
  }
  try {
    runtimeBaseUrl(args.addr, `dial ${args.addr}`);
  } catch (e) {
    await write(process.stderr, `error: ${(e as Error).message}\n`);
    return 2;
  }
  const result = await runConformance({ addr: args.addr, timeoutMs: args.timeoutMs });
  await write(process.stdout, args.json ? `${JSON.stringify(result, null, 2)}\n` : formatConformanceReport(result));
  const hint = addressHint(args.addr, result.checks.find((c) => c.name === "health/contract"));
  if (hint !== undefined) await write(process.stderr, `${hint}\n`);
  return result.passed ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (e: unknown) => {
    await write(process.stderr, `error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
