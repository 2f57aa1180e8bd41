import type { AsyncApiDocument } from './asyncapi';
import type { JsonSchema } from './json-schema';

interface Channel {
  address: string;
  title: string;
  'x-event': string;
  'x-version': number;
  'x-current': boolean;
}
interface Operation {
  action: 'send' | 'receive';
  channel: { $ref: string };
  'x-service': string;
  'x-route'?: 'queue' | 'live-feed';
}

const MONEY_PATTERN = '^-?\\d+\\.\\d{2}$';
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A field's type in words: `string (uuid)`, `money`, `one of "a", "b"`, `… or null`. */
function describeType(schema: JsonSchema): string {
  const variants = schema.anyOf as JsonSchema[] | undefined;
  if (variants) {
    const nonNull = variants.filter((v) => v.type !== 'null');
    const text = nonNull.map(describeType).join(' or ');
    return nonNull.length < variants.length ? `${text} or null` : text;
  }
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => `\`${String(v)}\``).join(', ')}`;
  if (schema.type === 'string') {
    if (schema.pattern === MONEY_PATTERN) return 'money (string, 2 decimals)';
    if (typeof schema.format === 'string') return `string (${schema.format})`;
    const min = schema.minLength as number | undefined;
    const max = schema.maxLength as number | undefined;
    if (min !== undefined || max !== undefined) return `string (${min ?? 0}–${max ?? '…'} chars)`;
    return 'string';
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    const min = (schema.minimum ?? schema.exclusiveMinimum) as number | undefined;
    const max = schema.maximum as number | undefined;
    const range = [
      min !== undefined ? `${schema.exclusiveMinimum !== undefined ? '>' : '≥'} ${min}` : '',
      max !== undefined && max < Number.MAX_SAFE_INTEGER ? `≤ ${max}` : '',
    ].filter(Boolean);
    return range.length ? `${String(schema.type)} (${range.join(', ')})` : String(schema.type);
  }
  if (schema.type === 'array') return `array of ${describeType((schema.items ?? {}) as JsonSchema)}`;
  if (schema.type === 'object') return 'object';
  return schema.type ? String(schema.type) : 'any';
}

/** Payload fields, nested objects and array items flattened (`customer.email`, `items[].category`). */
interface FieldRow {
  path: string;
  type: string;
  required: boolean;
  notes: string;
}

function fields(schema: JsonSchema, prefix = ''): FieldRow[] {
  const rows: FieldRow[] = [];
  const required = new Set((schema.required ?? []) as string[]);
  for (const [name, raw] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    const path = `${prefix}${name}`;
    const notes = typeof raw.description === 'string' ? raw.description : '';
    rows.push({ path, type: describeType(raw), required: required.has(name), notes });
    const inner = (raw.anyOf as JsonSchema[] | undefined)?.find((v) => v.type !== 'null') ?? raw;
    if (inner.type === 'object') rows.push(...fields(inner, `${path}.`));
    const items = inner.items as JsonSchema | undefined;
    if (inner.type === 'array' && items?.type === 'object') rows.push(...fields(items, `${path}[].`));
  }
  return rows;
}

/** The notes column only when some field has a description (`.describe()` in the contract). */
function fieldTable(rows: FieldRow[]): string[] {
  const notes = rows.some((r) => r.notes);
  const line = (r: FieldRow) =>
    `| \`${r.path}\` | ${cell(r.type)} | ${r.required ? 'yes' : 'no'} |${notes ? ` ${cell(r.notes)} |` : ''}`;
  return [
    `| field | type | required |${notes ? ' notes |' : ''}`,
    `| --- | --- | --- |${notes ? ' --- |' : ''}`,
    ...rows.map(line),
  ];
}

const list = (items: string[], none: string) => (items.length ? items.join(', ') : none);

/** The human-readable catalogue page, generated from the AsyncAPI document alone. */
export function renderCatalogue(doc: AsyncApiDocument): string {
  const channels = doc.channels as Record<string, Channel>;
  const operations = Object.values(doc.operations as Record<string, Operation>);
  const components = doc.components as { schemas: Record<string, JsonSchema> };
  const channelOf = (op: Operation) =>
    decodeURIComponent(op.channel.$ref.replace('#/channels/', '').replace(/~1/g, '/'));
  const producers = (key: string) =>
    operations.filter((op) => op.action === 'send' && channelOf(op) === key).map((op) => op['x-service']);
  const consumers = (key: string) =>
    operations
      .filter((op) => op.action === 'receive' && channelOf(op) === key)
      .map((op) => (op['x-route'] === 'live-feed' ? `${op['x-service']} (live feed)` : op['x-service']));
  const keys = Object.keys(channels);
  const versionsOf = (event: string) =>
    keys
      .filter((k) => channels[k]!['x-event'] === event)
      .map((k) => `\`${k}\`${channels[k]!['x-current'] ? ' (current)' : ''}`);

  const out: string[] = [
    '# Event catalogue',
    '',
    "<!-- Generated by `npm run events:catalogue` from packages/events and the services' sources; do not edit. -->",
    '',
    `${(doc.info as { description: string }).description}`,
    '',
    "Machine-readable: [asyncapi.json](./asyncapi.json) (AsyncAPI 3.0). Producers are read from each service's",
    '`createEvent(…)` / outbox `emit(…)` calls, consumers from its `src/events/subscriptions.ts`. "(current)" marks',
    'the version producers emit today; an older version stays while consumers still read queued or stored events.',
    'How to change a contract: [docs/service-guide.md](../service-guide.md#changing-an-event-contract).',
    '',
    '| routing key | producers | consumers |',
    '| --- | --- | --- |',
    ...keys.map(
      (k) =>
        `| [\`${k}\`](#${k.replace(/\./g, '')}) | ${list(producers(k), '—')} | ${list(consumers(k), '—')} |`,
    ),
    '',
  ];
  for (const key of keys) {
    const channel = channels[key]!;
    const id = `${channel['x-event']}V${channel['x-version']}`;
    const produced = producers(key);
    out.push(
      `## ${key}`,
      '',
      `**${channel['x-event']}** version ${channel['x-version']}${channel['x-current'] ? ' (current)' : ''}.`,
      '',
      `- Producers: ${list(produced, 'none: no service emits this version any more; consumers still read events already queued or stored')}`,
      `- Consumers: ${list(consumers(key), 'none yet')}`,
      `- Versions: ${versionsOf(channel['x-event']).join(', ')}`,
      '',
      ...fieldTable(fields(components.schemas[id] ?? {})),
      '',
    );
  }
  return out.join('\n');
}
