export type { ToolCallRecord, Recorder, ToolCallStatus, ToolExecution } from "./record.js";
