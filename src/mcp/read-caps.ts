// How much of an MCP server's HTTP answer the client reads: every body is cut
// off once one message passes the cap, so a hostile server cannot make the
// client buffer more. A plain body (a JSON answer) is one message. An event
// stream (the sse transport's stream, the streamable-http GET stream, and a
// POST answered with text/event-stream) is counted per event: the bytes since
// the last event boundary (a blank line), which is what the SDK's event
// parser holds until it dispatches the event. A stream of events each under
// the cap is read for as long as the session lives.

/** The text of the error a body is cut off with. */
export function capErrorText(maxBytes: number): string {
  return `MCP response larger than the ${maxBytes}-byte cap`;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Counts the bytes of the event being received on an event stream (the
 * `text/event-stream` format: lines ended by CR, LF or CRLF; an empty line
 * ends an event). Comment and field lines alike count toward the event they
 * precede.
 * @internal Does not follow semver.
 */
export class SseEventMeter {
  private readonly maxBytes: number;
  /** Bytes since the last event boundary, line ends included (the LF of a CRLF excepted). */
  private eventBytes = 0;
  /** Bytes of the current line before its line end. */
  private lineBytes = 0;
  /** The last byte seen was a CR: an LF right after it is the same line end. */
  private afterCR = false;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Counts `chunk`; `false` once the event being received has passed the cap. */
  push(chunk: Uint8Array): boolean {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const n = bytes.length;
    let i = 0;
    if (this.afterCR && n > 0) {
      this.afterCR = false;
      if (bytes[0] === LF) i = 1;
    }
    // The next LF and CR at or after i, each searched again only once passed (-1: none left).
    let nextLF = bytes.indexOf(LF, i);
    let nextCR = bytes.indexOf(CR, i);
    while (i < n) {
      if (nextLF !== -1 && nextLF < i) nextLF = bytes.indexOf(LF, i);
      if (nextCR !== -1 && nextCR < i) nextCR = bytes.indexOf(CR, i);
      const end = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR);
      if (end === -1) {
        this.lineBytes += n - i;
        this.eventBytes += n - i;
        break;
      }
      this.lineBytes += end - i;
      this.eventBytes += end - i + 1;
      if (this.eventBytes > this.maxBytes) return false;
      if (this.lineBytes === 0) this.eventBytes = 0;
      else this.lineBytes = 0;
      i = end + 1;
      if (bytes[end] === CR) {
        if (i === n) this.afterCR = true;
        else if (bytes[i] === LF) i++;
      }
    }
    return this.eventBytes <= this.maxBytes;
  }
}

/** Whether a response's content type is `text/event-stream` (parameters ignored). */
export function isEventStream(response: Response): boolean {
  const type = response.headers.get("content-type");
  return type !== null && type.split(";")[0]?.trim().toLowerCase() === "text/event-stream";
}

/**
 * `response` with its body cut off by an error once one event passes
 * `maxBytes` (see {@link SseEventMeter}); `onCap` is called with that error.
 * @internal Does not follow semver.
 */
export function cappedEvents(response: Response, maxBytes: number, onCap: (error: Error) => void, done?: () => void): Response {
  const meter = new SseEventMeter(maxBytes);
  return limited(response, maxBytes, onCap, (chunk) => meter.push(chunk), done);
}

/**
 * `response` with its body cut off by an error once it passes `maxBytes` in
 * all; `onCap` is called with that error.
 * @internal Does not follow semver.
 */
export function cappedBody(response: Response, maxBytes: number, onCap: (error: Error) => void, done?: () => void): Response {
  let seen = 0;
  return limited(response, maxBytes, onCap, (chunk) => (seen += chunk.byteLength) <= maxBytes, done);
}

// One ReadableStream pulling from the body's reader, not a TransformStream piped to: a call in flight holds
// one stream and one reader here instead of two streams and a pipe's state (issue #38: heap per MCP call).
// `done` is called once: when the body ends, fails, is cut off or is cancelled.
function limited(response: Response, maxBytes: number, onCap: (error: Error) => void, fits: (chunk: Uint8Array) => boolean, done?: () => void): Response {
  const body = response.body;
  if (body === null) {
    done?.();
    return response;
  }
  const reader = body.getReader();
  const capped = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          // A failing read errors this stream with the body's own error, as a pipe would.
          done?.();
          throw error;
        }
        if (chunk.done) {
          done?.();
          controller.close();
          return;
        }
        if (fits(chunk.value)) {
          controller.enqueue(chunk.value);
          return;
        }
        // Cancelling the body closes the connection: nothing more is read.
        const error = new Error(capErrorText(maxBytes));
        controller.error(error);
        done?.();
        onCap(error);
        await reader.cancel(error).catch(() => undefined);
      },
      cancel(reason) {
        done?.();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(capped, { status: response.status, statusText: response.statusText, headers: response.headers });
}
