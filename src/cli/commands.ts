import { callCommand } from "./call-command.js";
import type { CliCommand } from "./cli-command.js";
import { reconcileCommand } from "./reconcile-command.js";
import { validateCommand } from "./validate-command.js";
import { probeCommand } from "./probe-command.js";
import { backendCheckCommand } from "./backend-check-command.js";

/**
 * The `omnia-tools` subcommands, in the order the usage lists them. A new
 * subcommand (such as `call`) is one module exporting a {@link CliCommand} and
 * one entry here.
 * @internal Does not follow semver.
 */
export const COMMANDS: readonly CliCommand[] = Object.freeze([validateCommand, reconcileCommand, callCommand, probeCommand, backendCheckCommand]);
