import { Code, ConnectError } from "@connectrpc/connect";
import type { ServerMessage } from "../contract/index.js";

/** What a probe read from a Converse stream. @internal Does not follow semver. */
export interface FramesRead {
  readonly frames: readonly ServerMessage[];
  /** The receive error that stopped the read; `undefined` for a clean end of stream or the frame limit. */
  readonly error: ConnectError | undefined;
}

/**
 * Receives up to `max` frames. A clean end of stream stops without error; any
 * other receive error stops and is returned with the frames read so far
 * (Omnia's `readFrames`). Reading stops at `max`: the caller cancels the call
 * and then {@link drain}s it.
 * @internal Does not follow semver.
 */
export async function readFrames(it: AsyncIterator<ServerMessage>, max: number): Promise<FramesRead> {
  const frames: ServerMessage[] = [];
  try {
    while (frames.length < max) {
      const next = await it.next();
      if (next.done === true) break;
      frames.push(next.value);
    }
    return { frames, error: undefined };
  } catch (e) {
    return { frames, error: ConnectError.from(e) };
  }
}

/**
 * Reads a cancelled call to its end, discarding what is left. connect's
 * response iterators have no `return()`: a call releases its deadline timer
 * and its HTTP/2 stream only once a `next()` settles with the end or an error,
 * which after a cancel happens at once.
 * @internal Does not follow semver.
 */
export async function drain(it: AsyncIterator<unknown>): Promise<void> {
  try {
    while ((await it.next()).done !== true);
  } catch {
    // the cancellation itself
  }
}

/**
 * A "transport crash": the status a runtime that fell over rather than handling
 * input on-protocol produces — `Internal`, `Unknown` or `DataLoss`. Every other
 * code (`Unimplemented`, `InvalidArgument`, `DeadlineExceeded`, `Canceled`,
 * `Unavailable`, …) is not a crash.
 * @internal Does not follow semver.
 */
export function isTransportCrash(error: ConnectError | undefined): boolean {
  return error !== undefined && (error.code === Code.Internal || error.code === Code.Unknown || error.code === Code.DataLoss);
}
