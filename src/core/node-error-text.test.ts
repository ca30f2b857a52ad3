import { test } from "node:test";
import assert from "node:assert/strict";
import { nodeErrorText } from "./node-error-text.js";

test("nodeErrorText: Node 24's --use-system-ca hint is dropped; every other text is unchanged", () => {
  assert.equal(
    nodeErrorText("unable to verify the first certificate; if the root CA is installed locally, try running Node.js with --use-system-ca"),
    "unable to verify the first certificate",
  );
  assert.equal(nodeErrorText("self-signed certificate in certificate chain"), "self-signed certificate in certificate chain");
  assert.equal(nodeErrorText("a; if the root CA is installed locally"), "a; if the root CA is installed locally");
});
