// Runs api-extractor once per package entry (omnia-tools, /runtime, /conformance, /testing, /grpc, /ai-sdk, /openai, /anthropic).
// `--local` rewrites the reports in etc/; without it, any drift fails (CI mode).
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";
import { resolve } from "node:path";

const local = process.argv.includes("--local");
const entries = [
  { dts: "dist/index.d.ts", report: "omnia-tools.api.md" },
  { dts: "dist/runtime.d.ts", report: "omnia-tools-runtime.api.md" },
  { dts: "dist/conformance.d.ts", report: "omnia-tools-conformance.api.md" },
  { dts: "dist/testing.d.ts", report: "omnia-tools-testing.api.md" },
  { dts: "dist/grpc.d.ts", report: "omnia-tools-grpc.api.md" },
  { dts: "dist/ai-sdk.d.ts", report: "omnia-tools-ai-sdk.api.md" },
  { dts: "dist/openai.d.ts", report: "omnia-tools-openai.api.md" },
  { dts: "dist/anthropic.d.ts", report: "omnia-tools-anthropic.api.md" },
];
const configPath = resolve("api-extractor.json");
const base = ExtractorConfig.loadFile(configPath);
let failed = false;
for (const entry of entries) {
  const config = ExtractorConfig.prepare({
    configObject: {
      ...base,
      mainEntryPointFilePath: resolve(entry.dts),
      apiReport: { ...base.apiReport, reportFileName: entry.report },
    },
    configObjectFullPath: configPath,
    packageJsonFullPath: resolve("package.json"),
  });
  const result = Extractor.invoke(config, { localBuild: local, showVerboseMessages: false });
  if (!result.succeeded) {
    console.error(`api-report: ${entry.report}: ${result.errorCount} errors, ${result.warningCount} warnings${result.apiReportChanged ? " (the API changed: run `npm run api` and commit etc/)" : ""}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
