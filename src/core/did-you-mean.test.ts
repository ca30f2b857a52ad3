import { test } from "node:test";
import assert from "node:assert/strict";
import { didYouMean, nearestName } from "./did-you-mean.js";

const FIELDS = ["name", "type", "tool", "httpConfig", "grpcConfig", "mcpConfig", "openAPIConfig", "clientConfig", "auth", "timeout", "delegation", "sandbox"];

test("nearestName: letter case first, then the fewest edits within the limit", () => {
  assert.equal(nearestName("httpconfig", FIELDS), "httpConfig");
  assert.equal(nearestName("openapiConfig", FIELDS), "openAPIConfig");
  assert.equal(nearestName("timout", FIELDS), "timeout");
  assert.equal(nearestName("grpcConfg", FIELDS), "grpcConfig");
  assert.equal(nearestName("typ", FIELDS), "type");
  assert.equal(nearestName("retries", FIELDS), undefined, "no near name");
  assert.equal(nearestName("ab", ["xy"]), undefined, "two edits of a 2-character name are not a typo");
  assert.equal(nearestName("jsn", ["json", "strict"]), "json");
});

test("didYouMean: the hint text, with the caller's quoting", () => {
  assert.equal(didYouMean("httpconfig", FIELDS), 'did you mean "httpConfig"?');
  assert.equal(didYouMean("jsn", ["json"], (n) => `--${n}`), "did you mean --json?");
  assert.equal(didYouMean("zzzzzz", FIELDS), undefined);
});
