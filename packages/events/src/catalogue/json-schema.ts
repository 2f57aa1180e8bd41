import { z } from 'zod';
import type { AnyContract } from '../envelope';
import { envelopeSchema } from '../envelope';

/** A JSON Schema as plain data (what `z.toJSONSchema` returns, minus `$schema`). */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * The JSON Schema of what a consumer's parse accepts for this contract's payload. `io: 'input'` because consumers
 * parse (`parseEnvelope`): zod objects strip unknown keys, so the input schema leaves `additionalProperties` open,
 * which is exactly why a new optional field does not break an old consumer. Draft-07 is the dialect AsyncAPI 3.0's
 * default schema format extends, so the same schema goes into the catalogue and into the snapshots.
 */
export function payloadJsonSchema(contract: AnyContract): JsonSchema {
  return jsonSchemaOf(contract.schema);
}

/**
 * The envelope every message travels in (`data` is replaced by the contract's payload in the catalogue). `schema`
 * defaults to the real one; the compatibility tests pass a changed envelope.
 */
export function envelopeJsonSchema(schema: z.ZodType = envelopeSchema): JsonSchema {
  return jsonSchemaOf(schema);
}

export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return withoutDialect(z.toJSONSchema(schema, { target: 'draft-07', io: 'input' }) as JsonSchema);
}

function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
