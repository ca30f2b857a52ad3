// Removes the folders named on the command line (npm scripts run under sh, which has no rm -rf portability guarantee).
import { rmSync } from "node:fs";
for (const dir of process.argv.slice(2)) rmSync(dir, { recursive: true, force: true });
