import type { z } from 'zod';
import { fromZodError } from './errors';

/** Parses with zod and throws the standard 400 on failure (the spec's messages are the zod messages). */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodError(result.error);
  return result.data;
}
