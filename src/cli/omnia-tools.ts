#!/usr/bin/env node
// The `omnia-tools` bin: `validate`, `reconcile` (and the subcommands listed in commands.ts).
import { nodeCliIo } from "./cli-command.js";
import { runCli } from "./run-cli.js";

// `omnia-tools validate x | head` closes the pipe early: stop quietly, as Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
  });
}

process.exitCode = await runCli(process.argv.slice(2), nodeCliIo());
