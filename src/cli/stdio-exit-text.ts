import { stdioExitOf } from "../mcp/index.js";

/** Each line indented by two spaces; lines end at `\n` only (a `\r` is the peer's text, printed escaped). @internal Does not follow semver. */
export function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

/** How a stdio MCP server behind `error` ended, with its stderr's last lines indented (nothing for any other error). @internal Does not follow semver. */
export function stdioExitLines(error: unknown): string {
  const exit = stdioExitOf(error);
  if (exit === undefined) return "";
  const how = exit.exitCode === null ? `was killed by ${exit.signal ?? "a signal"}` : `exited with code ${exit.exitCode}`;
  if (exit.stderr === "") return `the MCP server ${how} and wrote nothing to stderr\n`;
  return `the MCP server ${how}; the end of its stderr:\n${indent(exit.stderr)}\n`;
}
