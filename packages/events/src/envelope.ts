import { uuidv7 } from './ids';
import { z } from 'zod';

/** Routing key / type: `<context>.<event>.v<N>`, lower case, words joined by '-' (e.g. `job.status-changed.v1`). */
export const EVENT_TYPE_PATTERN = /^[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)+\.v([1-9]\d*)$/;

/** Correlation and causation ids: any printable token (HTTP request ids are not always UUIDs). */
const traceId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7e]+$/, 'Must be printable ASCII without spaces');

export const envelopeSchema = z
  .object({
    id: z.uuid(),
    type: z.string().regex(EVENT_TYPE_PATTERN, 'Must look like <context>.<event>.v<N>'),
    version: z.int().positive(),
    occurredAt: z.iso.datetime({ offset: true }),
    source: z.string().min(1).max(100),
    correlationId: traceId,
    causationId: traceId.optional(),
    data: z.unknown(),
  })
  .superRefine((env, ctx) => {
    const match = EVENT_TYPE_PATTERN.exec(env.type);
    if (match && Number(match[1]) !== env.version) {
      ctx.addIssue({
        code: 'custom',
        path: ['version'],
        message: `version ${env.version} does not match type ${env.type}`,
      });
    }
  });

export interface EventEnvelope<TData = unknown, TType extends string = string> {
  id: string;
  type: TType;
  version: number;
  occurredAt: string;
  source: string;
  correlationId: string;
  causationId?: string;
  data: TData;
}

/** One event type at one version: its routing key, name, version and payload schema. */
export interface EventContract<TType extends string = string, TSchema extends z.ZodType = z.ZodType> {
  readonly type: TType;
  readonly name: string;
  readonly version: number;
  readonly schema: TSchema;
}

export type AnyContract = EventContract<string, z.ZodType>;
/** Payload type of a contract (after parsing). */
export type EventData<C extends AnyContract> = z.output<C['schema']>;
/** Payload type a producer passes to `createEvent` (before parsing; same as EventData for our schemas). */
export type EventInput<C extends AnyContract> = z.input<C['schema']>;
/** The full, parsed envelope of a contract. */
export type EventOf<C extends AnyContract> = EventEnvelope<EventData<C>, C['type']>;

/** Declares a contract and checks that `type` ends with `.v<version>`. */
export function defineContract<const TType extends string, TSchema extends z.ZodType>(contract: {
  type: TType;
  name: string;
  version: number;
  schema: TSchema;
}): EventContract<TType, TSchema> {
  const match = EVENT_TYPE_PATTERN.exec(contract.type);
  if (!match) throw new Error(`Invalid event type "${contract.type}": expected <context>.<event>.v<N>`);
  if (Number(match[1]) !== contract.version) {
    throw new Error(`Event type "${contract.type}" does not match version ${contract.version}`);
  }
  return Object.freeze({ ...contract });
}

export interface EventMeta {
  /** Name of the producing service, e.g. "booking". */
  source: string;
  /** The request id (x-request-id) or the correlationId of the event being handled. */
  correlationId: string;
  /** Id of the event that caused this one, when produced by an event handler. */
  causationId?: string;
  /** Override the generated id (e.g. a deterministic id); defaults to a random UUID. */
  id?: string;
  /** Defaults to now. */
  occurredAt?: Date;
}

/**
 * Builds a validated envelope. Throws a ZodError when `data` does not match the contract, so an invalid event
 * fails the producer's transaction instead of reaching consumers.
 */
export function createEvent<C extends AnyContract>(
  contract: C,
  data: EventInput<C>,
  meta: EventMeta,
): EventOf<C> {
  const parsed = contract.schema.parse(data) as EventData<C>;
  const envelope: EventOf<C> = {
    id: meta.id ?? uuidv7(),
    type: contract.type,
    version: contract.version,
    occurredAt: (meta.occurredAt ?? new Date()).toISOString(),
    source: meta.source,
    correlationId: meta.correlationId,
    ...(meta.causationId !== undefined ? { causationId: meta.causationId } : {}),
    data: parsed,
  };
  envelopeSchema.parse(envelope);
  return envelope;
}

/** Metadata for an event caused by `parent`: same correlationId, causationId = parent's id. */
export function causedBy(parent: Pick<EventEnvelope, 'id' | 'correlationId'>, source: string): EventMeta {
  return { source, correlationId: parent.correlationId, causationId: parent.id };
}
