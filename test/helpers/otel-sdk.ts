// The real OpenTelemetry JS SDK for a test file: an in-memory span exporter
// (reset before each test), a tracer provider, the host's tracer and the
// package's, and the async-hooks context manager registered for the file.
// Executors and clients pushed to `closers` are closed after the file's tests,
// before the SDK is shut down.
import { after, before, beforeEach } from "node:test";
import { context, propagation, trace, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";

export interface OtelSdk {
  readonly spans: InMemorySpanExporter;
  readonly provider: BasicTracerProvider;
  /** The host application's tracer (its turn or LLM spans). */
  readonly host: Tracer;
  /** The tracer handed to the package. */
  readonly tracer: Tracer;
  readonly closers: (() => Promise<void>)[];
  /**
   * Runs `fn` inside the host's active span `genai.chat` (with these baggage
   * entries in its context, when given); returns what `fn` gave, the host span
   * and every other span finished so far.
   */
  underHost<T>(fn: () => Promise<T>, baggage?: Readonly<Record<string, string>>): Promise<{ out: T; parent: ReadableSpan; others: ReadableSpan[] }>;
}

/** Registers the SDK's hooks on the calling test file; call it once, at the top level. */
export function useOtelSdk(): OtelSdk {
  const contextManager = new AsyncLocalStorageContextManager();
  const spans = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const host = provider.getTracer("host");
  async function underHost<T>(fn: () => Promise<T>, baggage?: Readonly<Record<string, string>>): Promise<{ out: T; parent: ReadableSpan; others: ReadableSpan[] }> {
    const entries = Object.fromEntries(Object.entries(baggage ?? {}).map(([k, value]) => [k, { value }]));
    const ctx = baggage === undefined ? context.active() : propagation.setBaggage(context.active(), propagation.createBaggage(entries));
    const out = await context.with(ctx, () =>
      host.startActiveSpan("genai.chat", async (span) => {
        try {
          return await fn();
        } finally {
          span.end();
        }
      }),
    );
    const finished = spans.getFinishedSpans();
    const parent = finished.find((s) => s.name === "genai.chat")!;
    return { out, parent, others: finished.filter((s) => s !== parent) };
  }
  const sdk: OtelSdk = { spans, provider, host, tracer: provider.getTracer("omnia-tools", "0.1.0"), closers: [], underHost };
  before(() => {
    context.setGlobalContextManager(contextManager.enable());
  });
  after(async () => {
    for (const close of sdk.closers.reverse()) await close();
    context.disable();
    propagation.disable();
    trace.disable();
    await provider.shutdown();
  });
  beforeEach(() => spans.reset());
  return sdk;
}
