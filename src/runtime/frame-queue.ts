import { ClosedError } from "../core/index.js";

interface Item<T> {
  readonly frame: T;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

/**
 * The outbound half of a stream: producers push frames, one generator drains
 * them in push order. A push settles once its frame has been handed on (the
 * consumer asked for the next frame), so a producer that awaits its sends is
 * paced by the transport.
 * @internal Does not follow semver.
 */
export class FrameQueue<T> {
  readonly #items: Item<T>[] = [];
  #wake: (() => void) | undefined;
  #ended = false;
  #endError: unknown;
  #closed: Error | undefined;

  /** Queues a frame. Rejects with `ClosedError` once the consumer is gone or the queue ended. */
  push(frame: T): Promise<void> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed);
    if (this.#ended) return Promise.reject(new ClosedError("converse: the stream has ended; the frame was not sent"));
    return new Promise<void>((resolve, reject) => {
      this.#items.push({ frame, resolve, reject });
      this.#signal();
    });
  }

  /** No more frames: the drain ends after the queued ones, throwing `error` when given. */
  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#endError = error;
    this.#signal();
  }

  /** The consumer is gone: every queued and future push rejects with `error`. */
  close(error: Error): void {
    if (this.#closed !== undefined) return;
    this.#closed = error;
    this.#ended = true;
    for (const item of this.#items.splice(0)) item.reject(error);
    this.#signal();
  }

  async *drain(): AsyncGenerator<T, void, undefined> {
    for (;;) {
      const item = this.#items.shift();
      if (item === undefined) {
        if (this.#closed !== undefined) return;
        if (this.#ended) {
          if (this.#endError !== undefined) throw this.#endError;
          return;
        }
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        continue;
      }
      yield item.frame;
      item.resolve();
    }
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
