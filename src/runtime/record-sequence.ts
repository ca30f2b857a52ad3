import type { RecordSequence } from "../executor/index.js";

/**
 * The record positions of one turn or invocation: `next()` gives base + 1,
 * base + 2, …; `last` is the last one given (the base before any). Pass it as
 * the executor's `ctx.recordSequence`; the turn's `Done` reports `last` as its
 * `record_sequence_high_water` unless the handler sets one.
 * @public
 */
export interface TurnRecordSequence extends RecordSequence {
  next(): bigint;
  /** The last position handed out; the facade's base when none was. */
  readonly last: bigint;
}

/** A sequence counting from `base`. @internal Does not follow semver. */
export function createRecordSequence(base: bigint): TurnRecordSequence {
  let last = base;
  return {
    next: () => {
      // The facade's base may sit at the end of int64: no position past it (the executor logs the throw, the record goes without one).
      if (last >= 0x7fffffffffffffffn) throw new RangeError("record positions: past the largest int64");
      return (last += 1n);
    },
    get last() {
      return last;
    },
  };
}
