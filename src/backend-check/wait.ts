// How long the checker waits on a peer, and how a check reports: shared by the
// handler checks and gRPC ListTools.
import type { Clock } from "../core/index.js";
import type { HandlerConfig } from "../manifest/index.js";
import type { BackendCheckName, BackendCheckStatus } from "./types.js";

/** Reports one check's verdict on the handler (or tool) it was made for. @internal */
export type Emit = (check: BackendCheckName, status: BackendCheckStatus, reason: string, fix?: string) => void;

/** How long the checker waits on a handler's peer when the handler sets no timeout: Omnia's default handler timeout. @internal */
export const NO_TIMEOUT_WAIT_MS = 30_000;

/** The handler's timeout, or {@link NO_TIMEOUT_WAIT_MS} when it sets none: the checker never waits on a peer unbounded. @internal */
export function waitFor(handler: HandlerConfig): number {
  return handler.timeoutMs > 0 ? handler.timeoutMs : NO_TIMEOUT_WAIT_MS;
}

/** What {@link within} gives: the promise's value, or that the wait ran out first. @internal */
export type Settled<T> = { readonly settled: true; readonly value: T } | { readonly settled: false };

/** `promise`, or `{ settled: false }` after `ms` on the clock; a rejection of `promise` before that rejects; one after it is dropped. @internal */
export function within<T>(promise: Promise<T>, ms: number, clock: Clock): Promise<Settled<T>> {
  return new Promise((resolve, reject) => {
    const timer = clock.setTimeout(() => resolve({ settled: false }), ms);
    promise.then(
      (value) => {
        timer.clear();
        resolve({ settled: true, value });
      },
      (error: unknown) => {
        timer.clear();
        reject(error);
      },
    );
  });
}
