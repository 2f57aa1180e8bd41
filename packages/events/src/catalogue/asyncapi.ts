import type { AnyContract } from '../envelope';
import { DEAD_LETTER_EXCHANGE, EVENTS_EXCHANGE, HEADERS } from '../topology';
import { envelopeJsonSchema, payloadJsonSchema, type JsonSchema } from './json-schema';
import type { ServiceEvents } from './services';

/** The AsyncAPI document, as plain JSON (validated against @asyncapi/specs 3.0.0 in catalogue.test.ts). */
export type AsyncApiDocument = { asyncapi: '3.0.0'; [field: string]: unknown };

/** `booking.created.v1` -> `BookingCreatedV1` (component names; routing keys stay the channel addresses). */
export const messageId = (contract: AnyContract) => `${contract.name}V${contract.version}`;

const ref = (...pointer: string[]) => ({
  $ref: `#/${pointer.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`,
});

/**
 * Channels are routing keys (one per contract version, on the `tyres.events` topic exchange); each carries one
 * message, the envelope with that version's payload in `data`. Each service gets a `send` operation per contract
 * it produces and a `receive` operation per contract it consumes (`x-route`: its durable queue, or notify's live
 * feed). Ordered by routing key and service so the generated file only changes when the system does.
 */
export function buildAsyncApi(
  contracts: readonly AnyContract[],
  services: readonly ServiceEvents[],
  /** The routing keys producers emit today (the unversioned aliases: `CustomerInvoiceIssued` is v2). */
  currentTypes: ReadonlySet<string>,
): AsyncApiDocument {
  const sorted = [...contracts].sort((a, b) => a.type.localeCompare(b.type));
  const envelope = envelopeJsonSchema();
  const envelopeProps = envelope.properties as Record<string, JsonSchema>;

  const channels: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const contract of sorted) {
    const id = messageId(contract);
    channels[contract.type] = {
      address: contract.type,
      title: `${contract.name} v${contract.version}`,
      'x-event': contract.name,
      'x-version': contract.version,
      'x-current': currentTypes.has(contract.type),
      messages: { [id]: ref('components', 'messages', id) },
      bindings: {
        amqp: {
          is: 'routingKey',
          exchange: { name: EVENTS_EXCHANGE, type: 'topic', durable: true, autoDelete: false, vhost: '/' },
          bindingVersion: '0.3.0',
        },
      },
    };
    schemas[id] = payloadJsonSchema(contract);
    messages[id] = {
      name: id,
      title: `${contract.name} v${contract.version}`,
      summary: `${contract.type}: the envelope with ${contract.name} v${contract.version} data.`,
      contentType: 'application/json',
      correlationId: { location: '$message.payload#/correlationId' },
      headers: ref('components', 'schemas', 'AmqpHeaders'),
      payload: {
        ...envelope,
        properties: {
          ...envelopeProps,
          type: { type: 'string', const: contract.type },
          version: { type: 'integer', const: contract.version },
          data: ref('components', 'schemas', id),
        },
      },
      bindings: { amqp: { contentEncoding: 'utf-8', messageType: contract.type, bindingVersion: '0.3.0' } },
    };
  }

  const operations: Record<string, unknown> = {};
  const byType = new Map(sorted.map((c) => [c.type, c]));
  const messageRef = (type: string) => ref('channels', type, 'messages', messageId(byType.get(type)!));
  for (const s of [...services].sort((a, b) => a.service.localeCompare(b.service))) {
    for (const type of s.produces) {
      operations[`${s.service}.send.${type}`] = {
        action: 'send',
        channel: ref('channels', type),
        summary: `${s.service} publishes ${type} (through its transactional outbox).`,
        messages: [messageRef(type)],
        'x-service': s.service,
      };
    }
    for (const { type, route } of s.consumes) {
      operations[`${s.service}.receive${route === 'live-feed' ? '-live' : ''}.${type}`] = {
        action: 'receive',
        channel: ref('channels', type),
        summary:
          route === 'queue'
            ? `${s.service} consumes ${type} from its durable queue \`${s.service}\` (retries, then \`${s.service}.dlq\`).`
            : `${s.service} receives ${type} on its live feed (a queue per replica, at most once, for the WebSocket push).`,
        messages: [messageRef(type)],
        ...(route === 'queue'
          ? {
              bindings: {
                amqp: { ack: true, bindingVersion: '0.3.0' },
              },
            }
          : {}),
        'x-service': s.service,
        'x-route': route,
      };
    }
  }

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Mobile tyres platform events',
      version: '1.0.0',
      description: [
        'Every domain event of the platform, generated from the zod contracts in `packages/events`',
        '(`npm run events:catalogue`). Channels are routing keys on the `tyres.events` topic exchange; each carries',
        'one contract version. Producers write events to a transactional outbox, the relay publishes them with',
        'publisher confirms; each consuming service has a durable queue bound to the routing keys it subscribes to,',
        `with retry queues and a dead-letter queue (\`${DEAD_LETTER_EXCHANGE}\`). Consumers validate \`data\` with`,
        'the same zod schema: unknown fields are dropped, anything else invalid is dead-lettered.',
        'A published version never changes incompatibly (`npm run events:check`): a breaking change is a new version.',
      ].join(' '),
    },
    defaultContentType: 'application/json',
    servers: {
      rabbitmq: {
        host: 'localhost:5672',
        protocol: 'amqp',
        protocolVersion: '0-9-1',
        description:
          'RabbitMQ (AMQP_URL); an environment may prefix every exchange and queue name (EVENT_PREFIX).',
      },
    },
    channels,
    operations,
    components: {
      schemas: {
        AmqpHeaders: {
          type: 'object',
          description:
            'AMQP message headers the publisher sets (copies of envelope fields, for routing and tooling); others may follow.',
          properties: {
            [HEADERS.eventId]: { type: 'string' },
            [HEADERS.eventType]: { type: 'string' },
            [HEADERS.correlationId]: { type: 'string' },
            [HEADERS.causationId]: { type: 'string' },
            // W3C trace context of the publish span (packages/telemetry): consumers continue the producer's trace.
            traceparent: { type: 'string' },
            tracestate: { type: 'string' },
          },
        },
        ...schemas,
      },
      messages,
    },
  };
}
