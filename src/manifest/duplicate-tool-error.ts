import { ConfigError, ErrorCode, type OmniaToolsErrorOptions } from "../core/index.js";
import type { ManifestIssue } from "./types.js";

/**
 * Two handlers serve the same tool name.
 * @public
 */
export interface DuplicateTool {
  /** The tool name served twice. */
  readonly toolName: string;
  /** The two handlers, in manifest order. */
  readonly handlers: readonly [string, string];
}

/**
 * Thrown by `loadToolRegistry` when the only problems in a manifest are tool
 * names served by more than one handler (code `ERR_OMNIA_DUPLICATE_TOOL`).
 * Omnia lets the later registration win in a non-deterministic order; this
 * library refuses the manifest instead.
 *
 * It is a {@link ConfigError}: `issues` lists every duplicate with its path, and
 * the message names both handlers. When a manifest has other problems as well,
 * a plain `ConfigError` is thrown, and its duplicate issues carry
 * `code: "ERR_OMNIA_DUPLICATE_TOOL"`.
 * @public
 */
export class DuplicateToolError extends ConfigError {
  static override readonly code = ErrorCode.DUPLICATE_TOOL;
  declare readonly code: typeof ErrorCode.DUPLICATE_TOOL;
  /** Every duplicated tool name and the handlers that serve it. */
  readonly duplicates: readonly DuplicateTool[];

  constructor(issues: readonly ManifestIssue[], duplicates: readonly DuplicateTool[], options?: OmniaToolsErrorOptions) {
    super(issues, options);
    this.duplicates = Object.freeze(duplicates.map((d) => Object.freeze({ toolName: d.toolName, handlers: Object.freeze([...d.handlers]) as readonly [string, string] })));
  }
}
