#!/usr/bin/env node
// The `omnia-tools` bin: `validate`, `reconcile` (and the subcommands listed in commands.ts).
import { nodeCliIo } from "./cli-command.js";
import { runCli } from "./run-cli.js";

process.exitCode = await runCli(process.argv.slice(2), nodeCliIo());
