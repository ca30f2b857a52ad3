import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { ChildProcess } from "node:child_process";
import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Logger } from "../core/index.js";
import type { McpSdk } from "./sdk.js";
import type { ValidHandler } from "./session.js";
import { MAX_MCP_MESSAGE_BYTES } from "./limits.js";
import { StdioWatch } from "./stdio-watch.js";
import { installLineBuffer } from "./line-buffer.js";
import type { ModernMcpSdk } from "./modern.js";

/**
 * The environment of a stdio server, as Omnia's runtime (Go's `exec.Cmd`)
 * gives it: with no `env` (or an empty one, which Go leaves as a nil
 * `cmd.Env`), the runtime's whole environment; with a non-empty `env`, exactly
 * those variables. The SDK merges its own "safe" subset (HOME, PATH, …) into
 * every child's environment; each of those it would add and `env` does not
 * name is set to `undefined` here, which Node's spawn leaves out.
 */
function childEnvironment(sdk: McpSdk, env: Readonly<Record<string, string>> | undefined): Record<string, string> {
  if (env === undefined || Object.keys(env).length === 0) return { ...(process.env as Record<string, string>) };
  const out: Record<string, string | undefined> = {};
  for (const key of sdk.DEFAULT_INHERITED_ENV_VARS) out[key] = undefined;
  return Object.assign(out, env) as Record<string, string>;
}

/**
 * The command as Go's `exec.Command` resolves it before the child starts: a
 * bare name is looked up on the runtime's own `PATH` (not the child's `env`);
 * a name with a `/` is used as it is, and so is one found nowhere (the spawn
 * then fails with ENOENT).
 */
function lookPath(command: string): string {
  if (command.includes("/")) return command;
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    const candidate = join(dir === "" ? "." : dir, command);
    try {
      if (statSync(candidate).isFile()) {
        accessSync(candidate, constants.X_OK);
        return candidate;
      }
    } catch {
      // not here: the next directory
    }
  }
  return command;
}

/**
 * Sends the messages a stdio transport is given in one turn of the event loop
 * (the calls of one model turn, or the next calls started as a batch of
 * answers is read) with one write to the child's stdin, on the next tick,
 * after the turn's promise jobs: each message is its JSON on a line of its
 * own, in order, as the SDK's transport writes it, which made one `write(2)`
 * per message. The turn's sends settle together, at once, or when the pipe
 * drains if that write filled it (one `drain` listener per turn, never one
 * per message). As the SDK's, a send once the child is gone fails with `Not
 * connected`, and a message that cannot be serialised fails its own send.
 */
function batchWrites(transport: Transport): void {
  const owner = transport as unknown as { _process?: ChildProcess };
  /** The turn's lines not yet written, and the promise their sends share. */
  let batch: { readonly lines: string[]; readonly sent: Promise<void> } | undefined;
  transport.send = (message) => {
    const stdin = owner._process?.stdin;
    if (stdin == null) return Promise.reject(new Error("Not connected"));
    let line: string;
    try {
      line = `${JSON.stringify(message)}\n`;
    } catch (error) {
      return Promise.reject(error as Error);
    }
    if (batch !== undefined) {
      batch.lines.push(line);
      return batch.sent;
    }
    const lines = [line];
    const sent = new Promise<void>((resolve) =>
      process.nextTick(() => {
        batch = undefined;
        if (stdin.write(lines.join(""))) resolve();
        else stdin.once("drain", resolve);
      }),
    );
    batch = { lines, sent };
    return sent;
  };
}

/** A transport and, for stdio, the watch on its child. */
export interface McpTransport {
  readonly transport: Transport;
  readonly stdio: StdioWatch | undefined;
}

/**
 * The SDK transport of a handler: a child process for stdio (its stderr
 * logged at debug and its end kept by a {@link StdioWatch}, its stdout split
 * into lines by a `LineBuffer`), or an HTTP transport (sse, streamable-http)
 * whose every request goes through `fetch`. `onSdkReadBuffer` is called when
 * the SDK's stdio transport has no read buffer to replace, and reads lines
 * with its own (quadratic) one. With `modern` (revision 2026-07-28), a
 * streamable-http session uses the 2.x SDK's transport, which sends the
 * revision's headers; stdio is the same child either way.
 */
export function createMcpTransport(sdk: McpSdk, handler: ValidHandler, fetch: FetchLike, logger: Logger, onSdkReadBuffer: () => void, modern?: ModernMcpSdk): McpTransport {
  const config = handler.config;
  if (handler.kind === "stdio") {
    const transport = new sdk.StdioClientTransport({
      command: lookPath(config.command as string),
      args: [...(config.args ?? [])],
      env: childEnvironment(sdk, config.env),
      // The SDK's default line buffer (10 MiB) would kill the server on a result just over the cap;
      // this one holds any result up to the cap with its envelope, so it fails the call instead.
      maxBufferSize: MAX_MCP_MESSAGE_BYTES,
      ...(config.workDir === undefined || config.workDir === "" ? {} : { cwd: config.workDir }),
      stderr: "pipe",
    });
    if (!installLineBuffer(transport, MAX_MCP_MESSAGE_BYTES, sdk.deserializeMessage)) onSdkReadBuffer();
    const watch = new StdioWatch();
    transport.stderr?.on("data", (chunk: Buffer) => {
      watch.write(chunk);
      logger.debug("mcp: stdio server stderr", { handler: handler.name, text: chunk.toString("utf8") });
    });
    // The SDK drops the child's exit code; the child is its private `_process`, set while start() runs.
    const start = transport.start.bind(transport);
    transport.start = () => {
      const started = start();
      const child = (transport as unknown as { _process?: ChildProcess })._process;
      child?.once("exit", (code, signal) => {
        watch.exitCode = code;
        watch.signal = signal;
      });
      if (child?.stdin != null) batchWrites(transport);
      return started;
    };
    return { transport, stdio: watch };
  }
  const url = handler.url as URL;
  if (handler.kind === "sse") {
    return { transport: new sdk.SSEClientTransport(url, { fetch, eventSourceInit: { fetch } }), stdio: undefined };
  }
  // No background reconnection of the event stream: it would run on the SDK's
  // own timers. A broken session is replaced on the next call instead.
  const reconnectionOptions = { maxRetries: 0, initialReconnectionDelay: 1_000, maxReconnectionDelay: 30_000, reconnectionDelayGrowFactor: 1.5 };
  if (modern !== undefined) {
    return { transport: new modern.StreamableHTTPClientTransport(url, { fetch, reconnectionOptions }) as unknown as Transport, stdio: undefined };
  }
  const transport = new sdk.StreamableHTTPClientTransport(url, {
    fetch,
    reconnectionOptions,
  });
  return { transport, stdio: undefined };
}
