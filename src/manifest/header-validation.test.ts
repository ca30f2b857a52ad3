import { test } from "node:test";
import assert from "node:assert/strict";
import { loadToolRegistry } from "./load-tool-registry.js";
import { ConfigError } from "../core/index.js";

const manifest = (httpConfig: string) => `handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig:
      endpoint: http://x/
${httpConfig}
`;

test("static headers and headerParams names that no request could carry are refused at load, with their paths", () => {
  assert.throws(
    () => loadToolRegistry(manifest('      headers: { "X A": "1", "X-B": "a\\nb", "X-C": "tab\\tok" }\n      headerParams: { q: "bad name", r: "X-Fine" }')),
    (e: unknown) =>
      e instanceof ConfigError &&
      e.message ===
        [
          'handlers[0].httpConfig.headers["X A"]: invalid header name; got "X A"',
          'handlers[0].httpConfig.headers["X-B"]: invalid header value: it holds a control character (CR, LF, NUL, ...)',
          'handlers[0].httpConfig.headerParams.q: invalid header name; got "bad name"',
        ].join("\n"),
  );
  const ok = loadToolRegistry(manifest('      headers: { "X-C": "tab\\tok", "X-D": "café" }'));
  const handler = ok.getHandler("h");
  assert.deepEqual(handler?.type === "http" && handler.httpConfig.headers, { "X-C": "tab\tok", "X-D": "café" });
});
