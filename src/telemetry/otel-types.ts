// The slice of `@opentelemetry/api` this package uses, written out structurally so that
// the package's types never name the optional peer dependency: a host without it
// installed type-checks, and one with it passes its real Tracer, Meter and propagator.

/**
 * Attribute values as this package writes them.
 * @public
 */
export type OtelAttributes = Readonly<Record<string, string | number | boolean>>;

/**
 * An OpenTelemetry context (the API's `Context`).
 * @public
 */
export interface OtelContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): OtelContext;
  deleteValue(key: symbol): OtelContext;
}

/**
 * The part of an OpenTelemetry `Span` this package calls.
 * @public
 */
export interface OtelSpan {
  /** Sets one attribute after the span started (the MCP request id, `error.type`). Optional: without it those attributes are not set. */
  setAttribute?(key: string, value: string | number | boolean): unknown;
  addEvent(name: string, attributes?: OtelAttributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: { name: string; message: string; stack?: string }): void;
  end(): void;
}

/**
 * The part of an OpenTelemetry `Tracer` this package calls (`@opentelemetry/api`'s `Tracer` is one).
 * @public
 */
export interface OtelTracer {
  startSpan(name: string, options: { kind: number; attributes: OtelAttributes }, context: OtelContext): OtelSpan;
}

/**
 * The part of an OpenTelemetry `Counter` this package calls.
 * @public
 */
export interface OtelCounter {
  add(value: number, attributes: OtelAttributes): void;
}

/**
 * The part of an OpenTelemetry `Histogram` this package calls.
 * @public
 */
export interface OtelHistogram {
  record(value: number, attributes: OtelAttributes): void;
}

/**
 * The part of an OpenTelemetry `Meter` this package calls (`@opentelemetry/api`'s `Meter` is one).
 * @public
 */
export interface OtelMeter {
  createCounter(name: string, options: { description: string }): OtelCounter;
  createHistogram(name: string, options: { description: string; unit: string; advice: { explicitBucketBoundaries: number[] } }): OtelHistogram;
}

/**
 * How a propagator writes one header (`@opentelemetry/api`'s `TextMapSetter`).
 * @public
 */
export interface OtelTextMapSetter {
  set(carrier: Record<string, string>, key: string, value: string): void;
}

/**
 * The part of an OpenTelemetry `TextMapPropagator` this package calls
 * (`W3CTraceContextPropagator` and `CompositePropagator` of `@opentelemetry/core` are ones).
 * @public
 */
export interface OtelPropagator {
  inject(context: OtelContext, carrier: Record<string, string>, setter: OtelTextMapSetter): void;
}
