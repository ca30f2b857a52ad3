import type { ClientMessage } from "../contract/index.js";

/**
 * One read from the request stream: a message, its clean end, or a receive
 * error (never thrown, so a read nobody awaits any more cannot become an
 * unhandled rejection).
 * @internal Does not follow semver.
 */
export type Inbound =
  | { readonly kind: "message"; readonly message: ClientMessage }
  | { readonly kind: "end" }
  | { readonly kind: "error"; readonly error: unknown };

/**
 * The single reader of a `Converse` request stream, shared by the turn loop
 * and the client-tool pump. It never reads ahead: a message is pulled only
 * when one of them needs it, and a read that turned out not to be wanted is
 * handed back with {@link InboundReader.unread}.
 * @internal Does not follow semver.
 */
export class InboundReader {
  readonly #it: AsyncIterator<ClientMessage>;
  #stash: Inbound | undefined;
  #finished: Inbound | undefined;

  constructor(requests: AsyncIterable<ClientMessage>) {
    this.#it = requests[Symbol.asyncIterator]();
  }

  async read(): Promise<Inbound> {
    const stashed = this.#stash;
    if (stashed !== undefined) {
      this.#stash = undefined;
      return stashed;
    }
    if (this.#finished !== undefined) return this.#finished;
    try {
      const r = await this.#it.next();
      if (r.done === true) return (this.#finished = { kind: "end" });
      return { kind: "message", message: r.value };
    } catch (error) {
      return (this.#finished = { kind: "error", error });
    }
  }

  /** Gives a read back; the next {@link InboundReader.read} returns it. */
  unread(inbound: Inbound): void {
    this.#stash = inbound;
  }
}
