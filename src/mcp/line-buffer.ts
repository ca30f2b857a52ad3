// The stdio transport's line reader, in linear time.
//
// Why: the SDK's ReadBuffer (`@modelcontextprotocol/sdk/shared/stdio.js`)
// concatenates its whole buffer with every chunk the child writes (64 KiB on a
// pipe) and searches all of it for '\n' again, so one line of n bytes costs
// O(n²/64 KiB): five 19 MiB lines took about 2 s of CPU each. This one keeps
// the chunks of the unfinished line in a list, searches only each new chunk
// for '\n' and joins a line's chunks once, when its '\n' arrives.
//
// It keeps the SDK buffer's contract, which StdioClientTransport relies on:
// `append` throws `ReadBuffer exceeded maximum size of <max> bytes` (and drops
// what it holds) when the bytes not yet read plus the new chunk pass the cap,
// after which the transport reports the error and closes the child; and
// `readMessage` returns the next message, `null` when no whole line is
// buffered, or throws for a line that is not a JSON-RPC message (the transport
// reports it and reads on).

/** The part of the SDK's `ReadBuffer` that `StdioClientTransport` uses. */
export interface StdioReadBuffer {
  append(chunk: Buffer): void;
  readMessage(): unknown;
  clear(): void;
}

/** Parses one line (without its line terminator) into a JSON-RPC message, or throws. */
export type LineDeserializer = (line: string) => unknown;

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * A line splitter with the SDK `ReadBuffer`'s contract whose cost is linear in
 * the bytes read.
 * @internal Does not follow semver.
 */
export class LineBuffer implements StdioReadBuffer {
  private readonly maxBytes: number;
  private readonly deserialize: LineDeserializer;
  /** Whole lines not yet read, without their '\n'. */
  private lines: Buffer[] = [];
  /** Index of the next line of `lines` to read. */
  private nextLine = 0;
  /** The pieces of the unfinished line, in order. */
  private partial: Buffer[] = [];
  /** Bytes not yet read: the unread whole lines with their '\n', and the unfinished line. */
  private held = 0;

  constructor(maxBytes: number, deserialize: LineDeserializer) {
    this.maxBytes = maxBytes;
    this.deserialize = deserialize;
  }

  append(chunk: Buffer): void {
    if (this.held + chunk.length > this.maxBytes) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBytes} bytes`);
    }
    this.held += chunk.length;
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      const tail = chunk.subarray(start, end);
      if (this.partial.length === 0) {
        this.lines.push(tail);
      } else {
        this.partial.push(tail);
        this.lines.push(Buffer.concat(this.partial));
        this.partial = [];
      }
      start = end + 1;
    }
    if (start < chunk.length) this.partial.push(start === 0 ? chunk : chunk.subarray(start));
  }

  readMessage(): unknown {
    if (this.nextLine === this.lines.length) return null;
    const raw = this.lines[this.nextLine] as Buffer;
    this.lines[this.nextLine++] = EMPTY;
    if (this.nextLine === this.lines.length) {
      this.lines = [];
      this.nextLine = 0;
    }
    this.held -= raw.length + 1;
    // As the SDK: one trailing CR (a CRLF line end) is not part of the message.
    const end = raw.length > 0 && raw[raw.length - 1] === CR ? raw.length - 1 : raw.length;
    return this.deserialize(raw.toString("utf8", 0, end));
  }

  clear(): void {
    this.lines = [];
    this.nextLine = 0;
    this.partial = [];
    this.held = 0;
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * Puts a {@link LineBuffer} in place of the SDK stdio transport's private read
 * buffer (`_readBuffer`). Returns `false`, changing nothing, when the transport
 * has no such field holding a buffer with `append`, `readMessage` and `clear`
 * (another SDK version): the SDK's own buffer then reads, in quadratic time.
 * @internal Does not follow semver.
 */
export function installLineBuffer(transport: object, maxBytes: number, deserialize: LineDeserializer): boolean {
  const holder = transport as { _readBuffer?: unknown };
  const current = holder._readBuffer as Partial<StdioReadBuffer> | null | undefined;
  if (typeof current !== "object" || current === null) return false;
  if (typeof current.append !== "function" || typeof current.readMessage !== "function" || typeof current.clear !== "function") return false;
  holder._readBuffer = new LineBuffer(maxBytes, deserialize);
  return true;
}
