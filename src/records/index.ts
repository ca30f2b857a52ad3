export type { ToolCallRecord, ToolCallStart, Recorder, ToolCallStatus } from "./record.js";
export { createSessionApiRecorder } from "./session-api.js";
export type { SessionApiRecorder, SessionApiRecorderOptions, SessionApiRecorderStats } from "./session-api.js";
