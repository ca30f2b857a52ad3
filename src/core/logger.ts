/**
 * Structured fields attached to a log line.
 * @public
 */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * The logger this package writes to. Pass your own (pino, winston, console
 * adapters are one line each); the default discards everything.
 * @public
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const noop = (): void => {};

/**
 * A logger that discards everything. The default wherever a logger is optional.
 * @public
 */
export const noopLogger: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });
