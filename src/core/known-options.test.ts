import { test } from "node:test";
import assert from "node:assert/strict";
import { InvalidOptionError } from "./errors.js";
import { rejectUnknownOptions } from "./known-options.js";

test("rejectUnknownOptions: the first unknown key, with every known name, from a list or a set", () => {
  assert.doesNotThrow(() => rejectUnknownOptions("f", { a: 1, b: undefined }, ["a", "b"]));
  for (const known of [["a", "b"], new Set(["a", "b"])]) {
    assert.throws(
      () => rejectUnknownOptions("createThing", { a: 1, c: 2, d: 3 }, known),
      (e: unknown) => e instanceof InvalidOptionError && e.code === "ERR_OMNIA_INVALID_OPTION" && e.message === 'createThing: unknown option "c"; expected one of a, b',
    );
  }
});

test("rejectUnknownOptions: a likely typo names the option meant", () => {
  assert.throws(
    () => rejectUnknownOptions("createToolExecutor", { registy: 1 }, ["registry", "recorder"]),
    (e: unknown) => e instanceof InvalidOptionError && e.message === 'createToolExecutor: unknown option "registy" (did you mean "registry"?); expected one of registry, recorder',
  );
});
