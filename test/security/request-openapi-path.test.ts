// Issue #19 item 3: OpenAPI path parameters are escaped like urlTemplate values
// (Go url.PathEscape), and a dot segment (`.`, `..`, `%2e` forms) is refused
// before anything is sent, through the executor against a real loopback service.
import assert from "node:assert/strict";
import { loadToolRegistry } from "../../src/manifest/index.js";
import { createToolExecutor } from "../../src/index.js";
import { startOpenApiServer } from "../helpers/openapi-server.js";
import { faultTest } from "../faults/helpers/harness.js";

faultTest("an OpenAPI path parameter cannot climb out of the operation's path: dot segments refused, the rest escaped as one segment", async (ctx) => {
  const api = await startOpenApiServer();
  ctx.defer(() => api.close());
  const registry = loadToolRegistry(`
handlers:
  - name: pets
    type: openapi
    openAPIConfig:
      specURL: ${api.specURL}
      operationFilter: [getPetById]
`);
  const ex = createToolExecutor({ registry });
  ctx.deferClient(() => ex.close());
  for (const petId of ["..", ".", "%2e%2e", ".%2E", "%2E"]) {
    const out = await ex.execute({ id: `d-${petId}`, name: "getPetById", arguments: JSON.stringify({ petId }) });
    assert.equal(out.status, "error", JSON.stringify(out));
    assert.equal(out.status === "error" && out.message, `building OpenAPI request: path parameter "petId" would be a dot path segment; got ${JSON.stringify(petId)}`);
    assert.equal(out.status === "error" && out.error.code, "ERR_OMNIA_HTTP_REQUEST");
  }
  assert.deepEqual(api.apiRequests(), [], "a refused call sends nothing");
  for (const petId of ["../profile", "a/b?c#d", "...", "%2e%2e%2f", "x y", "{fields}"]) {
    const out = await ex.execute({ id: `s-${petId}`, name: "getPetById", arguments: JSON.stringify({ petId, fields: "name" }) });
    assert.equal(out.status, "success", JSON.stringify(out));
  }
  assert.deepEqual(
    api.apiRequests().map((q) => q.url),
    [
      "/v1/pets/..%2Fprofile?fields=name",
      "/v1/pets/a%2Fb%3Fc%23d?fields=name",
      "/v1/pets/...?fields=name",
      "/v1/pets/%252e%252e%252f?fields=name",
      "/v1/pets/x%20y?fields=name",
      "/v1/pets/%7Bfields%7D?fields=name",
    ],
  );
});
