import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus } from "../gen/grpc/health/v1/health_pb.js";
import { RuntimeService } from "../contract/index.js";

/** The names `Check` answers SERVING for: the server as a whole (`""`, as the Go SDK registers) and the RuntimeService. */
const SERVED: ReadonlySet<string> = new Set(["", RuntimeService.typeName]);

/**
 * Registers the standard `grpc.health.v1.Health` beside the RuntimeService,
 * as the Go SDK's `Serve` does (contract.md §5.1, vector S22): `Check`
 * answers `SERVING` for `""` and `omnia.runtime.v1.RuntimeService` and
 * `NotFound` for any other name; `Watch` sends the status once
 * (`SERVICE_UNKNOWN` for an unknown name) and holds the stream until the
 * client cancels or the server shuts down.
 * @internal Does not follow semver.
 */
export function registerRuntimeHealth(router: ConnectRouter): void {
  router.service(Health, {
    check(request) {
      if (!SERVED.has(request.service)) throw new ConnectError(`unknown service ${JSON.stringify(request.service)}`, Code.NotFound);
      return { status: HealthCheckResponse_ServingStatus.SERVING };
    },
    async *watch(request, ctx: HandlerContext) {
      yield {
        status: SERVED.has(request.service) ? HealthCheckResponse_ServingStatus.SERVING : HealthCheckResponse_ServingStatus.SERVICE_UNKNOWN,
      };
      await new Promise<void>((resolve) => {
        if (ctx.signal.aborted) resolve();
        else ctx.signal.addEventListener("abort", () => resolve(), { once: true });
      });
    },
  });
}
