import type { z } from 'zod';
import { contracts, type AnyEvent } from './contracts';
import { envelopeSchema, type AnyContract, type EventEnvelope } from './envelope';

export type ContractRegistry = Readonly<Record<string, AnyContract>>;

export type ParseFailureReason =
  'malformed-json' | 'invalid-envelope' | 'unknown-type' | 'unknown-version' | 'invalid-data';

/** Thrown when a message is not a valid event. Never worth retrying: the consumer dead-letters it at once. */
export class EventParseError extends Error {
  override readonly name = 'EventParseError';
  constructor(
    readonly reason: ParseFailureReason,
    message: string,
    readonly details: { type?: string; eventId?: string; issues?: z.core.$ZodIssue[] } = {},
  ) {
    super(message);
  }
}

/** Builds a registry (by type) from contracts; throws on duplicates. */
export function createRegistry(list: readonly AnyContract[]): ContractRegistry {
  const out: Record<string, AnyContract> = {};
  for (const contract of list) {
    if (out[contract.type]) throw new Error(`Duplicate event contract ${contract.type}`);
    out[contract.type] = contract;
  }
  return Object.freeze(out);
}

function decode(raw: unknown): unknown {
  if (typeof raw === 'string' || Buffer.isBuffer(raw)) {
    const text = typeof raw === 'string' ? raw : raw.toString('utf8');
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw new EventParseError('malformed-json', `Message is not JSON: ${(err as Error).message}`);
    }
  }
  return raw;
}

function summarize(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}

/**
 * Validates the envelope, finds the contract for its type and validates `data` against it.
 * Accepts a Buffer or string (JSON) or an already decoded object. Returns the parsed envelope (unknown keys
 * in `data` stripped) and its contract; throws EventParseError otherwise.
 */
export function parseEnvelope(
  raw: unknown,
  registry: ContractRegistry = contracts,
): { envelope: EventEnvelope; contract: AnyContract } {
  const decoded = decode(raw);
  const env = envelopeSchema.safeParse(decoded);
  if (!env.success) {
    const maybe = decoded as { id?: unknown; type?: unknown } | null;
    throw new EventParseError('invalid-envelope', `Invalid event envelope: ${summarize(env.error.issues)}`, {
      issues: env.error.issues,
      ...(typeof maybe?.type === 'string' ? { type: maybe.type } : {}),
      ...(typeof maybe?.id === 'string' ? { eventId: maybe.id } : {}),
    });
  }
  const envelope = env.data as EventEnvelope;
  const contract = registry[envelope.type];
  if (!contract) {
    const base = envelope.type.replace(/\.v\d+$/, '.v');
    const known = Object.keys(registry).some((t) => t.startsWith(base));
    throw new EventParseError(
      known ? 'unknown-version' : 'unknown-type',
      known
        ? `Unknown version ${envelope.version} of ${base.slice(0, -2)}`
        : `Unknown event type ${envelope.type}`,
      { type: envelope.type, eventId: envelope.id },
    );
  }
  const data = contract.schema.safeParse(envelope.data);
  if (!data.success) {
    throw new EventParseError(
      'invalid-data',
      `Invalid ${envelope.type} data: ${summarize(data.error.issues)}`,
      {
        type: envelope.type,
        eventId: envelope.id,
        issues: data.error.issues,
      },
    );
  }
  return { envelope: { ...envelope, data: data.data }, contract };
}

/** Validates a raw message (Buffer, JSON string or object) against the catalogue. Throws EventParseError. */
export function parseEvent(raw: unknown): AnyEvent {
  return parseEnvelope(raw, contracts).envelope as AnyEvent;
}

/** Type guard for one contract, handy in tests and switch-less code. */
export function isEvent<C extends AnyContract>(
  contract: C,
  event: EventEnvelope,
): event is EventEnvelope<z.output<C['schema']>, C['type']> {
  return event.type === contract.type;
}
