import type { Logger, LogFields } from "../../src/core/index.js";

/** One captured log line. */
export interface LogLine {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  fields: LogFields | undefined;
}

/** A Logger that records every line, for asserting what was logged. */
export function createCaptureLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: LogLine["level"]) => (message: string, fields?: LogFields) => {
    lines.push({ level, message, fields });
  };
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
