/**
 * The logging surface this package needs. pino's Logger satisfies it structurally, so the package never
 * depends on pino itself.
 */
export interface Logger {
  debug(obj: Record<string, unknown>, msg?: string): void;
  info(obj: Record<string, unknown>, msg?: string): void;
  warn(obj: Record<string, unknown>, msg?: string): void;
  error(obj: Record<string, unknown>, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** A logger that drops everything (the default when none is given). */
export const noopLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => noopLogger,
};

/** Turns anything thrown into something a log line can carry. */
export function errorFields(err: unknown): Record<string, unknown> {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return {
      err: {
        name: err.name,
        message: err.message,
        stack: err.stack,
        ...(code !== undefined ? { code } : {}),
      },
    };
  }
  return { err: { message: String(err) } };
}

/** A short, single-line description of an error for headers and database columns. */
export function errorMessage(err: unknown, max = 1000): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
