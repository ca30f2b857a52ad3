export { createManualClock } from "./manual-clock.js";
export type { ManualClock } from "./manual-clock.js";
