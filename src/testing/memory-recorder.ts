import type { Recorder, ToolCallRecord } from "../records/index.js";

/**
 * A {@link Recorder} that keeps every tool-call record in memory, in order.
 * @example
 * ```ts
 * const recorder = new MemoryRecorder();
 * const executor = createToolExecutor({ registry, recorder });
 * await executor.execute({ id: "c1", name: "lookup", arguments: "{}" });
 * assert.equal(recorder.records[0]?.status, "success");
 * ```
 * @public
 */
export class MemoryRecorder implements Recorder {
  /** Every record, oldest first. */
  readonly records: ToolCallRecord[] = [];

  record(record: ToolCallRecord): void {
    this.records.push(record);
  }

  /** The records of one call id. */
  forCall(callId: string): ToolCallRecord[] {
    return this.records.filter((r) => r.callId === callId);
  }

  /** Forgets every record. */
  clear(): void {
    this.records.length = 0;
  }
}
