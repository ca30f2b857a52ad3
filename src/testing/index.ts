export { createManualClock } from "./manual-clock.js";
export type { ManualClock } from "./manual-clock.js";
export { MemoryRecorder } from "./memory-recorder.js";
