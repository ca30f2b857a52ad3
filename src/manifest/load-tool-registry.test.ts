// Every ToolRegistry example of http.md §1 / §4.5 and runtime-tools.md §4.1, §7 loads,
// with the documented defaults applied.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { LogFields, Logger } from "../core/index.js";
import { loadToolRegistry } from "./load-tool-registry.js";
import type { HandlerConfig, HttpHandlerConfig, ToolRegistry } from "./types.js";

const TOOL = `
      tool:
        name: t
        description: d
        inputSchema: {type: object}`;

/** A resource with one handler, written as the YAML lines of that handler's body. */
function resource(handlerBody: string): string {
  return `apiVersion: omnia.altairalabs.ai/v1alpha1
kind: ToolRegistry
metadata:
  name: reg
spec:
  handlers:
    - name: h
${handlerBody}`;
}

function httpHandler(httpConfig: string, extra = ""): string {
  return resource(`      type: http${TOOL}
      httpConfig:
${httpConfig}${extra}`);
}

function only(registry: ToolRegistry): HandlerConfig {
  assert.equal(registry.handlers.length, 1);
  return registry.handlers[0] as HandlerConfig;
}

function onlyHttp(registry: ToolRegistry): HttpHandlerConfig {
  const h = only(registry);
  assert.equal(h.type, "http");
  return h as HttpHandlerConfig;
}

function recordingLogger(): Logger & { warnings: [string, LogFields | undefined][]; infos: string[] } {
  const warnings: [string, LogFields | undefined][] = [];
  const infos: string[] = [];
  const noop = (): void => {};
  return { warnings, infos, debug: noop, error: noop, info: (m) => void infos.push(m), warn: (m, f) => void warnings.push([m, f]) };
}

describe("http handler defaults (http.md §1.2, §1.3, §1.6)", () => {
  test("a minimal http handler gets POST, application/json, 30s, no retries, no auth", () => {
    const registry = loadToolRegistry(httpHandler("        endpoint: https://api.example.com/t"));
    const h = onlyHttp(registry);
    assert.deepEqual(h, {
      name: "h",
      type: "http",
      endpoint: "https://api.example.com/t",
      timeoutMs: 30_000,
      tool: { name: "t", description: "d", inputSchema: { type: "object" } },
      httpConfig: {
        endpoint: "https://api.example.com/t",
        method: "POST",
        headers: {},
        contentType: "application/json",
        headersFromSecret: {},
        queryParams: [],
        headerParams: {},
        staticQuery: {},
        redact: [],
      },
    });
    assert.equal(h.auth, undefined);
    assert.equal(h.httpConfig.retryPolicy, undefined);
    assert.deepEqual(registry.tools, [
      { name: "t", description: "d", inputSchema: { type: "object" }, handlerName: "h", handlerType: "http", execution: "server" },
    ]);
  });

  test("method is upper-cased and any token is kept; an empty method means POST", () => {
    assert.equal(onlyHttp(loadToolRegistry(httpHandler("        endpoint: e\n        method: put"))).httpConfig.method, "PUT");
    assert.equal(onlyHttp(loadToolRegistry(httpHandler("        endpoint: e\n        method: FOO"))).httpConfig.method, "FOO");
    assert.equal(onlyHttp(loadToolRegistry(httpHandler('        endpoint: e\n        method: ""'))).httpConfig.method, "POST");
  });

  test("every httpConfig field is kept: maps, lists, staticBody as parsed JSON, JMESPath verbatim", () => {
    const h = onlyHttp(
      loadToolRegistry(
        httpHandler(`        endpoint: https://api/t
        method: GET
        headers: {X-Static: "1", Content-Type: text/x}
        contentType: application/merge-patch+json
        headersFromSecret:
          X-Api-Key: {name: api-secret, key: key}
        queryParams: [q, page]
        headerParams: {trace: X-Trace}
        staticQuery: {api_key: k1}
        staticBody: {source: omnia, nested: {a: 1}, list: [1, "two", null, true]}
        bodyMapping: "{q: query, src: source}"
        responseMapping: "results[].{name: name, price: price, inStock: available}"
        redact: [ssn, token]
        urlTemplate: https://api/users/{id}/posts`),
      ),
    );
    assert.deepEqual(h.httpConfig, {
      endpoint: "https://api/t",
      method: "GET",
      headers: { "X-Static": "1", "Content-Type": "text/x" },
      contentType: "application/merge-patch+json",
      headersFromSecret: { "X-Api-Key": { name: "api-secret", key: "key" } },
      queryParams: ["q", "page"],
      headerParams: { trace: "X-Trace" },
      staticQuery: { api_key: "k1" },
      staticBody: { source: "omnia", nested: { a: 1 }, list: [1, "two", null, true] },
      bodyMapping: "{q: query, src: source}",
      responseMapping: "results[].{name: name, price: price, inStock: available}",
      redact: ["ssn", "token"],
      urlTemplate: "https://api/users/{id}/posts",
    });
  });

  test("staticBody may be any JSON value; null means absent; empty JMESPath/urlTemplate strings mean unset", () => {
    assert.deepEqual(onlyHttp(loadToolRegistry(httpHandler("        endpoint: e\n        staticBody: [1, 2]"))).httpConfig.staticBody, [1, 2]);
    assert.equal(onlyHttp(loadToolRegistry(httpHandler('        endpoint: e\n        staticBody: "x"'))).httpConfig.staticBody, "x");
    const unset = onlyHttp(
      loadToolRegistry(httpHandler('        endpoint: e\n        staticBody: null\n        bodyMapping: ""\n        responseMapping: ""\n        urlTemplate: ""')),
    ).httpConfig;
    assert.equal("staticBody" in unset, false);
    assert.equal("bodyMapping" in unset, false);
    assert.equal("responseMapping" in unset, false);
    assert.equal("urlTemplate" in unset, false);
  });
});

describe("handler timeout (http.md §1.2: Go duration, default 30s, per attempt)", () => {
  const cases: [string, number][] = [
    ['"300ms"', 300],
    ['"1.5s"', 1500],
    ['"2m"', 120_000],
    ['"1h30m"', 5_400_000],
    ['"0"', 0],
    ['""', 0],
    ["null", 30_000],
    ['"10s"', 10_000],
    ['"500us"', 0.5],
  ];
  for (const [text, ms] of cases) {
    test(`timeout: ${text} -> ${ms} ms`, () => {
      assert.equal(only(loadToolRegistry(httpHandler("        endpoint: e", `\n      timeout: ${text}`))).timeoutMs, ms);
    });
  }
});

describe("retryPolicy (http.md §1.4.1, §4.5)", () => {
  const policyOf = (yaml: string) => onlyHttp(loadToolRegistry(httpHandler(`        endpoint: e\n        retryPolicy: ${yaml}`))).httpConfig.retryPolicy;

  test("C1 minimum valid {maxAttempts: 3} gets every operator default", () => {
    assert.deepEqual(policyOf("{maxAttempts: 3}"), {
      maxAttempts: 3,
      initialBackoffMs: 100,
      backoffMultiplier: 2,
      maxBackoffMs: 30_000,
      retryOn: [408, 429, 500, 502, 503, 504],
      retryOnNetworkError: true,
      respectRetryAfter: true,
    });
  });

  test("C2 an explicit empty retryOn stays empty (no status-based retry)", () => {
    assert.deepEqual(policyOf("{maxAttempts: 2, retryOn: []}"), {
      maxAttempts: 2,
      initialBackoffMs: 100,
      backoffMultiplier: 2,
      maxBackoffMs: 30_000,
      retryOn: [],
      retryOnNetworkError: true,
      respectRetryAfter: true,
    });
  });

  test("C4 every field given (the multiplier as a number, as in tools.yaml) round-trips", () => {
    assert.deepEqual(
      policyOf(`
          maxAttempts: 3
          initialBackoff: "100ms"
          backoffMultiplier: 2
          maxBackoff: "30s"
          retryOn: [502, 503, 504]
          retryOnNetworkError: true
          respectRetryAfter: true`),
      { maxAttempts: 3, initialBackoffMs: 100, backoffMultiplier: 2, maxBackoffMs: 30_000, retryOn: [502, 503, 504], retryOnNetworkError: true, respectRetryAfter: true },
    );
  });

  test("the CRD's decimal-string multiplier, false flags and custom durations", () => {
    assert.deepEqual(policyOf('{maxAttempts: 10, initialBackoff: 1ms, backoffMultiplier: "1.5", maxBackoff: 1m30s, retryOnNetworkError: false, respectRetryAfter: false}'), {
      maxAttempts: 10,
      initialBackoffMs: 1,
      backoffMultiplier: 1.5,
      maxBackoffMs: 90_000,
      retryOn: [408, 429, 500, 502, 503, 504],
      retryOnNetworkError: false,
      respectRetryAfter: false,
    });
  });

  test("boundaries accepted: maxAttempts 1, multiplier exactly 1.0, maxBackoff equal to initialBackoff", () => {
    assert.deepEqual(policyOf('{maxAttempts: 1, backoffMultiplier: "1.0", initialBackoff: 2s, maxBackoff: 2s}'), {
      maxAttempts: 1,
      initialBackoffMs: 2000,
      backoffMultiplier: 1,
      maxBackoffMs: 2000,
      retryOn: [408, 429, 500, 502, 503, 504],
      retryOnNetworkError: true,
      respectRetryAfter: true,
    });
  });
});

describe("auth (http.md §1.5)", () => {
  const authOf = (auth: string, httpExtra = "") =>
    only(loadToolRegistry(httpHandler(`        endpoint: e${httpExtra}`, auth === "" ? "" : `\n      auth:\n${auth}`))).auth;

  test("none (the default) is no auth", () => {
    assert.equal(authOf(""), undefined);
    assert.equal(authOf("        type: none"), undefined);
  });

  test("bearer and basic carry the secretRef and the operator's token path", () => {
    assert.deepEqual(authOf("        type: bearer\n        secretRef: {name: s, key: token}"), {
      type: "bearer",
      secretRef: { name: "s", key: "token" },
      authType: "bearer",
      tokenPath: "/etc/omnia/tool-secrets/h",
    });
    assert.deepEqual(authOf("        type: basic\n        secretRef: {name: s, key: userpass}"), {
      type: "basic",
      secretRef: { name: "s", key: "userpass" },
      authType: "basic",
      tokenPath: "/etc/omnia/tool-secrets/h",
    });
  });

  test("serviceAccount becomes a bearer token read from the projected path", () => {
    assert.deepEqual(authOf("        type: serviceAccount\n        serviceAccount: {audience: api://tool}"), {
      type: "serviceAccount",
      serviceAccount: { audience: "api://tool" },
      authType: "bearer",
      tokenPath: "/var/run/secrets/omnia/tool-sa/h/token",
    });
  });

  test("workloadIdentity: header defaults to Authorization, or the given header", () => {
    assert.deepEqual(authOf("        type: workloadIdentity\n        workloadIdentity: {cloud: azure, audience: api://tool}"), {
      type: "workloadIdentity",
      workloadIdentity: { cloud: "azure", audience: "api://tool", header: "Authorization" },
      authType: "workloadIdentity",
    });
    assert.deepEqual(authOf("        type: workloadIdentity\n        workloadIdentity: {cloud: azure, audience: api://tool, header: X-Tool-Auth}"), {
      type: "workloadIdentity",
      workloadIdentity: { cloud: "azure", audience: "api://tool", header: "X-Tool-Auth" },
      authType: "workloadIdentity",
    });
  });

  test("legacy httpConfig.authSecretRef alone normalises to bearer", () => {
    assert.deepEqual(authOf("", "\n        authSecretRef: {name: legacy, key: tok}"), {
      type: "bearer",
      secretRef: { name: "legacy", key: "tok" },
      authType: "bearer",
      tokenPath: "/etc/omnia/tool-secrets/h",
    });
  });

  test("legacy authType basic (any case) with authSecretRef normalises to basic; the legacy fields leave httpConfig", () => {
    const h = onlyHttp(loadToolRegistry(httpHandler("        endpoint: e\n        authType: BASIC\n        authSecretRef: {name: legacy, key: up}")));
    assert.deepEqual(h.auth, { type: "basic", secretRef: { name: "legacy", key: "up" }, authType: "basic", tokenPath: "/etc/omnia/tool-secrets/h" });
    assert.equal("authType" in h.httpConfig, false);
    assert.equal("authSecretRef" in h.httpConfig, false);
  });

  test("legacy openAPIConfig auth normalises the same way", () => {
    const registry = loadToolRegistry(
      resource("      type: openapi\n      openAPIConfig:\n        specURL: https://api/openapi.json\n        authType: bearer\n        authSecretRef: {name: o, key: k}"),
    );
    assert.deepEqual(only(registry).auth, { type: "bearer", secretRef: { name: "o", key: "k" }, authType: "bearer", tokenPath: "/etc/omnia/tool-secrets/h" });
  });
});

describe("the other handler types (runtime-tools.md §4.1, §7)", () => {
  test("V5 a client handler with tool get_location: endpoint client://browser, execution client", () => {
    const registry = loadToolRegistry(`spec:
  handlers:
    - name: browser-geo
      type: client
      tool:
        name: get_location
        description: Where the user is
        inputSchema: {type: object, properties: {}}
      clientConfig:
        consentMessage: Share your location?
        categories: [location]`);
    assert.deepEqual(only(registry), {
      name: "browser-geo",
      type: "client",
      endpoint: "client://browser",
      timeoutMs: 30_000,
      tool: { name: "get_location", description: "Where the user is", inputSchema: { type: "object", properties: {} } },
      clientConfig: { consentMessage: "Share your location?", categories: ["location"] },
    });
    assert.deepEqual(registry.tools, [
      {
        name: "get_location",
        description: "Where the user is",
        inputSchema: { type: "object", properties: {} },
        handlerName: "browser-geo",
        handlerType: "client",
        execution: "client",
      },
    ]);
  });

  test("a client handler without clientConfig has no consent prompt", () => {
    const h = only(loadToolRegistry(resource(`      type: client${TOOL}`)));
    assert.deepEqual(h.type === "client" && h.clientConfig, { categories: [] });
  });

  test("grpc: plaintext by default, TLS fields kept, the default retryable codes", () => {
    const plain = only(loadToolRegistry(resource(`      type: grpc${TOOL}\n      grpcConfig: {endpoint: "tools:9090"}`)));
    assert.deepEqual(plain.type === "grpc" && plain.grpcConfig, { endpoint: "tools:9090", tls: false, tlsInsecureSkipVerify: false });
    assert.equal(plain.endpoint, "tools:9090");
    const tls = only(
      loadToolRegistry(
        resource(`      type: grpc${TOOL}
      grpcConfig:
        endpoint: tools:9443
        tls: true
        tlsCertPath: /c/tls.crt
        tlsKeyPath: /c/tls.key
        tlsCAPath: /c/ca.crt
        tlsInsecureSkipVerify: true
        retryPolicy: {maxAttempts: 3}`),
      ),
    );
    assert.deepEqual(tls.type === "grpc" && tls.grpcConfig, {
      endpoint: "tools:9443",
      tls: true,
      tlsCertPath: "/c/tls.crt",
      tlsKeyPath: "/c/tls.key",
      tlsCAPath: "/c/ca.crt",
      tlsInsecureSkipVerify: true,
      retryPolicy: {
        maxAttempts: 3,
        initialBackoffMs: 100,
        backoffMultiplier: 2,
        maxBackoffMs: 30_000,
        retryableStatusCodes: ["UNAVAILABLE", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED"],
      },
    });
  });

  test("grpc: an explicit empty retryableStatusCodes stays empty", () => {
    const h = only(loadToolRegistry(resource(`      type: grpc${TOOL}\n      grpcConfig: {endpoint: "t:1", retryPolicy: {maxAttempts: 2, retryableStatusCodes: []}}`)));
    assert.deepEqual(h.type === "grpc" && h.grpcConfig.retryPolicy?.retryableStatusCodes, []);
  });

  test("mcp: sse endpoint, stdio endpoint stdio://<command>, toolFilter (V20, V21 configs) and retry defaults", () => {
    const sse = only(loadToolRegistry(resource("      type: mcp\n      mcpConfig: {transport: sse, endpoint: http://mcp:8080/sse, toolFilter: {allowlist: [a], blocklist: [a]}}")));
    assert.deepEqual(sse, {
      name: "h",
      type: "mcp",
      endpoint: "http://mcp:8080/sse",
      timeoutMs: 30_000,
      mcpConfig: { transport: "sse", endpoint: "http://mcp:8080/sse", args: [], env: {}, toolFilter: { allowlist: ["a"], blocklist: ["a"] } },
    });
    const stdio = only(
      loadToolRegistry(
        resource(`      type: mcp
      mcpConfig:
        transport: stdio
        command: npx
        args: ["-y", "server-fs"]
        env: {ROOT: /srv}
        workDir: /srv
        toolFilter: {blocklist: [b]}
        retryPolicy: {maxAttempts: 3}`),
      ),
    );
    assert.equal(stdio.endpoint, "stdio://npx");
    assert.deepEqual(stdio.type === "mcp" && stdio.mcpConfig, {
      transport: "stdio",
      command: "npx",
      args: ["-y", "server-fs"],
      env: { ROOT: "/srv" },
      workDir: "/srv",
      toolFilter: { allowlist: [], blocklist: ["b"] },
      retryPolicy: { maxAttempts: 3, initialBackoffMs: 100, backoffMultiplier: 2, maxBackoffMs: 30_000 },
    });
    const streamable = only(loadToolRegistry(resource("      type: mcp\n      mcpConfig: {transport: streamable-http, endpoint: http://mcp/mcp}")));
    assert.equal(streamable.endpoint, "http://mcp/mcp");
  });

  test("openapi: endpoint is the specURL; operationFilter (V18 config) and the HTTP retry shape", () => {
    const h = only(
      loadToolRegistry(
        resource(`      type: openapi
      openAPIConfig:
        specURL: https://petstore/openapi.json
        baseURL: https://petstore/api
        operationFilter: [getPetById]
        headers: {X-Env: prod}
        retryPolicy: {maxAttempts: 2, retryOn: [503]}`),
      ),
    );
    assert.deepEqual(h, {
      name: "h",
      type: "openapi",
      endpoint: "https://petstore/openapi.json",
      timeoutMs: 30_000,
      openAPIConfig: {
        specURL: "https://petstore/openapi.json",
        baseURL: "https://petstore/api",
        operationFilter: ["getPetById"],
        headers: { "X-Env": "prod" },
        retryPolicy: {
          maxAttempts: 2,
          initialBackoffMs: 100,
          backoffMultiplier: 2,
          maxBackoffMs: 30_000,
          retryOn: [503],
          retryOnNetworkError: true,
          respectRetryAfter: true,
        },
      },
    });
  });

  test("V24 one http and one mcp handler: tools lists the http tool; the mcp handler is a discovered handler", () => {
    const registry = loadToolRegistry(`spec:
  handlers:
    - name: weather
      type: http
      tool: {name: get_weather, description: w, inputSchema: {}}
      httpConfig: {endpoint: "https://w"}
    - name: fs
      type: mcp
      mcpConfig: {transport: stdio, command: mcp-fs}`);
    assert.deepEqual(
      registry.tools.map((t) => t.name),
      ["get_weather"],
    );
    assert.deepEqual(
      registry.discoveredHandlers.map((h) => h.name),
      ["fs"],
    );
    assert.deepEqual(
      registry.handlers.map((h) => h.name),
      ["weather", "fs"],
    );
    assert.equal(registry.getHandler("fs")?.type, "mcp");
    assert.equal(registry.getTool("get_weather")?.handlerName, "weather");
    assert.equal(registry.getTool("fs"), undefined);
  });

  test("an inline tool on an mcp or openapi handler is kept on the handler but not served", () => {
    const registry = loadToolRegistry(resource(`      type: mcp${TOOL}\n      mcpConfig: {transport: stdio, command: x}`));
    assert.deepEqual(registry.tools, []);
    const h = only(registry);
    assert.deepEqual(h.type === "mcp" && h.tool, { name: "t", description: "d", inputSchema: { type: "object" } });
  });

  test("outputSchema is forwarded to the descriptor", () => {
    const registry = loadToolRegistry(
      resource("      type: http\n      tool: {name: t, description: d, inputSchema: {}, outputSchema: {type: string}}\n      httpConfig: {endpoint: e}"),
    );
    assert.deepEqual(registry.tools[0]?.outputSchema, { type: "string" });
  });

  test("delegation and sandbox (contract 1.9.0) are kept verbatim; delegation.enabled defaults to false", () => {
    const h = only(
      loadToolRegistry(httpHandler("        endpoint: e", "\n      delegation: {enabled: true, audience: tools}\n      sandbox: {template: python, releaseGrace: 30s}")),
    );
    assert.deepEqual(h.delegation, { enabled: true, audience: "tools" });
    assert.deepEqual(h.sandbox, { template: "python", releaseGrace: "30s" });
    assert.deepEqual(only(loadToolRegistry(httpHandler("        endpoint: e", "\n      delegation: {}"))).delegation, { enabled: false });
  });
});

describe("the resource and its input forms (runtime-tools.md §7.1, API.md)", () => {
  const bare = `handlers:
  - name: a
    type: http
    tool: {name: tool_a, description: A, inputSchema: {}}
    httpConfig: {endpoint: "https://a"}`;

  test("a whole resource: name, namespace and the default probe", () => {
    const registry = loadToolRegistry(`apiVersion: omnia.altairalabs.ai/v1alpha1
kind: ToolRegistry
metadata: {name: tools, namespace: agents, labels: {team: x}}
spec:
  handlers:
    - name: a
      type: http
      tool: {name: tool_a, description: A, inputSchema: {}}
      httpConfig: {endpoint: "https://a"}
status:
  phase: Ready`);
    assert.equal(registry.name, "tools");
    assert.equal(registry.namespace, "agents");
    assert.deepEqual(registry.probe, { enabled: false, intervalMs: 60_000, timeoutMs: 5_000 });
    assert.deepEqual(registry.warnings, []);
  });

  test("spec.probe values are parsed", () => {
    const registry = loadToolRegistry(`spec:
  probe: {enabled: true, interval: 2m, timeout: 1s}
  handlers:
    - name: a
      type: client
      tool: {name: a, description: A, inputSchema: {}}`);
    assert.deepEqual(registry.probe, { enabled: true, intervalMs: 120_000, timeoutMs: 1_000 });
  });

  test("a bare handlers list has no name", () => {
    const registry = loadToolRegistry(bare);
    assert.equal(registry.name, undefined);
    assert.deepEqual(
      registry.tools.map((t) => t.name),
      ["tool_a"],
    );
  });

  test("JSON text, a parsed object and UTF-8 bytes give the same registry", () => {
    const object = {
      handlers: [{ name: "a", type: "http", tool: { name: "tool_a", description: "A", inputSchema: {} }, httpConfig: { endpoint: "https://a" } }],
    };
    const fromYaml = loadToolRegistry(bare);
    assert.deepEqual(loadToolRegistry(JSON.stringify(object)).handlers, fromYaml.handlers);
    assert.deepEqual(loadToolRegistry(object).handlers, fromYaml.handlers);
    assert.deepEqual(loadToolRegistry(new TextEncoder().encode(bare)).handlers, fromYaml.handlers);
  });

  test("a multi-document YAML merges the registries and skips other kinds", () => {
    const logger = recordingLogger();
    const registry = loadToolRegistry(
      `apiVersion: v1
kind: Secret
metadata: {name: token}
stringData: {token: abc}
---
${bare}
---
kind: ToolRegistry
metadata: {name: second}
spec:
  handlers:
    - name: b
      type: client
      tool: {name: tool_b, description: B, inputSchema: {}}
`,
      { logger },
    );
    assert.deepEqual(
      registry.tools.map((t) => `${t.name}@${t.handlerName}`),
      ["tool_a@a", "tool_b@b"],
    );
    assert.equal(registry.name, undefined); // the first registry document is the bare list
    assert.deepEqual(logger.infos, ['ToolRegistry: skipped documents[0], a document of kind "Secret"']);
  });

  test("an array of inputs is merged like a multi-document YAML", () => {
    const registry = loadToolRegistry([bare, { handlers: [{ name: "b", type: "client", tool: { name: "tool_b", description: "B", inputSchema: {} } }] }]);
    assert.deepEqual(
      registry.tools.map((t) => t.name),
      ["tool_a", "tool_b"],
    );
  });

  test("the registry is deeply frozen and does not share the caller's objects", () => {
    const schema = { type: "object", properties: { q: { type: "string" } } };
    const input = { handlers: [{ name: "a", type: "http", tool: { name: "a", description: "A", inputSchema: schema }, httpConfig: { endpoint: "e", headers: { A: "1" } } }] };
    const registry = loadToolRegistry(input);
    const h = registry.handlers[0] as HttpHandlerConfig;
    assert.ok(Object.isFrozen(registry));
    assert.ok(Object.isFrozen(registry.tools));
    assert.ok(Object.isFrozen(registry.tools[0]));
    assert.ok(Object.isFrozen(registry.handlers));
    assert.ok(Object.isFrozen(h));
    assert.ok(Object.isFrozen(h.httpConfig));
    assert.ok(Object.isFrozen(h.httpConfig.headers));
    assert.ok(Object.isFrozen(h.tool.inputSchema));
    assert.ok(Object.isFrozen((h.tool.inputSchema.properties as Record<string, unknown>).q));
    assert.notEqual(h.tool.inputSchema, schema);
    assert.equal(Object.isFrozen(schema), false);
    schema.properties.q.type = "number";
    assert.deepEqual(h.tool.inputSchema, { type: "object", properties: { q: { type: "string" } } });
  });

  test("a YAML anchor and alias are expanded into independent JSON", () => {
    const registry = loadToolRegistry(`handlers:
  - name: a
    type: client
    tool: {name: a, description: A, inputSchema: &schema {type: object, properties: {id: {type: string}}}}
  - name: b
    type: client
    tool: {name: b, description: B, inputSchema: *schema}`);
    assert.deepEqual(registry.tools[1]?.inputSchema, { type: "object", properties: { id: { type: "string" } } });
  });
});

describe("warnings: unknown fields are reported, not silently dropped", () => {
  test("each unknown field is one warn record, with its path and line, and is on registry.warnings", () => {
    const logger = recordingLogger();
    const registry = loadToolRegistry(
      `spec:
  handlers:
    - name: a
      type: http
      retries: 3
      endpoint: https://wrong-level
      tool: {name: a, description: A, inputSchema: {}, example: 1}
      httpConfig:
        endpoint: https://a
        retryPolicy: {maxAttempts: 2, jitter: true}
  extra: true
`,
      { logger },
    );
    assert.deepEqual(
      registry.warnings.map((w) => [w.path, w.message, w.line]),
      [
        ["spec.extra", "unknown field; it is ignored", 11],
        ["spec.handlers[0].tool.example", "unknown field; it is ignored", 7],
        ["spec.handlers[0].httpConfig.retryPolicy.jitter", "unknown field; it is ignored", 10],
        ["spec.handlers[0].retries", "unknown field; it is ignored (the handler-level retries field was removed; use httpConfig.retryPolicy)", 5],
        [
          "spec.handlers[0].endpoint",
          "unknown field; it is ignored (there is no handler-level endpoint; set it in httpConfig, grpcConfig, mcpConfig or openAPIConfig)",
          6,
        ],
      ],
    );
    assert.deepEqual(logger.warnings[0], ["ToolRegistry: spec.extra: unknown field; it is ignored", { path: "spec.extra", line: 11 }]);
    assert.equal(logger.warnings.length, 5);
  });

  test("settings Omnia would silently ignore, or with which every call fails, are warned", () => {
    const logger = recordingLogger();
    const registry = loadToolRegistry(
      `handlers:
  - name: a
    type: grpc
    tool: {name: a, description: A, inputSchema: {}}
    grpcConfig: {endpoint: "g:1", tlsCAPath: /ca.crt}
    httpConfig: {endpoint: x}
  - name: b
    type: grpc
    tool: {name: b, description: B, inputSchema: {}}
    grpcConfig: {endpoint: "g:1", tls: true, tlsCertPath: /c.crt}
  - name: c
    type: mcp
    tool: {name: c, description: C, inputSchema: {}}
    mcpConfig: {transport: stdio, command: x}
  - name: d
    type: http
    tool: {name: d, description: D, inputSchema: {}}
    httpConfig: {endpoint: "", method: "GE T"}
    auth: {type: workloadIdentity, workloadIdentity: {cloud: azure, audience: x}, secretRef: {name: s, key: k}}`,
      { logger },
    );
    assert.deepEqual(
      registry.warnings.map((w) => `${w.path}: ${w.message}`),
      [
        "handlers[0].httpConfig: httpConfig is ignored for grpc handlers",
        "handlers[0].grpcConfig.tlsCAPath: tlsCAPath is ignored because tls is not true (the connection is plaintext)",
        "handlers[1].grpcConfig.tlsCertPath: tlsCertPath is ignored without tlsKeyPath: a client certificate needs both",
        "handlers[2].tool: tool is ignored for mcp handlers; their tools are discovered at run time",
        "handlers[3].auth.secretRef: secretRef is ignored for auth.type workloadIdentity",
        'handlers[3].httpConfig.method: "GE T" is not a valid HTTP method token; every call will fail',
        "handlers[3].httpConfig.endpoint: endpoint is empty and there is no urlTemplate; every call will fail",
      ],
    );
    assert.equal(logger.warnings.length, 7);
    assert.equal(only({ ...registry, handlers: [registry.handlers[3] as HandlerConfig] }).auth?.type, "workloadIdentity");
  });

  test("a resource of another apiVersion is read as v1alpha1, with a warning", () => {
    const registry = loadToolRegistry("apiVersion: omnia.altairalabs.ai/v1beta1\nkind: ToolRegistry\nspec:\n  handlers:\n    - {name: a, type: client, tool: {name: a, description: A, inputSchema: {}}}\n");
    assert.deepEqual(registry.warnings, [
      {
        path: "apiVersion",
        message: 'expected omnia.altairalabs.ai/v1alpha1; got "omnia.altairalabs.ai/v1beta1"; the resource is read as omnia.altairalabs.ai/v1alpha1',
        line: 1,
      },
    ]);
  });

  test("no logger: warnings are still collected and nothing throws", () => {
    const registry = loadToolRegistry({ handlers: [{ name: "a", type: "client", tool: { name: "a", description: "A", inputSchema: {} }, colour: "red" }] });
    assert.deepEqual(registry.warnings, [{ path: "handlers[0].colour", message: "unknown field; it is ignored" }]);
  });
});
