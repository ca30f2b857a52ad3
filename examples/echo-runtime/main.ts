// Runs the echo runtime the way the Omnia operator deploys a custom runtime
// (`spec.framework.type: custom`): everything comes from the environment the
// operator injects. On a laptop:
//
//   OMNIA_AGENT_NAME=echo OMNIA_NAMESPACE=dev \
//   OMNIA_PROMPTPACK_PATH=examples/pack.json OMNIA_TOOLS_CONFIG_PATH=examples/registry.yaml \
//   node --import tsx examples/echo-runtime/main.ts
//
// gRPC on OMNIA_GRPC_PORT (9000), /healthz /readyz /metrics on OMNIA_HEALTH_PORT
// (9001); SIGTERM or Ctrl-C drains and exits 0. The first line on stdout is
// `{"grpcPort":…,"healthPort":…}`, for scripts that start it on port 0.
import { startRuntime } from "../../src/runtime.js";
import { createEchoHandler } from "./echo-runtime.js";

const runtime = await startRuntime(({ executor, reconciliation }) => createEchoHandler(executor, reconciliation).handler);
process.stdout.write(`${JSON.stringify({ grpcPort: runtime.server.port, healthPort: runtime.healthPort })}\n`);
