import { test } from "node:test";
import assert from "node:assert/strict";
import { redactUrl } from "./redact-url.js";

test("redactUrl hides the userinfo and the values of the named query keys, keeping everything else byte for byte", () => {
  assert.equal(redactUrl("http://u:p@h:1/x?a=1#f"), "http://***:***@h:1/x?a=1#f");
  assert.equal(redactUrl("http://u@h/x"), "http://***@h/x");
  assert.equal(redactUrl("http://:p@h/x"), "http://:***@h/x");
  assert.equal(redactUrl("http://h/x@y?z=1"), "http://h/x@y?z=1", "an @ in the path is not userinfo");
  assert.equal(redactUrl("http://a@b@h/x"), "http://***@h/x", "the last @ ends the userinfo, as the URL parser reads it");
  assert.equal(redactUrl("http://h/x?api_key=K&q=cats&api%5Fkey=K2&tenant&t+x=1#api_key=K", ["api_key", "tenant", "t x"]), "http://h/x?api_key=***&q=cats&api%5Fkey=***&tenant&t+x=***#api_key=K");
  assert.equal(redactUrl("http://h/x?bad=%zz", ["bad"]), "http://h/x?bad=***");
  assert.equal(redactUrl("not a url ?k=v", ["k"]), "not a url ?k=***");
  assert.equal(redactUrl("http://h/x", ["k"]), "http://h/x");
});
