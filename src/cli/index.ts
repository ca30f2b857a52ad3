export { runCli, usage } from "./run-cli.js";
export { COMMANDS } from "./commands.js";
export { EXIT_OK, EXIT_FAILURE, EXIT_USAGE, nodeCliIo } from "./cli-command.js";
export type { CliCommand, CliIo } from "./cli-command.js";
