// Runs the omnia-tools binary from source as a child process, as a user's shell would.
import { spawn } from "node:child_process";
import { LOADER, sourcePath } from "./source.js";

const BIN = sourcePath("src/cli/omnia-tools.ts");

/** What one run printed and how it exited. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `omnia-tools <args>` (compiled, or through tsx from the sources), with no standard input. */
export function omniaTools(...args: string[]): Promise<CliRun> {
  return runNode([...LOADER, BIN, ...args]);
}

/** `node <args>` (this process's node) with no standard input, and `env` over this process's environment. */
export function runNode(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
