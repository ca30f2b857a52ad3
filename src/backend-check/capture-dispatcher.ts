// The checker calls a backend through the real executor, and needs to see what
// the executor does not pass on: the raw status, content type and body of an
// HTTP answer (was a 2xx body JSON, or wrapped as {"result": ...}? how long
// and how plain was an error body?). This dispatcher forwards every request to
// the real one and keeps a copy of the latest answer, bounded.
import type { Clock, HttpDispatcher, HttpDispatchHandler, HttpDispatchOptions } from "../core/index.js";

/** The most body bytes kept of one answer: Omnia's read cap, 10 MiB, plus one to tell "over". */
export const CAPTURE_MAX_BYTES = 10 * 1024 * 1024 + 1;

/** One HTTP exchange as the backend answered it. @internal */
export interface Exchange {
  readonly method: string;
  /** The names (never the values) of the request's headers, lower-cased. */
  readonly headerNames: readonly string[];
  status: number | undefined;
  contentType: string;
  /** The answer's `content-length`, when it sent a valid one. */
  declaredLength: number | undefined;
  /** The body bytes kept (at most {@link CAPTURE_MAX_BYTES}). */
  readonly chunks: Buffer[];
  /** Every body byte the backend sent, kept or not. */
  bytes: number;
  kept: number;
  /** When the request was handed to the dispatcher, on the clock. */
  readonly startedAt: number;
  /** When the answer ended, on the clock; undefined while it has not (or when the reader stopped early). */
  endedAt: number | undefined;
}

/** A dispatcher that forwards to `inner` and keeps the latest exchange. @internal */
export class CaptureDispatcher implements HttpDispatcher {
  #last: Exchange | undefined;
  constructor(
    private readonly inner: HttpDispatcher,
    private readonly clock: Clock,
  ) {}

  /** The latest exchange since {@link CaptureDispatcher.reset}, if any. */
  get last(): Exchange | undefined {
    return this.#last;
  }

  reset(): void {
    this.#last = undefined;
  }

  dispatch(options: HttpDispatchOptions, handler: HttpDispatchHandler): boolean {
    const exchange: Exchange = { method: options.method, headerNames: Object.keys(options.headers ?? {}).map((k) => k.toLowerCase()), status: undefined, contentType: "", declaredLength: undefined, chunks: [], bytes: 0, kept: 0, startedAt: this.clock.now(), endedAt: undefined };
    // Only the latest answer is kept: an earlier attempt's body is dropped here.
    this.#last = exchange;
    return this.inner.dispatch(options, observe(handler, exchange, this.clock));
  }
}

function keep(exchange: Exchange, chunk: Uint8Array): void {
  exchange.bytes += chunk.length;
  if (exchange.kept < CAPTURE_MAX_BYTES) {
    const part = chunk.subarray(0, CAPTURE_MAX_BYTES - exchange.kept);
    exchange.chunks.push(Buffer.from(part));
    exchange.kept += part.length;
  }
}

function lengthOf(text: string): number | undefined {
  return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

function headerValue(headers: unknown, name: string): string {
  if (Array.isArray(headers)) {
    // undici's raw form: [name, value, name, value, ...] as Buffers or strings.
    for (let i = 0; i + 1 < headers.length; i += 2) {
      if (String(headers[i]).toLowerCase() === name) return String(headers[i + 1]);
    }
    return "";
  }
  const value = (headers as Record<string, string | string[] | undefined> | null)?.[name];
  return (Array.isArray(value) ? value[0] : value) ?? "";
}

/**
 * The handler, seen through: the status, content type and body of the answer
 * are copied into `exchange`, and every call goes on to the handler as it was
 * made. Both of undici's handler interfaces are seen (`onResponseStart` …
 * for this package's transport, `onHeaders` … for `fetch`, which the MCP and
 * OpenAPI clients use); every other member passes through untouched.
 */
function observe(handler: HttpDispatchHandler, exchange: Exchange, clock: Clock): HttpDispatchHandler {
  return new Proxy(handler, {
    get(target, key, receiver) {
      const member = Reflect.get(target, key, receiver) as unknown;
      if (typeof member !== "function") return member;
      const fn = member as (...a: unknown[]) => unknown;
      switch (key) {
        case "onResponseStart":
          return (controller: unknown, status: number, headers: unknown, ...rest: unknown[]) => {
            exchange.status = status;
            exchange.contentType = headerValue(headers, "content-type");
            exchange.declaredLength = lengthOf(headerValue(headers, "content-length"));
            return fn.call(target, controller, status, headers, ...rest);
          };
        case "onHeaders":
          return (status: number, headers: unknown, ...rest: unknown[]) => {
            exchange.status = status;
            exchange.contentType = headerValue(headers, "content-type");
            exchange.declaredLength = lengthOf(headerValue(headers, "content-length"));
            return fn.call(target, status, headers, ...rest);
          };
        case "onResponseData":
          return (controller: unknown, chunk: Uint8Array) => {
            keep(exchange, chunk);
            return fn.call(target, controller, chunk);
          };
        case "onData":
          return (chunk: Uint8Array) => {
            keep(exchange, chunk);
            return fn.call(target, chunk);
          };
        case "onResponseEnd":
        case "onComplete":
          return (...a: unknown[]) => {
            exchange.endedAt = clock.now();
            return fn.apply(target, a);
          };
        default:
          return fn.bind(target);
      }
    },
  });
}

/** The kept body as UTF-8 text. @internal */
export function exchangeText(exchange: Exchange): string {
  return Buffer.concat(exchange.chunks).toString("utf8");
}
