import { StringDecoder } from "node:string_decoder";
import type { McpStdioExit } from "./errors.js";

/** The most of a stdio server's stderr kept for its errors: the last 4 KiB. */
const STDERR_TAIL_BYTES = 4096;
/** The most lines of it an error quotes. */
const STDERR_TAIL_LINES = 20;

/**
 * What a stdio server said on stderr (the last {@link STDERR_TAIL_LINES} lines
 * of its last 4 KiB) and how it exited, for the errors of a session whose
 * child would not start or went away.
 */
export class StdioWatch {
  #tail = "";
  /** The start was dropped: the tail's first line is a piece of a line, and is not shown. */
  #cut = false;
  readonly #decoder = new StringDecoder("utf8");
  /** The exit code, once the child has exited (`null` when a signal ended it). */
  exitCode: number | null | undefined;
  /** The signal that ended the child, if one did. */
  signal: NodeJS.Signals | null | undefined;

  /** Keeps the end of the child's stderr. */
  write(chunk: Buffer): void {
    this.#tail += this.#decoder.write(chunk);
    if (this.#tail.length > STDERR_TAIL_BYTES) {
      this.#tail = this.#tail.slice(-STDERR_TAIL_BYTES);
      this.#cut = true;
    }
  }

  #logged = false;

  /** True the first time only: the exit is logged once, however many calls it failed. */
  logOnce(): boolean {
    if (this.#logged) return false;
    this.#logged = true;
    return true;
  }

  /** How the child ended, once it has exited. */
  exit(): McpStdioExit | undefined {
    if (this.exitCode === undefined) return undefined;
    return { exitCode: this.exitCode, signal: this.signal ?? null, stderr: this.stderr() };
  }

  /** The last lines the child wrote to stderr, trimmed (empty when it wrote none). */
  stderr(): string {
    const lines = this.#tail.split(/\r?\n/).map((line) => line.trimEnd());
    if (this.#cut && lines.length > 1) lines.shift();
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    return lines.slice(-STDERR_TAIL_LINES).join("\n");
  }
}
