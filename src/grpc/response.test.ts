import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Code, ConnectError } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { OmniaToolsError } from "../core/index.js";
import { ToolResponseSchema } from "../gen/omnia/tools/v1/tools_pb.js";
import { GrpcStatusError, ToolError, grpcCodeName } from "./errors.js";
import { toGrpcStatusError } from "./status-error.js";
import { interpretToolResponse } from "./response.js";

test("seed 004 row: is_error=false with result_json → the text verbatim, parsed", () => {
  const text = '{"temp": 21.5, "city":"Paris"}';
  const out = interpretToolResponse(create(ToolResponseSchema, { resultJson: text }));
  assert.deepEqual(out, { status: "success", result: { temp: 21.5, city: "Paris" }, resultJson: text });
});

test("seed 004 row: is_error=false with an empty result_json → null", () => {
  assert.deepEqual(interpretToolResponse(create(ToolResponseSchema, {})), { status: "success", result: null, resultJson: "null" });
  assert.deepEqual(interpretToolResponse({}), { status: "success", result: null, resultJson: "null" });
});

test("seed 004 row: is_error=true → tool error: <error_message>, a ToolError, whatever result_json holds", () => {
  const out = interpretToolResponse(create(ToolResponseSchema, { isError: true, errorMessage: "city not found", resultJson: '{"ignored":true}' }));
  assert.equal(out.status, "error");
  assert.ok(out.status === "error");
  assert.equal(out.message, "tool error: city not found");
  assert.ok(out.error instanceof ToolError);
  assert.ok(out.error instanceof OmniaToolsError);
  assert.equal(out.error.code, "ERR_OMNIA_TOOL_ERROR");
  assert.equal(out.error.name, "ToolError");
  assert.equal(out.error.message, "tool error: city not found");
  assert.equal((out.error as ToolError).errorMessage, "city not found");
});

test("is_error=true with an empty error_message → `tool error: ` (Go's %s of an empty string)", () => {
  const out = interpretToolResponse({ isError: true });
  assert.ok(out.status === "error");
  assert.equal(out.message, "tool error: ");
});

test("a result_json that is not JSON stays a success: the text as it came, result = that text", () => {
  assert.deepEqual(interpretToolResponse({ resultJson: "plain words" }), { status: "success", result: "plain words", resultJson: "plain words" });
});

test("scalars and arrays in result_json parse as JSON values", () => {
  assert.deepEqual(interpretToolResponse({ resultJson: "42" }), { status: "success", result: 42, resultJson: "42" });
  assert.deepEqual(interpretToolResponse({ resultJson: '"x"' }), { status: "success", result: "x", resultJson: '"x"' });
  assert.deepEqual(interpretToolResponse({ resultJson: "[1,null]" }), { status: "success", result: [1, null], resultJson: "[1,null]" });
  assert.deepEqual(interpretToolResponse({ resultJson: "null" }), { status: "success", result: null, resultJson: "null" });
});

test("a non-OK status (ConnectError) → rpc error: code = <grpc-go name> desc = <message>, a GrpcStatusError", () => {
  const out = interpretToolResponse(new ConnectError("backend down", Code.Unavailable));
  assert.ok(out.status === "error");
  assert.equal(out.message, "rpc error: code = Unavailable desc = backend down");
  assert.ok(out.error instanceof GrpcStatusError);
  const e = out.error as GrpcStatusError;
  assert.equal(e.code, "ERR_OMNIA_GRPC_STATUS");
  assert.equal(e.name, "GrpcStatusError");
  assert.equal(e.grpcCode, "UNAVAILABLE");
  assert.equal(e.grpcCodeNumber, 14);
  assert.equal(e.statusMessage, "backend down");
});

test("a GrpcStatusError passes through interpretToolResponse unchanged", () => {
  const e = new GrpcStatusError("INTERNAL", "boom");
  const out = interpretToolResponse(e);
  assert.ok(out.status === "error");
  assert.equal(out.error, e);
  assert.equal(out.message, "rpc error: code = Internal desc = boom");
});

test("every gRPC code prints grpc-go's name and carries the canonical UPPER_SNAKE name", () => {
  const table: [number, string, string][] = [
    [1, "Canceled", "CANCELLED"],
    [2, "Unknown", "UNKNOWN"],
    [3, "InvalidArgument", "INVALID_ARGUMENT"],
    [4, "DeadlineExceeded", "DEADLINE_EXCEEDED"],
    [5, "NotFound", "NOT_FOUND"],
    [6, "AlreadyExists", "ALREADY_EXISTS"],
    [7, "PermissionDenied", "PERMISSION_DENIED"],
    [8, "ResourceExhausted", "RESOURCE_EXHAUSTED"],
    [9, "FailedPrecondition", "FAILED_PRECONDITION"],
    [10, "Aborted", "ABORTED"],
    [11, "OutOfRange", "OUT_OF_RANGE"],
    [12, "Unimplemented", "UNIMPLEMENTED"],
    [13, "Internal", "INTERNAL"],
    [14, "Unavailable", "UNAVAILABLE"],
    [15, "DataLoss", "DATA_LOSS"],
    [16, "Unauthenticated", "UNAUTHENTICATED"],
  ];
  for (const [n, goName, canonical] of table) {
    const e = toGrpcStatusError(new ConnectError("m", n as Code));
    assert.equal(e.message, `rpc error: code = ${goName} desc = m`);
    assert.equal(e.grpcCode, canonical);
    assert.equal(e.grpcCodeNumber, n);
    assert.equal(grpcCodeName(n), canonical);
    assert.equal(new GrpcStatusError(canonical as GrpcStatusError["grpcCode"], "m").grpcCodeNumber, n);
  }
  assert.equal(grpcCodeName(0), "OK");
  assert.equal(grpcCodeName(17), undefined);
  assert.equal(new GrpcStatusError(99, "odd").message, "rpc error: code = Unknown desc = odd");
});

test("connect's deadline text reads as grpc-go's: context deadline exceeded", () => {
  const e = toGrpcStatusError(new ConnectError("the operation timed out", Code.DeadlineExceeded));
  assert.equal(e.message, "rpc error: code = DeadlineExceeded desc = context deadline exceeded");
  assert.equal(e.grpcCode, "DEADLINE_EXCEEDED");
  // A backend's own DeadlineExceeded text is kept.
  assert.equal(toGrpcStatusError(new ConnectError("upstream slow", Code.DeadlineExceeded)).message, "rpc error: code = DeadlineExceeded desc = upstream slow");
});

test("a failure carrying a Node socket or TLS error is UNAVAILABLE, as grpc-go reports connection errors", () => {
  const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
  const tlsError = Object.assign(new Error("self-signed certificate in certificate chain\n"), { code: "SELF_SIGNED_CERT_IN_CHAIN" });
  const a = toGrpcStatusError(new ConnectError("read ECONNRESET", Code.Aborted, undefined, undefined, reset));
  assert.equal(a.message, "rpc error: code = Unavailable desc = read ECONNRESET");
  const b = toGrpcStatusError(new ConnectError("self-signed certificate in certificate chain\n", Code.Internal, undefined, undefined, tlsError));
  assert.equal(b.message, "rpc error: code = Unavailable desc = self-signed certificate in certificate chain");
  assert.equal(b.grpcCode, "UNAVAILABLE");
  assert.equal(b.cause instanceof ConnectError, true);
  // A status from the wire has no Node cause and keeps its code.
  assert.equal(toGrpcStatusError(new ConnectError("nope", Code.Internal)).grpcCode, "INTERNAL");
});

test("anything else thrown becomes a GrpcStatusError through ConnectError.from (code Unknown)", () => {
  const e = toGrpcStatusError(new Error("weird"));
  assert.equal(e.message, "rpc error: code = Unknown desc = weird");
  assert.equal(e.grpcCode, "UNKNOWN");
});

test("property: any JSON text round-trips (result = its parse, resultJson = the text); is_error always wins", () => {
  fc.assert(
    fc.property(fc.json(), fc.string(), (text, message) => {
      assert.deepEqual(interpretToolResponse({ resultJson: text }), { status: "success", result: JSON.parse(text) as unknown, resultJson: text });
      const err = interpretToolResponse({ resultJson: text, isError: true, errorMessage: message });
      assert.ok(err.status === "error");
      assert.equal(err.message, `tool error: ${message}`);
    }),
    { numRuns: 500 },
  );
});
