// Bad manifests: each one asserts the exact path and message of every problem
// (runtime-tools.md §7.2, §7.5 V1–V16, V22; http.md §1.2–§1.5, §4.5 C3/C5).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError, ErrorCode, isOmniaToolsError } from "../core/index.js";
import { DuplicateToolError } from "./duplicate-tool-error.js";
import { loadToolRegistry } from "./load-tool-registry.js";
import type { ManifestInput } from "./documents.js";
import type { ManifestIssue } from "./types.js";

const TOOL = "      tool: {name: t, description: d, inputSchema: {type: object}}";

/** A ToolRegistry resource with the given handler lines under `spec.handlers`. */
function registry(handlers: string): string {
  return `apiVersion: omnia.altairalabs.ai/v1alpha1
kind: ToolRegistry
metadata:
  name: reg
spec:
  handlers:
${handlers}`;
}

/** One http handler `h` with the given extra lines (httpConfig is given by the caller when needed). */
function http(lines: string): string {
  return registry(`    - name: h
      type: http
${TOOL}
${lines}`);
}

function httpWithRetry(policy: string): string {
  return http(`      httpConfig:
        endpoint: https://api/t
        retryPolicy: ${policy}`);
}

function grpcWithRetry(policy: string): string {
  return registry(`    - name: g
      type: grpc
${TOOL}
      grpcConfig:
        endpoint: g:9090
        retryPolicy: ${policy}`);
}

function loadError(input: ManifestInput): ConfigError {
  try {
    loadToolRegistry(input);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail("expected loadToolRegistry to throw");
}

interface BadCase {
  readonly name: string;
  readonly input: ManifestInput;
  /** Every issue, as `<path>: <message>`, in order. */
  readonly issues: readonly string[];
}

const CASES: readonly BadCase[] = [
  // --- handler type and name ---------------------------------------------------------------
  {
    name: "V9 a wrong handler type",
    input: registry(`    - name: h\n      type: ftp\n${TOOL}`),
    issues: ["spec.handlers[0].type: unknown handler type: ftp; expected one of http|grpc|mcp|openapi|client"],
  },
  {
    name: "a misspelt handler type names the nearest",
    input: registry(`    - name: h\n      type: htp\n${TOOL}`),
    issues: ['spec.handlers[0].type: unknown handler type: htp; expected one of http|grpc|mcp|openapi|client (did you mean "http"?)'],
  },
  {
    name: "a handler without type",
    input: registry(`    - name: h\n${TOOL}`),
    issues: ["spec.handlers[0].type: is required"],
  },
  {
    name: "a handler type that is not a string",
    input: registry(`    - name: h\n      type: 42\n${TOOL}`),
    issues: ["spec.handlers[0].type: expected a string; got 42"],
  },
  {
    name: "a handler name that is not a DNS label",
    input: registry(`    - name: Bad_Name\n      type: client\n${TOOL}`),
    issues: ['spec.handlers[0].name: must match ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$; got "Bad_Name"'],
  },
  {
    name: "a handler name longer than 63 characters",
    input: registry(`    - name: ${"a".repeat(64)}\n      type: client\n${TOOL}`),
    issues: ["spec.handlers[0].name: must be at most 63 characters long; got 64 characters"],
  },
  {
    name: "V11 an empty handlers list",
    input: registry("    []").replace("handlers:\n    []", "handlers: []"),
    issues: ["spec.handlers: must have at least 1 item; got 0"],
  },
  {
    name: "handlers that are not a list",
    input: "spec:\n  handlers: {name: h}\n",
    issues: ["spec.handlers: expected an array; got an object"],
  },
  {
    name: "a resource without spec",
    input: "kind: ToolRegistry\nmetadata: {name: r}\n",
    issues: ["spec: is required"],
  },
  {
    name: "a single document of another kind",
    input: "kind: AgentRuntime\nspec:\n  handlers:\n    - name: h\n      type: client\n      tool: {name: t, description: d, inputSchema: {}}\n",
    issues: ['kind: expected ToolRegistry; got "AgentRuntime"'],
  },
  // --- controller rules, in order (runtime-tools.md §7.2) -------------------------------------
  {
    name: "V2 an http handler without httpConfig",
    input: http(""),
    issues: ["spec.handlers[0].httpConfig: httpConfig is required for http handlers"],
  },
  {
    name: "V3 an http handler without tool",
    input: registry("    - name: h\n      type: http\n      httpConfig: {endpoint: https://api/t}"),
    issues: ["spec.handlers[0].tool: tool definition is required for http handlers"],
  },
  {
    name: "V1 a grpc handler with grpcConfig and no tool",
    input: registry("    - name: g\n      type: grpc\n      grpcConfig: {endpoint: g:9090}"),
    issues: ["spec.handlers[0].tool: tool definition is required for grpc handlers"],
  },
  {
    name: "a grpc handler without grpcConfig",
    input: registry(`    - name: g\n      type: grpc\n${TOOL}`),
    issues: ["spec.handlers[0].grpcConfig: grpcConfig is required for grpc handlers"],
  },
  {
    name: "a grpc handler with a missing endpoint",
    input: registry(`    - name: g\n      type: grpc\n${TOOL}\n      grpcConfig: {tls: true}`),
    issues: ["spec.handlers[0].grpcConfig.endpoint: is required"],
  },
  {
    name: "an http handler with a missing endpoint",
    input: http("      httpConfig: {method: GET}"),
    issues: ["spec.handlers[0].httpConfig.endpoint: is required"],
  },
  {
    name: "V4 a client handler without tool",
    input: registry("    - name: c\n      type: client\n      clientConfig: {consentMessage: ok?}"),
    issues: ["spec.handlers[0].tool: tool definition is required for client handlers"],
  },
  {
    name: "an mcp handler without mcpConfig",
    input: registry("    - name: m\n      type: mcp"),
    issues: ["spec.handlers[0].mcpConfig: mcpConfig is required for mcp handlers"],
  },
  {
    name: "V6 an mcp sse handler without endpoint",
    input: registry("    - name: m\n      type: mcp\n      mcpConfig: {transport: sse}"),
    issues: ["spec.handlers[0].mcpConfig.endpoint: endpoint is required for mcp handlers with SSE transport"],
  },
  {
    name: "an mcp streamable-http handler with an empty endpoint",
    input: registry('    - name: m\n      type: mcp\n      mcpConfig: {transport: streamable-http, endpoint: ""}'),
    issues: ["spec.handlers[0].mcpConfig.endpoint: endpoint is required for mcp handlers with streamable-http transport"],
  },
  {
    name: "V7 an mcp stdio handler without command",
    input: registry("    - name: m\n      type: mcp\n      mcpConfig: {transport: stdio, args: [x]}"),
    issues: ["spec.handlers[0].mcpConfig.command: command is required for mcp handlers with stdio transport"],
  },
  {
    name: "an mcp handler with an unknown transport",
    input: registry("    - name: m\n      type: mcp\n      mcpConfig: {transport: websocket, endpoint: ws://x}"),
    issues: ['spec.handlers[0].mcpConfig.transport: expected one of sse|streamable-http|stdio; got "websocket"'],
  },
  {
    name: "V8 an openapi handler without openAPIConfig",
    input: registry("    - name: o\n      type: openapi"),
    issues: ["spec.handlers[0].openAPIConfig: openAPIConfig is required for openapi handlers"],
  },
  {
    name: "an openapi handler without specURL",
    input: registry("    - name: o\n      type: openapi\n      openAPIConfig: {baseURL: https://api}"),
    issues: ["spec.handlers[0].openAPIConfig.specURL: is required"],
  },
  // --- the tool block ------------------------------------------------------------------------
  {
    name: "V10 tool.name GetWeather breaks the pattern",
    input: registry("    - name: c\n      type: client\n      tool: {name: GetWeather, description: d, inputSchema: {}}"),
    issues: ['spec.handlers[0].tool.name: must match ^[a-z][a-z0-9_]*$; got "GetWeather"'],
  },
  {
    name: "a tool without description and inputSchema",
    input: registry("    - name: c\n      type: client\n      tool: {name: t}"),
    issues: ["spec.handlers[0].tool.description: is required", "spec.handlers[0].tool.inputSchema: is required"],
  },
  {
    name: "an inputSchema that is not an object",
    input: registry('    - name: c\n      type: client\n      tool: {name: t, description: d, inputSchema: "{\\"type\\":\\"object\\"}"}'),
    issues: ['spec.handlers[0].tool.inputSchema: expected a JSON object; got "{\\"type\\":\\"object\\"}"'],
  },
  {
    name: "an inputSchema holding a value that is not JSON (.nan)",
    input: registry("    - name: c\n      type: client\n      tool: {name: t, description: d, inputSchema: {type: number, maximum: .nan}}"),
    issues: ["spec.handlers[0].tool.inputSchema.maximum: expected a JSON value; got NaN"],
  },
  // --- httpConfig fields -----------------------------------------------------------------------
  {
    name: "a method that is not a string",
    input: http("      httpConfig: {endpoint: e, method: 5}"),
    issues: ["spec.handlers[0].httpConfig.method: expected a string; got 5"],
  },
  {
    name: "a static header value that is not a string",
    input: http("      httpConfig: {endpoint: e, headers: {X-Count: 5}}"),
    issues: ['spec.handlers[0].httpConfig.headers["X-Count"]: expected a string; got 5'],
  },
  {
    name: "queryParams that are not a list",
    input: http("      httpConfig: {endpoint: e, queryParams: q}"),
    issues: ['spec.handlers[0].httpConfig.queryParams: expected an array; got "q"'],
  },
  {
    name: "a staticBody with an infinite number",
    input: http("      httpConfig: {endpoint: e, staticBody: {limits: [1, .inf]}}"),
    issues: ["spec.handlers[0].httpConfig.staticBody.limits[1]: expected a JSON value; got Infinity"],
  },
  // --- durations -----------------------------------------------------------------------------
  {
    name: "C5 a bad timeout",
    input: http('      httpConfig: {endpoint: e}\n      timeout: "not-a-duration"'),
    issues: ['spec.handlers[0].timeout: invalid duration "not-a-duration"'],
  },
  {
    name: "a timeout with an unknown unit",
    input: http("      httpConfig: {endpoint: e}\n      timeout: 10x"),
    issues: ['spec.handlers[0].timeout: invalid duration "10x": unknown unit "x"; valid units are ns, us, ms, s, m, h'],
  },
  {
    name: "a timeout written as a number",
    input: http("      httpConfig: {endpoint: e}\n      timeout: 30"),
    issues: ['spec.handlers[0].timeout: expected a Go duration string such as "30s"; got 30'],
  },
  {
    name: "a negative timeout",
    input: http("      httpConfig: {endpoint: e}\n      timeout: -1s"),
    issues: ['spec.handlers[0].timeout: must not be negative; got "-1s"'],
  },
  {
    name: "a bad initialBackoff",
    input: httpWithRetry("{maxAttempts: 3, initialBackoff: fast}"),
    issues: ['spec.handlers[0].httpConfig.retryPolicy.initialBackoff: invalid duration "fast"'],
  },
  // --- retryPolicy (http.md §1.4.1) ------------------------------------------------------------
  {
    name: "maxAttempts 11",
    input: httpWithRetry("{maxAttempts: 11}"),
    issues: ["spec.handlers[0].httpConfig.retryPolicy.maxAttempts: must be at most 10; got 11"],
  },
  {
    name: "maxAttempts 0",
    input: httpWithRetry("{maxAttempts: 0}"),
    issues: ["spec.handlers[0].httpConfig.retryPolicy.maxAttempts: must be at least 1; got 0"],
  },
  {
    name: "maxAttempts missing",
    input: httpWithRetry("{initialBackoff: 1s}"),
    issues: ["spec.handlers[0].httpConfig.retryPolicy.maxAttempts: is required"],
  },
  {
    name: "maxAttempts not an integer",
    input: httpWithRetry("{maxAttempts: 2.5}"),
    issues: ["spec.handlers[0].httpConfig.retryPolicy.maxAttempts: expected an integer; got 2.5"],
  },
  {
    name: "V12 backoffMultiplier 0.5",
    input: httpWithRetry('{maxAttempts: 3, backoffMultiplier: "0.5"}'),
    issues: ["spec.handlers[0].httpConfig.retryPolicy.backoffMultiplier: http retry policy: backoffMultiplier 0.5 must be >= 1.0"],
  },
  {
    name: "C3 backoffMultiplier abc",
    input: httpWithRetry('{maxAttempts: 3, backoffMultiplier: "abc"}'),
    issues: [
      'spec.handlers[0].httpConfig.retryPolicy.backoffMultiplier: http retry policy: invalid backoffMultiplier "abc": strconv.ParseFloat: parsing "abc": invalid syntax',
    ],
  },
  {
    name: "a backoffMultiplier that parses as a float but breaks the CRD pattern",
    input: httpWithRetry('{maxAttempts: 3, backoffMultiplier: "1e2"}'),
    issues: ['spec.handlers[0].httpConfig.retryPolicy.backoffMultiplier: must match ^[0-9]+(\\.[0-9]+)?$; got "1e2"'],
  },
  {
    name: "V13 initialBackoff 2s with maxBackoff 1s",
    input: httpWithRetry("{maxAttempts: 3, initialBackoff: 2s, maxBackoff: 1s}"),
    issues: ["spec.handlers[0].httpConfig.retryPolicy.maxBackoff: http retry policy: maxBackoff (1s) must be >= initialBackoff (2s)"],
  },
  {
    name: "an initialBackoff above the default maxBackoff (defaults apply first)",
    input: httpWithRetry("{maxAttempts: 3, initialBackoff: 90s}"),
    issues: ["spec.handlers[0].httpConfig.retryPolicy.maxBackoff: http retry policy: maxBackoff (30s) must be >= initialBackoff (1m30s)"],
  },
  {
    name: "a retryOn entry that is not an integer",
    input: httpWithRetry('{maxAttempts: 3, retryOn: [502, "503"]}'),
    issues: ['spec.handlers[0].httpConfig.retryPolicy.retryOn[1]: expected an integer; got "503"'],
  },
  {
    name: "openapi retry policies are validated with the http rules",
    input: registry('    - name: o\n      type: openapi\n      openAPIConfig: {specURL: https://s, retryPolicy: {maxAttempts: 2, backoffMultiplier: "0.9"}}'),
    issues: ["spec.handlers[0].openAPIConfig.retryPolicy.backoffMultiplier: http retry policy: backoffMultiplier 0.9 must be >= 1.0"],
  },
  {
    name: "V14 grpc retryableStatusCodes with an unknown code",
    input: grpcWithRetry("{maxAttempts: 3, retryableStatusCodes: [UNAVAILABLE, NOPE]}"),
    issues: ['spec.handlers[0].grpcConfig.retryPolicy.retryableStatusCodes[1]: grpc retry policy: unknown gRPC status code "NOPE"'],
  },
  {
    name: "V15 grpc retryableStatusCodes in the wrong case",
    input: grpcWithRetry("{maxAttempts: 3, retryableStatusCodes: [Unavailable]}"),
    issues: ['spec.handlers[0].grpcConfig.retryPolicy.retryableStatusCodes[0]: grpc retry policy: unknown gRPC status code "Unavailable"'],
  },
  {
    name: "a grpc multiplier below 1 and backoffs out of order",
    input: grpcWithRetry('{maxAttempts: 3, backoffMultiplier: "0.25", initialBackoff: 1m, maxBackoff: 500ms}'),
    issues: [
      "spec.handlers[0].grpcConfig.retryPolicy.backoffMultiplier: grpc retry policy: backoffMultiplier 0.25 must be >= 1.0",
      "spec.handlers[0].grpcConfig.retryPolicy.maxBackoff: grpc retry policy: maxBackoff (500ms) must be >= initialBackoff (1m0s)",
    ],
  },
  {
    name: "an mcp retry policy with backoffs out of order",
    input: registry("    - name: m\n      type: mcp\n      mcpConfig: {transport: stdio, command: x, retryPolicy: {maxAttempts: 2, initialBackoff: 5s, maxBackoff: 1s}}"),
    issues: ["spec.handlers[0].mcpConfig.retryPolicy.maxBackoff: mcp retry policy: maxBackoff (1s) must be >= initialBackoff (5s)"],
  },
  // --- auth (http.md §1.5; CEL rules) ------------------------------------------------------------
  {
    name: "V16 auth bearer without secretRef",
    input: http("      httpConfig: {endpoint: e}\n      auth: {type: bearer}"),
    issues: ["spec.handlers[0].auth: auth.type bearer/basic requires secretRef"],
  },
  {
    name: "auth basic without secretRef",
    input: http("      httpConfig: {endpoint: e}\n      auth: {type: basic}"),
    issues: ["spec.handlers[0].auth: auth.type bearer/basic requires secretRef"],
  },
  {
    name: "auth serviceAccount without its block",
    input: http("      httpConfig: {endpoint: e}\n      auth: {type: serviceAccount}"),
    issues: ["spec.handlers[0].auth: auth.type serviceAccount requires the serviceAccount block"],
  },
  {
    name: "auth workloadIdentity without its block",
    input: http("      httpConfig: {endpoint: e}\n      auth: {type: workloadIdentity}"),
    issues: ["spec.handlers[0].auth: auth.type workloadIdentity requires the workloadIdentity block"],
  },
  {
    name: "auth plus the legacy httpConfig auth fields",
    input: http("      httpConfig: {endpoint: e, authType: bearer, authSecretRef: {name: old, key: k}}\n      auth: {type: bearer, secretRef: {name: new, key: k}}"),
    issues: ["spec.handlers[0].auth: set either the handler-level auth stanza or the legacy httpConfig/openAPIConfig authType/authSecretRef, not both"],
  },
  {
    name: "auth plus the legacy openAPIConfig auth fields",
    input: registry("    - name: o\n      type: openapi\n      openAPIConfig: {specURL: s, authSecretRef: {name: old, key: k}}\n      auth: {type: none}"),
    issues: ["spec.handlers[0].auth: set either the handler-level auth stanza or the legacy httpConfig/openAPIConfig authType/authSecretRef, not both"],
  },
  {
    name: "legacy authType without authSecretRef",
    input: http("      httpConfig: {endpoint: e, authType: bearer}"),
    issues: ["spec.handlers[0].httpConfig.authSecretRef: auth.type bearer/basic requires secretRef"],
  },
  {
    name: "a legacy authType other than bearer or basic",
    input: http("      httpConfig: {endpoint: e, authType: oauth, authSecretRef: {name: s, key: k}}"),
    issues: ['spec.handlers[0].httpConfig.authType: expected one of bearer|basic; got "oauth"'],
  },
  {
    name: "an unknown auth type",
    input: http("      httpConfig: {endpoint: e}\n      auth: {type: oauth}"),
    issues: ['spec.handlers[0].auth.type: expected one of none|bearer|basic|serviceAccount|workloadIdentity; got "oauth"'],
  },
  {
    name: "a secretRef without key",
    input: http("      httpConfig: {endpoint: e}\n      auth: {type: bearer, secretRef: {name: s}}"),
    issues: ["spec.handlers[0].auth.secretRef.key: is required"],
  },
  {
    name: "a workloadIdentity with an empty audience",
    input: http('      httpConfig: {endpoint: e}\n      auth: {type: workloadIdentity, workloadIdentity: {cloud: azure, audience: ""}}'),
    issues: ['spec.handlers[0].auth.workloadIdentity.audience: must not be empty; got ""'],
  },
  {
    name: "auth on a client handler",
    input: registry(`    - name: c\n      type: client\n${TOOL}\n      auth: {type: bearer, secretRef: {name: s, key: k}}`),
    issues: ["spec.handlers[0].auth: auth is not supported for client handlers"],
  },
  {
    name: "auth on a stdio mcp handler",
    input: registry("    - name: m\n      type: mcp\n      mcpConfig: {transport: stdio, command: x}\n      auth: {type: serviceAccount, serviceAccount: {audience: a}}"),
    issues: ["spec.handlers[0].auth: auth is not supported for mcp handlers with stdio transport"],
  },
  {
    name: "a grpc tls flag that is not a boolean",
    input: registry(`    - name: g\n      type: grpc\n${TOOL}\n      grpcConfig: {endpoint: g:1, tls: "yes"}`),
    issues: ['spec.handlers[0].grpcConfig.tls: expected a boolean; got "yes"'],
  },
  // --- documents ------------------------------------------------------------------------------
  {
    name: "an empty document",
    input: "",
    issues: ["no ToolRegistry document found: expected a ToolRegistry resource or an object with handlers"],
  },
  {
    name: "a YAML scalar",
    input: "hello",
    issues: ['expected a ToolRegistry resource or an object with handlers; got "hello"'],
  },
  {
    name: "a handler given without the handlers wrapper",
    input: { name: "h", type: "client" },
    issues: [
      "expected a ToolRegistry resource (kind: ToolRegistry, spec.handlers) or an object with handlers; got an object with keys name, type (a single handler must be wrapped as { handlers: [ ... ] })",
    ],
  },
  {
    name: "a problem in the second document of a multi-document YAML",
    input: `handlers:\n  - name: a\n    type: client\n${TOOL.replace("      ", "    ")}\n---\nhandlers:\n  - name: b\n    type: http\n${TOOL.replace("      ", "    ").replace("name: t", "name: u")}\n`,
    issues: ["documents[1].handlers[0].httpConfig: httpConfig is required for http handlers"],
  },
];

describe("bad manifests: exact path and message of every problem", () => {
  test(`there are at least 30 cases (${CASES.length})`, () => assert.ok(CASES.length >= 30));
  for (const c of CASES) {
    test(c.name, () => {
      const error = loadError(c.input);
      assert.equal(error.code, ErrorCode.CONFIG);
      assert.deepEqual(
        error.issues.map((i) => (i.path === "" ? i.message : `${i.path}: ${i.message}`)),
        c.issues,
      );
      assert.equal(error.message, c.issues.join("\n"));
    });
  }
});

describe("YAML syntax errors report their line", () => {
  test("an unclosed flow sequence", () => {
    const error = loadError("spec:\n  handlers:\n    - name: a\n      type: [http\n    - name: b\n");
    assert.deepEqual(error.issues, [
      {
        path: "",
        message: "invalid YAML at line 5, column 5: Flow sequence in block collection must be sufficiently indented and end with a ]",
        line: 5,
      },
    ]);
  });

  test("a duplicate key", () => {
    const error = loadError("spec:\n  handlers: []\n  handlers: []\n");
    assert.deepEqual(error.issues, [{ path: "", message: "invalid YAML at line 3, column 3: Map keys must be unique", line: 3 }]);
  });

  test("a tab used for indentation", () => {
    const error = loadError("spec:\n\thandlers: []\n");
    assert.equal(error.issues.length >= 1, true);
    assert.equal(error.issues[0]?.message.startsWith("invalid YAML at line 2, column 1: "), true);
  });

  test("broken JSON falls back to the YAML parser for the line", () => {
    const error = loadError('{\n  "handlers": [\n    {"name": "a",, "type": "client"}\n  ]\n}');
    assert.equal((error.issues[0] as ManifestIssue).line, 3);
    assert.match(error.message, /^invalid YAML at line 3, column \d+: /);
  });
});

describe("every problem is reported at once, each with its line", () => {
  test("JSON text gets line numbers too", () => {
    const error = loadError('{\n  "handlers": [\n    {\n      "name": "a",\n      "type": "http",\n      "tool": {"name": "a", "description": "A", "inputSchema": {}}\n    }\n  ]\n}\n');
    assert.deepEqual(error.issues, [{ path: "handlers[0].httpConfig", message: "httpConfig is required for http handlers", line: 3 }]);
  });

  test("problems in several handlers and fields all appear in one ConfigError", () => {
    const error = loadError(`apiVersion: omnia.altairalabs.ai/v1alpha1
kind: ToolRegistry
metadata: {name: reg}
spec:
  handlers:
    - name: weather
      type: http
      tool: {name: get_weather, description: w, inputSchema: {}}
      httpConfig:
        endpoint: https://w
        method: 7
        retryPolicy: {maxAttempts: 11, backoffMultiplier: "0.5"}
      timeout: soon
    - name: orders
      type: grpc
      grpcConfig: {endpoint: "o:1"}
    - name: Browser
      type: client
      tool: {name: get_location, description: l, inputSchema: {}}
      auth: {type: bearer}
`);
    assert.deepEqual(
      error.issues.map((i) => [i.path, i.message, (i as ManifestIssue).line]),
      [
        ["spec.handlers[0].httpConfig.method", "expected a string; got 7", 11],
        ["spec.handlers[0].httpConfig.retryPolicy.maxAttempts", "must be at most 10; got 11", 12],
        ["spec.handlers[0].httpConfig.retryPolicy.backoffMultiplier", "http retry policy: backoffMultiplier 0.5 must be >= 1.0", 12],
        ["spec.handlers[0].timeout", 'invalid duration "soon"', 13],
        ["spec.handlers[1].tool", "tool definition is required for grpc handlers", 14],
        ["spec.handlers[2].name", 'must match ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$; got "Browser"', 17],
        ["spec.handlers[2].auth", "auth.type bearer/basic requires secretRef", 20],
        ["spec.handlers[2].auth", "auth is not supported for client handlers", 20],
      ],
    );
  });
});

describe("duplicates (runtime-tools.md §7.4 DECISION, API.md decision 5)", () => {
  const twoX = registry(`    - name: weather-a
      type: http
      tool: {name: x, description: a, inputSchema: {}}
      httpConfig: {endpoint: https://a}
    - name: orders
      type: grpc
      tool: {name: y, description: y, inputSchema: {}}
      grpcConfig: {endpoint: "o:1"}
    - name: weather-b
      type: client
      tool: {name: x, description: b, inputSchema: {}}`);

  test("V22 two handlers defining tool x: a DuplicateToolError naming both handlers", () => {
    let caught: unknown;
    try {
      loadToolRegistry(twoX);
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof DuplicateToolError);
    assert.ok(caught instanceof ConfigError);
    assert.ok(isOmniaToolsError(caught));
    assert.equal(caught.code, "ERR_OMNIA_DUPLICATE_TOOL");
    assert.equal(caught.name, "DuplicateToolError");
    assert.equal(
      caught.message,
      'spec.handlers[2].tool.name: duplicate tool name "x": served by handler "weather-a" (spec.handlers[0]) and handler "weather-b" (spec.handlers[2])',
    );
    assert.deepEqual(caught.duplicates, [{ toolName: "x", handlers: ["weather-a", "weather-b"] }]);
    assert.equal((caught.issues[0] as ManifestIssue).code, "ERR_OMNIA_DUPLICATE_TOOL");
  });

  test("a duplicate across documents of a multi-document input", () => {
    const a = { handlers: [{ name: "a", type: "client", tool: { name: "x", description: "a", inputSchema: {} } }] };
    const b = { handlers: [{ name: "b", type: "client", tool: { name: "x", description: "b", inputSchema: {} } }] };
    assert.throws(() => loadToolRegistry([a, b]), {
      name: "DuplicateToolError",
      message: 'documents[1].handlers[0].tool.name: duplicate tool name "x": served by handler "a" (documents[0].handlers[0]) and handler "b" (documents[1].handlers[0])',
    });
  });

  test("the inline tool of an mcp handler is not served, so it cannot collide", () => {
    const registryWithMcp = loadToolRegistry({
      handlers: [
        { name: "a", type: "client", tool: { name: "x", description: "a", inputSchema: {} } },
        { name: "m", type: "mcp", tool: { name: "x", description: "m", inputSchema: {} }, mcpConfig: { transport: "stdio", command: "c" } },
      ],
    });
    assert.deepEqual(
      registryWithMcp.tools.map((t) => t.name),
      ["x"],
    );
  });

  test("a duplicate among other problems: a plain ConfigError whose duplicate issue carries the code", () => {
    const error = loadError(twoX.replace("httpConfig: {endpoint: https://a}", "httpConfig: {endpoint: 1}"));
    assert.equal(error.code, "ERR_OMNIA_CONFIG");
    assert.equal(error instanceof DuplicateToolError, false);
    assert.deepEqual(
      error.issues.map((i) => [i.path, (i as ManifestIssue).code]),
      [
        ["spec.handlers[0].httpConfig.endpoint", undefined],
        ["spec.handlers[2].tool.name", "ERR_OMNIA_DUPLICATE_TOOL"],
      ],
    );
  });

  test("a duplicate handler name", () => {
    const error = loadError({
      handlers: [
        { name: "a", type: "client", tool: { name: "x", description: "a", inputSchema: {} } },
        { name: "a", type: "client", tool: { name: "y", description: "b", inputSchema: {} } },
      ],
    });
    assert.equal(error.message, 'handlers[1].name: duplicate handler name "a"; already used by handlers[0]');
  });
});
