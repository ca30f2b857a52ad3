import { test } from "node:test";
import assert from "node:assert/strict";
import {
  AbortedError,
  ClosedError,
  ConfigError,
  ErrorCode,
  InvalidOptionError,
  OmniaToolsError,
  TimeoutError,
  errorBrand,
  isOmniaToolsError,
  toError,
} from "./errors.js";

test("each error class has its stable code and its class name", () => {
  const cases: [OmniaToolsError, string, string][] = [
    [new ConfigError({ path: "a", message: "b" }), "ERR_OMNIA_CONFIG", "ConfigError"],
    [new InvalidOptionError("x"), "ERR_OMNIA_INVALID_OPTION", "InvalidOptionError"],
    [new ClosedError("x"), "ERR_OMNIA_CLOSED", "ClosedError"],
    [new AbortedError("x"), "ERR_OMNIA_ABORTED", "AbortedError"],
    [new TimeoutError(250), "ERR_OMNIA_TIMEOUT", "TimeoutError"],
  ];
  for (const [error, code, name] of cases) {
    assert.equal(error.code, code);
    assert.equal(error.name, name);
    assert.ok(error instanceof OmniaToolsError);
    assert.ok(error instanceof Error);
    assert.ok(isOmniaToolsError(error));
  }
  assert.equal(ErrorCode.CONFIG, "ERR_OMNIA_CONFIG");
});

test("instanceof checks the brand, so a copy from another install still matches", () => {
  // A foreign object carrying the brands, as an instance from a second copy of the package would.
  const foreign = new Error("from another copy");
  Object.defineProperty(foreign, Symbol.for("omnia-tools.error"), { value: true });
  Object.defineProperty(foreign, errorBrand("ERR_OMNIA_CONFIG"), { value: true });
  assert.ok(foreign instanceof OmniaToolsError);
  assert.ok(foreign instanceof ConfigError);
  assert.ok(!(foreign instanceof TimeoutError));
  assert.ok(isOmniaToolsError(foreign));
  assert.ok(!isOmniaToolsError(new Error("plain")));
  assert.ok(!isOmniaToolsError(null));
  assert.ok(!isOmniaToolsError("ERR_OMNIA_CONFIG"));
});

test("subclass checks are exact: a TimeoutError is not a ConfigError", () => {
  const timeout = new TimeoutError(30_000);
  assert.ok(!(timeout instanceof ConfigError));
  assert.ok(timeout instanceof TimeoutError);
  assert.equal(timeout.message, "timed out after 30000ms");
  assert.equal(timeout.timeoutMs, 30_000);
});

test("a subclass of ConfigError is branded with both codes", () => {
  class DuplicateError extends ConfigError {
    static override readonly code = "ERR_OMNIA_DUPLICATE_TOOL";
  }
  const e = new DuplicateError({ path: "spec.handlers[1].tool.name", message: 'duplicate tool "x"' });
  assert.equal(e.code, "ERR_OMNIA_DUPLICATE_TOOL");
  assert.equal(e.name, "DuplicateError");
  assert.ok(e instanceof ConfigError);
  assert.ok(e instanceof DuplicateError);
  assert.ok(!(new ConfigError([]) instanceof DuplicateError));
});

test("ConfigError lists every issue with its path, one per line, and keeps the cause", () => {
  const cause = new Error("root");
  const e = new ConfigError(
    [
      { path: "spec.handlers[2].httpConfig.method", message: 'expected one of GET|POST|PUT|PATCH|DELETE; got "FETCH"' },
      { path: "", message: "document is empty" },
    ],
    { cause },
  );
  assert.equal(
    e.message,
    'spec.handlers[2].httpConfig.method: expected one of GET|POST|PUT|PATCH|DELETE; got "FETCH"\ndocument is empty',
  );
  assert.equal(e.issues.length, 2);
  assert.equal(e.issues[0]?.path, "spec.handlers[2].httpConfig.method");
  assert.ok(Object.isFrozen(e.issues));
  assert.equal(e.cause, cause);
});

test("toError normalises non-errors and never returns them raw", () => {
  const err = new Error("x");
  assert.equal(toError(err), err);
  assert.equal(toError("boom").message, "non-error thrown: boom");
  assert.equal(toError({ a: 1 }).message, 'non-error thrown: {"a":1}');
  assert.equal(toError(undefined).message, "non-error thrown: undefined");
  const circular: Record<string, unknown> = {};
  circular["self"] = circular;
  assert.equal(toError(circular).message, "non-error thrown: [object Object]");
});
