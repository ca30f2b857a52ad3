import { createRequire } from "node:module";
import type { OtelContext, OtelMeter, OtelPropagator, OtelSpan, OtelTextMapSetter, OtelTracer } from "./otel-types.js";

/**
 * The part of the `@opentelemetry/api` module this package uses.
 * @internal Does not follow semver.
 */
export interface OpenTelemetryApi {
  readonly context: { active(): OtelContext; with<T>(context: OtelContext, fn: () => T): T };
  readonly trace: {
    getTracer(name: string, version?: string): OtelTracer;
    setSpan(context: OtelContext, span: OtelSpan): OtelContext;
    /** The span a context holds, if any. */
    getSpan?(context: OtelContext): unknown;
    getTracerProvider(): object;
  };
  readonly metrics: { getMeter(name: string, version?: string): OtelMeter };
  /** The API's no-op meter: a meter of its class records nothing. */
  readonly createNoopMeter?: () => object;
  /** The API's proxy provider: a fresh one's delegate is the no-op provider (no SDK registered). */
  readonly ProxyTracerProvider?: new () => { getDelegate(): unknown };
  readonly propagation: OtelPropagator;
  readonly defaultTextMapSetter: OtelTextMapSetter;
}

/**
 * Loads `@opentelemetry/api` (an optional peer dependency) when it is installed,
 * and returns `undefined` when it is not. Called only when a telemetry object is
 * created, never at import, so `import "omnia-tools"` loads no OpenTelemetry code.
 *
 * The API keeps its globals (tracer provider, meter provider, propagator, context
 * manager) under `Symbol.for` keys on `globalThis`, so the copy loaded here sees
 * what the host registered through its own copy, ESM or CommonJS.
 * @internal Does not follow semver.
 */
export function loadOpenTelemetryApi(from: string = import.meta.url): OpenTelemetryApi | undefined {
  const require = createRequire(from);
  try {
    return require("@opentelemetry/api") as OpenTelemetryApi;
  } catch (e) {
    if ((e as { code?: unknown } | null)?.code === "MODULE_NOT_FOUND") return undefined;
    throw e;
  }
}

/**
 * This package's version, for the instrumentation scope.
 * @internal Does not follow semver.
 */
export function packageVersion(): string | undefined {
  try {
    const pkg = createRequire(import.meta.url)("../../package.json") as { version?: unknown };
    return typeof pkg.version === "string" ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}
