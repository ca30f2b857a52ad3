// Types that help (issue #23 item 6): the ErrorCode union, literal `code`s, isOmniaToolsError(e, code) narrowing,
// the handlerType union, and executor options refused at creation. The `typeChecks` function below is never
// called: `npx tsc -p tsconfig.json` checks it (each `@ts-expect-error` line must be an error), and the tests
// under it assert the same facts at run time.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as main from "../src/index.js";
import * as runtime from "../src/runtime.js";
import {
  ConfigError,
  DuplicateToolError,
  ErrorCode,
  HttpStatusError,
  InvalidOptionError,
  McpResultTooLargeError,
  McpToolError,
  OmniaToolsError,
  TimeoutError,
  createToolExecutor,
  isOmniaToolsError,
  loadToolRegistry,
  type HandlerType,
  type OmniaToolsErrorByCode,
  type ToolCallRecord,
  type ToolDescriptor,
  type ToolExecutorOptions,
  type ToolHandlerType,
  type ToolOutcome,
} from "../src/index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const is = <T extends true>(_proof?: T): void => undefined;

// Never called: only type-checked.
function typeChecks(e: unknown, outcome: ToolOutcome, record: ToolCallRecord, descriptor: ToolDescriptor, options: ToolExecutorOptions): void {
  // ErrorCode is a value and the union of its values.
  is<Equal<ErrorCode, (typeof ErrorCode)[keyof typeof ErrorCode]>>();
  const timeout: ErrorCode = "ERR_OMNIA_TIMEOUT";
  // @ts-expect-error not a code of this package
  const typo: ErrorCode = "ERR_OMNIA_TIMEOUTS";
  void timeout;
  void typo;

  // Each class's code is its literal.
  is<Equal<TimeoutError["code"], "ERR_OMNIA_TIMEOUT">>();
  is<Equal<HttpStatusError["code"], "ERR_OMNIA_HTTP_STATUS">>();
  is<Equal<DuplicateToolError["code"], "ERR_OMNIA_DUPLICATE_TOOL">>();
  is<Equal<ConfigError["code"], "ERR_OMNIA_CONFIG" | "ERR_OMNIA_DUPLICATE_TOOL">>();
  is<Equal<McpResultTooLargeError["code"], "ERR_OMNIA_MCP_RESULT_TOO_LARGE">>();
  is<Equal<OmniaToolsError["code"], ErrorCode>>();
  // @ts-expect-error a TimeoutError's code is never the config code
  const notConfig: "ERR_OMNIA_CONFIG" = new TimeoutError(1).code;
  void notConfig;

  // isOmniaToolsError(e, code) narrows to the code's class.
  if (isOmniaToolsError(e, "ERR_OMNIA_HTTP_STATUS")) {
    is<Equal<typeof e, HttpStatusError>>();
    const status: number = e.status;
    void status;
  }
  if (isOmniaToolsError(e, "ERR_OMNIA_TIMEOUT")) {
    const ms: number = e.timeoutMs;
    void ms;
  }
  if (isOmniaToolsError(e, "ERR_OMNIA_CONFIG")) is<Equal<typeof e.code, "ERR_OMNIA_CONFIG">>();
  if (isOmniaToolsError(e)) {
    is<Equal<typeof e, OmniaToolsError>>();
    // A switch over the code is exhaustive over the union.
    switch (e.code) {
      case "ERR_OMNIA_TIMEOUT":
        break;
      default: {
        const rest: Exclude<ErrorCode, "ERR_OMNIA_TIMEOUT"> = e.code;
        void rest;
      }
    }
  }
  // @ts-expect-error not a code of this package
  isOmniaToolsError(e, "ERR_OMNIA_NOPE");
  if (outcome.status === "error" && isOmniaToolsError(outcome.error, "ERR_OMNIA_RETRIES_EXHAUSTED")) {
    const attempts: number = outcome.error.attempts;
    void attempts;
  }
  is<Equal<keyof OmniaToolsErrorByCode, ErrorCode>>();

  // handlerType is a union wherever it appears.
  is<Equal<ToolHandlerType, HandlerType | "platform">>();
  is<Equal<HandlerType, "http" | "grpc" | "mcp" | "openapi" | "client">>();
  is<Equal<ToolOutcome["handlerType"], ToolHandlerType | "">>();
  is<Equal<ToolCallRecord["handlerType"], ToolHandlerType | "">>();
  is<Equal<ToolDescriptor["handlerType"], ToolHandlerType>>();
  // @ts-expect-error "ftp" is no handler type: the comparison can never be true
  if (outcome.handlerType === "ftp") return;
  // @ts-expect-error an unknown tool has no handler, but a descriptor always has one
  if (descriptor.handlerType === "") return;
  void record;

  // Executor options are typed: a number for agent.name does not compile (and is refused at run time).
  // @ts-expect-error agent.name is a string
  createToolExecutor({ ...options, agent: { name: 5 } });
}
void typeChecks;

test("ErrorCode lists exactly the codes of the exported error classes, each class with its own code", () => {
  const classes = new Map<string, string>();
  for (const entry of [main, runtime] as Record<string, unknown>[]) {
    for (const [name, value] of Object.entries(entry)) {
      if (typeof value !== "function" || !Object.prototype.isPrototypeOf.call(OmniaToolsError.prototype, value.prototype)) continue;
      const code = (value as unknown as { code: string }).code;
      const other = classes.get(code);
      assert.ok(other === undefined || other === name, `${name} and ${other} share the code ${code}`);
      classes.set(code, name);
    }
  }
  assert.deepEqual([...classes.keys()].sort(), Object.values(ErrorCode).sort());
  assert.equal(classes.size, 32);
  assert.equal(classes.get("ERR_OMNIA_MISSING_PEER"), "MissingPeerError");
  assert.equal(classes.get("ERR_OMNIA_CONVERSE_STATE"), "ConverseStateError");
  assert.equal(classes.get("ERR_OMNIA_MCP_RESULT_TOO_LARGE"), "McpResultTooLargeError");
  // Every key names its code: ErrorCode.HTTP_STATUS is "ERR_OMNIA_HTTP_STATUS".
  for (const [key, code] of Object.entries(ErrorCode)) assert.equal(code, `ERR_OMNIA_${key}`);
});

test("isOmniaToolsError(e, code): true only for an error of this package with that code", () => {
  const status = new HttpStatusError(503, "down");
  assert.equal(isOmniaToolsError(status), true);
  assert.equal(isOmniaToolsError(status, "ERR_OMNIA_HTTP_STATUS"), true);
  assert.equal(isOmniaToolsError(status, "ERR_OMNIA_TIMEOUT"), false);
  assert.equal(isOmniaToolsError(new TimeoutError(5), "ERR_OMNIA_TIMEOUT"), true);
  // A subclass is listed under its own code: a DuplicateToolError is a ConfigError, but its code is DUPLICATE_TOOL.
  const duplicate = new DuplicateToolError([{ path: "spec.handlers[1]", message: "dup" }], []);
  assert.equal(duplicate instanceof ConfigError, true);
  assert.equal(isOmniaToolsError(duplicate, "ERR_OMNIA_DUPLICATE_TOOL"), true);
  assert.equal(isOmniaToolsError(duplicate, "ERR_OMNIA_CONFIG"), false);
  assert.equal(new McpResultTooLargeError("t", "big") instanceof McpToolError, true);
  // Not errors of this package, whatever their code.
  assert.equal(isOmniaToolsError(Object.assign(new Error("x"), { code: "ERR_OMNIA_TIMEOUT" }), "ERR_OMNIA_TIMEOUT"), false);
  assert.equal(isOmniaToolsError({ code: "ERR_OMNIA_TIMEOUT" }, "ERR_OMNIA_TIMEOUT"), false);
  assert.equal(isOmniaToolsError(null, "ERR_OMNIA_TIMEOUT"), false);
  // The runtime entry's isOmniaToolsError takes the code too.
  assert.equal(runtime.isOmniaToolsError(status, "ERR_OMNIA_HTTP_STATUS"), true);
  assert.equal(runtime.isOmniaToolsError(status, "ERR_OMNIA_CLOSED"), false);
});

const REGISTRY = loadToolRegistry(`
handlers:
  - name: h
    type: http
    tool: { name: t, description: d, inputSchema: { type: object } }
    httpConfig: { endpoint: "http://127.0.0.1:9/x" }
`);

test("createToolExecutor refuses an option of the wrong type at creation, naming its path and the value got", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ agent: { name: 5 } }, "agent.name must be a string; got 5"],
    [{ agent: { name: "a", namespace: ["ns"] } }, "agent.namespace must be a string; got array"],
    [{ agent: { model: null } }, "agent.model must be a string; got null"],
    [{ agent: "support" }, 'agent must be an object of strings (name, namespace, workspace, provider, model); got "support"'],
    [{ agent: { nmae: "a" } }, 'agent: unknown option "nmae"; expected one of name, namespace, workspace, provider, model'],
    [{ random: 0.5 }, "random must be a function; got 0.5"],
    [{ secrets: {} }, "secrets must be a function; got object"],
    [{ delegation: "token" }, 'delegation must be a function; got "token"'],
    [{ workloadIdentity: true }, "workloadIdentity must be a function; got true"],
    [{ logger: console.log }, "logger.debug must be a function; got undefined"],
    [{ logger: { debug() {}, info() {}, warn() {} } }, "logger.error must be a function; got undefined"],
    [{ logger: "debug" }, 'logger must be a Logger (an object with debug, info, warn, error); got "debug"'],
    [{ clock: Date }, "clock.setTimeout must be a function; got undefined"],
    [{ clock: { now: 0, setTimeout() {} } }, "clock.now must be a function; got 0"],
    [{ breakers: {} }, "breakers.get must be a function; got undefined"],
    [{ breakers: 3 }, "breakers must be a CircuitBreakers set from createCircuitBreakers() (an object with get); got 3"],
    [{ recorder: [] }, "recorder.record must be a function; got undefined"],
    [{ recorder: { record() {}, start: 1 } }, "recorder.start must be a function; got 1"],
    [{ policy: "allow" }, 'policy must be a decision function or { decide, failOpen? }; got "allow"'],
    [{ policy: { decide() {}, failOpen: "yes" } }, 'policy.failOpen must be a boolean; got "yes"'],
    [{ policy: {} }, "policy.decide must be a function; got undefined"],
    [{ telemetry: true }, "telemetry must be false or an object of telemetry options; got true"],
  ];
  for (const [options, message] of cases) {
    assert.throws(
      () => createToolExecutor({ registry: REGISTRY, ...options } as never),
      (e: unknown) => {
        assert.ok(isOmniaToolsError(e, "ERR_OMNIA_INVALID_OPTION"), String(e));
        assert.ok(e instanceof InvalidOptionError);
        assert.equal(e.message, `createToolExecutor: ${message}`);
        return true;
      },
    );
  }
});

test("options of the right type still create an executor", async () => {
  const ex = createToolExecutor({
    registry: REGISTRY,
    agent: { name: "support", namespace: undefined },
    policy: { decide: () => ({ allow: true }), failOpen: false },
    recorder: { record() {} },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    telemetry: false,
    random: () => 0,
    breakers: main.createCircuitBreakers(),
  });
  assert.deepEqual(
    ex.tools.map((t) => [t.name, t.handlerType]),
    [["t", "http"]],
  );
  await ex.close();
});
