import { stdioExitHow, stdioExitOf } from "../mcp/index.js";

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
  if (exit.stderr === "") return `the MCP server ${stdioExitHow(exit)} and wrote nothing to stderr\n`;
  return `the MCP server ${stdioExitHow(exit)}; the end of its stderr:\n${indent(exit.stderr)}\n`;
}

/** `command`'s stderr lines when discovering the mcp and openapi tools failed: the reason, then how a stdio server ended. @internal Does not follow semver. */
export function discoveryFailureText(command: string, error: unknown): string {
  return `omnia-tools ${command}: discovering the tools of the mcp and openapi handlers failed: ${error instanceof Error ? error.message : String(error)}\n${stdioExitLines(error)}`;
}
