export type { ToolCallRecord, Recorder, ToolCallStatus } from "./record.js";
