/**
 * omnia-tools/testing: helpers for test harnesses.
 *
 * @packageDocumentation
 */
export { createManualClock, MemoryRecorder } from "./testing/index.js";
export type { ManualClock } from "./testing/index.js";
export type { Clock, TimerHandle } from "./core/index.js";
export type { Recorder, ToolCallRecord, ToolCallStatus } from "./records/index.js";
export type { JsonValue } from "./core/index.js";
