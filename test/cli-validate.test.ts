// `omnia-tools validate` on real manifests (Omnia's ToolRegistry sample and variants of it with typos):
// errors and warnings together in document order, did-you-mean hints, duration units, and --strict (issues #23, #20).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { omniaTools } from "./helpers/cli.js";

const SAMPLE = "test/fixtures/real-world/omnia/omnia_v1alpha1_toolregistry.yaml";
const TYPOS = "test/fixtures/manifests/support-tools-typos.yaml";
const STRICT = "test/fixtures/manifests/support-tools-strict.yaml";
const UNITS = "valid units are ns, us, ms, s, m, h";
const REJECTS = "the Kubernetes API server rejects it under strict field validation";

describe("omnia-tools validate", { concurrency: true }, () => {
  test("a typo: the missing field's error and the unknown field's warning together, in document order, with the field meant", async () => {
    const run = await omniaTools("validate", TYPOS);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, "");
    assert.equal(
      run.stderr,
      `${TYPOS}: invalid ToolRegistry: 2 problems and 1 warning (ERR_OMNIA_CONFIG)\n` +
        `${TYPOS}:11: spec.handlers[0].httpConfig: httpConfig is required for http handlers\n` +
        `${TYPOS}:14: warning: spec.handlers[0].httpconfig: unknown field; it is ignored (did you mean "httpConfig"?)\n` +
        `${TYPOS}:61: spec.handlers[0].timeout: invalid duration "5 sec": unknown unit " sec"; ${UNITS}\n`,
    );
  });

  test("--json lists the warnings beside the errors", async () => {
    const run = await omniaTools("validate", "--json", TYPOS);
    assert.equal(run.code, 2);
    const out = JSON.parse(run.stdout) as { valid: boolean; errors: { path: string }[]; warnings: { path: string; line: number; message: string }[] };
    assert.equal(out.valid, false);
    assert.deepEqual(out.errors.map((e) => e.path), ["spec.handlers[0].httpConfig", "spec.handlers[0].timeout"]);
    assert.deepEqual(out.warnings, [{ path: "spec.handlers[0].httpconfig", line: 14, message: 'unknown field; it is ignored (did you mean "httpConfig"?)' }]);
  });

  test("Omnia's sample passes --strict: exit 0, no warnings", async () => {
    const run = await omniaTools("validate", "--strict", SAMPLE);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    assert.match(run.stdout, /^test\/fixtures\/real-world\/omnia\/omnia_v1alpha1_toolregistry\.yaml: valid ToolRegistry "support-tools": 2 handlers, 2 tools\n/);
  });

  test("without --strict, an unknown field and a numeric backoffMultiplier are warnings: exit 0", async () => {
    const run = await omniaTools("validate", STRICT);
    assert.equal(run.code, 0);
    assert.equal(
      run.stderr,
      `${STRICT}:20: warning: spec.handlers[0].httpConfig.retryPolicy.backoffMultiplier: expected a string matching ^[0-9]+(\\.[0-9]+)?$ (the CRD's type); got the number 2: write "2" for the Kubernetes API server to accept it\n` +
        `${STRICT}:111: warning: spec.handlers[1].timeoutSeconds: unknown field; it is ignored\n`,
    );
  });

  test("--strict: what the API server would reject is an error, exit 1", async () => {
    const run = await omniaTools("validate", "--strict", STRICT);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "");
    assert.equal(
      run.stderr,
      `${STRICT}: invalid ToolRegistry: 2 problems (ERR_OMNIA_CONFIG)\n` +
        `${STRICT}:20: spec.handlers[0].httpConfig.retryPolicy.backoffMultiplier: expected a string matching ^[0-9]+(\\.[0-9]+)?$ (the CRD's type); got the number 2: write "2" for the Kubernetes API server to accept it\n` +
        `${STRICT}:111: spec.handlers[1].timeoutSeconds: unknown field; ${REJECTS}\n`,
    );
  });

  test("--strict on a manifest that is invalid anyway: exit 2, the unknown field an error with its hint", async () => {
    const run = await omniaTools("validate", "--strict", TYPOS);
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      `${TYPOS}: invalid ToolRegistry: 3 problems (ERR_OMNIA_CONFIG)\n` +
        `${TYPOS}:11: spec.handlers[0].httpConfig: httpConfig is required for http handlers\n` +
        `${TYPOS}:14: spec.handlers[0].httpconfig: unknown field (did you mean "httpConfig"?); ${REJECTS}\n` +
        `${TYPOS}:61: spec.handlers[0].timeout: invalid duration "5 sec": unknown unit " sec"; ${UNITS}\n`,
    );
  });

  test("a misspelt flag or command names the one meant; an unknown one keeps Node's text", async () => {
    const flag = await omniaTools("validate", "--strct", SAMPLE);
    assert.equal(flag.code, 2);
    assert.equal(flag.stderr, 'omnia-tools validate: unknown option "--strct" (did you mean "--strict"?)\nUsage: omnia-tools validate <registry.yaml> [--strict] [--target <list>] [--json]\n');
    const json = await omniaTools("validate", "--jsn", SAMPLE);
    assert.equal(json.stderr, 'omnia-tools validate: unknown option "--jsn" (did you mean "--json"?)\nUsage: omnia-tools validate <registry.yaml> [--strict] [--target <list>] [--json]\n');
    const command = await omniaTools("valdate", SAMPLE);
    assert.equal(command.code, 2);
    assert.match(command.stderr, /^omnia-tools: unknown command "valdate" \(did you mean "validate"\?\)\n\nUsage: omnia-tools <command>/);
  });

  test("reconcile, call and probe print a registry's problems the same way", async () => {
    for (const args of [["reconcile", "--pack", "examples/pack.json", "--registry", TYPOS], ["probe", "--registry", TYPOS], ["call", "--registry", TYPOS, "order_lookup", "{}"]]) {
      const run = await omniaTools(...args);
      assert.equal(run.code, 2, args[0]);
      assert.equal(
        run.stderr,
        `${TYPOS}: invalid ToolRegistry: 2 problems and 1 warning (ERR_OMNIA_CONFIG)\n` +
          `${TYPOS}:11: spec.handlers[0].httpConfig: httpConfig is required for http handlers\n` +
          `${TYPOS}:14: warning: spec.handlers[0].httpconfig: unknown field; it is ignored (did you mean "httpConfig"?)\n` +
          `${TYPOS}:61: spec.handlers[0].timeout: invalid duration "5 sec": unknown unit " sec"; ${UNITS}\n`,
        args[0],
      );
    }
  });
});
