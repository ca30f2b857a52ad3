import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus } from "../gen/grpc/health/v1/health_pb.js";
import { ToolService } from "../gen/omnia/tools/v1/tools_pb.js";

/**
 * Registers the standard `grpc.health.v1.Health` service: `Check` answers
 * `SERVING` for the server as a whole (`""`) and each of `services` (default:
 * `omnia.tools.v1.ToolService`), and `NOT_FOUND` for any other name; `Watch`
 * sends the status once (`SERVICE_UNKNOWN` for an unknown name) and holds the
 * stream until the client or the server ends it. The runtime SDK registers it
 * with the RuntimeService name, as the Go SDK's `Serve` does.
 * @internal Does not follow semver.
 */
export function registerHealth(router: ConnectRouter, services: readonly string[] = [ToolService.typeName]): void {
  const SERVED: ReadonlySet<string> = new Set(["", ...services]);
  router.service(Health, {
    check(request) {
      if (!SERVED.has(request.service)) throw new ConnectError(`unknown service ${JSON.stringify(request.service)}`, Code.NotFound);
      return { status: HealthCheckResponse_ServingStatus.SERVING };
    },
    async *watch(request, ctx: HandlerContext) {
      yield {
        status: SERVED.has(request.service) ? HealthCheckResponse_ServingStatus.SERVING : HealthCheckResponse_ServingStatus.SERVICE_UNKNOWN,
      };
      // The status never changes: hold the stream until it is cancelled or the server shuts down.
      await new Promise<void>((resolve) => {
        if (ctx.signal.aborted) resolve();
        else ctx.signal.addEventListener("abort", () => resolve(), { once: true });
      });
    },
  });
}
