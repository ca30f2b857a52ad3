import { test } from "node:test";
import assert from "node:assert/strict";
import { boundPeerText, PEER_TEXT_MAX_BYTES } from "./bound-text.js";

test("boundPeerText keeps a text of at most 512 UTF-8 bytes whole", () => {
  assert.equal(PEER_TEXT_MAX_BYTES, 512);
  assert.equal(boundPeerText(""), "");
  assert.equal(boundPeerText("x".repeat(512)), "x".repeat(512));
  assert.equal(boundPeerText("\u00e9".repeat(256)), "\u00e9".repeat(256)); // 512 bytes of 2-byte characters
  assert.equal(boundPeerText("\u{1f600}".repeat(128)), "\u{1f600}".repeat(128)); // 512 bytes of 4-byte characters
});

test("boundPeerText cuts past 512 bytes at a character boundary, then ...", () => {
  assert.equal(boundPeerText("x".repeat(513)), `${"x".repeat(512)}...`);
  assert.equal(boundPeerText("x".repeat(60_000)), `${"x".repeat(512)}...`);
  // 511 ASCII bytes, then a 2-byte character that does not fit whole.
  assert.equal(boundPeerText(`${"x".repeat(511)}\u00e9\u00e9`), `${"x".repeat(511)}...`);
  // 510 bytes, then a 3-byte character: 513 > 512.
  assert.equal(boundPeerText(`${"x".repeat(510)}\u4e16y`), `${"x".repeat(510)}...`);
  // 509 bytes, then a surrogate pair (4 bytes): never split in half.
  assert.equal(boundPeerText(`${"x".repeat(509)}\u{1f600}`), `${"x".repeat(509)}...`);
  assert.equal(boundPeerText(`${"x".repeat(508)}\u{1f600}y`), `${"x".repeat(508)}\u{1f600}...`);
  // A lone surrogate is the 3 bytes of U+FFFD.
  assert.equal(boundPeerText(`${"x".repeat(509)}\ud800y`), `${"x".repeat(509)}\ud800...`);
  assert.equal(boundPeerText(`${"x".repeat(510)}\udc00`), `${"x".repeat(510)}...`);
});

test("boundPeerText takes another byte bound", () => {
  assert.equal(boundPeerText("abcdef", 3), "abc...");
  assert.equal(boundPeerText("abc", 3), "abc");
});
