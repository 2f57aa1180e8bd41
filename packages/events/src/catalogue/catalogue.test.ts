import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import specs from '@asyncapi/specs';
import { samples } from '../../test/fixtures';
import { contractList } from '../contracts';
import { createEvent, type AnyContract } from '../envelope';
import {
  buildDocument,
  main,
  messageId,
  readProductions,
  readServices,
  readSubscriptions,
  renderCatalogue,
  staleCatalogueFiles,
} from './index';
import type { JsonSchema } from './json-schema';
import type { ConsumerRoute } from './services';

const ROOT = path.resolve(__dirname, '../../../..');
const doc = buildDocument(ROOT);
const components = doc.components as {
  schemas: Record<string, JsonSchema>;
  messages: Record<string, JsonSchema>;
};

describe('the AsyncAPI document', () => {
  it('is valid AsyncAPI 3.0 (the official JSON Schema from @asyncapi/specs)', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    // The spec bundles its own copy of the draft-07 meta-schema under the same id as ajv's.
    ajv.removeSchema('http://json-schema.org/draft-07/schema');
    const validate = ajv.compile(specs.schemas['3.0.0']);
    const valid = validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('has one channel per routing key and one message per contract version', () => {
    expect(Object.keys(doc.channels as object).sort()).toEqual(contractList.map((c) => c.type).sort());
    expect(Object.keys(components.messages).sort()).toEqual(contractList.map((c) => messageId(c)).sort());
  });

  it.each(contractList.map((c) => [c.type, c] as const))(
    '%s: a real event validates against its message payload',
    (type, contract: AnyContract) => {
      const message = components.messages[messageId(contract)] as { payload: JsonSchema };
      const payload = message.payload as { properties: Record<string, unknown> };
      const schema = {
        ...payload,
        properties: { ...payload.properties, data: components.schemas[messageId(contract)] },
      };
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      const validate = ajv.compile(schema);
      const event = createEvent(contract, samples[type] as never, { source: 'test', correlationId: 'req-1' });
      const valid = validate(event);
      expect(validate.errors ?? []).toEqual([]);
      expect(valid).toBe(true);
      expect(validate({ ...event, type: `${type.slice(0, -1)}9` })).toBe(false);
    },
  );

  it('renders per channel its producers, consumers, versions and payload fields', () => {
    const page = renderCatalogue(doc);
    const section = (key: string) => page.slice(page.indexOf(`## ${key}\n`)).split('\n## ')[0]!;
    const created = section('booking.created.v1');
    expect(created).toContain('- Producers: booking\n');
    expect(created).toContain('- Consumers: billing, jobs, notify, notify (live feed), reporting\n');
    expect(created).toMatch(/\| `customer\.email` \| string \(email\) \| yes \|/);
    expect(created).toMatch(/\| `timeSlot` \| one of `8-10 AM`, `10-12 AM`, `12-2 PM`, `2-4 PM` \| yes \|/);
    const issuedV1 = section('customer-invoice.issued.v1');
    expect(issuedV1).toContain('- Producers: none: no service emits this version any more');
    expect(issuedV1).toContain(
      '- Versions: `customer-invoice.issued.v1`, `customer-invoice.issued.v2` (current)',
    );
    expect(issuedV1).toMatch(/\| `items\[\]\.unitPrice` \| money \(string, 2 decimals\) \| yes \|/);
    expect(section('job.status-changed.v1')).toMatch(
      /\| `purchaseCost` \| money \(string, 2 decimals\) or null \| no \|/,
    );
  });

  it('is committed up to date with docs/events/README.md (else: npm run events:catalogue)', async () => {
    expect(await staleCatalogueFiles(ROOT)).toEqual([]);
  });
});

describe('the command line (scripts/events-catalogue.mjs)', () => {
  it('`check` passes on the committed sources and says so', async () => {
    const lines: string[] = [];
    expect(await main('check', ROOT, (line) => lines.push(line))).toBe(0);
    expect(lines).toEqual(['✔ every published event contract matches its snapshot']);
  });

  it('an unknown command is a usage error', async () => {
    const lines: string[] = [];
    expect(await main('publish', ROOT, (line) => lines.push(line))).toBe(2);
    expect(lines[0]).toMatch(/^usage:/);
  });
});

describe("consumers read from the services' subscriptions.ts", () => {
  const services = readServices(ROOT);

  /** Stands in for the bus, notify's live feed and the handlers: records what gets subscribed, on which route. */
  function recorder(into: { type: string; route: ConsumerRoute }[]): unknown {
    const record = (route: ConsumerRoute) => (contracts: AnyContract | AnyContract[]) => {
      for (const c of ([] as AnyContract[]).concat(contracts)) into.push({ type: c.type, route });
    };
    const target = { subscribe: record('queue'), subscribeBatch: record('queue'), on: record('live-feed') };
    const proxy: unknown = new Proxy(target, {
      get: (t, key) => (key in t ? t[key as keyof typeof t] : proxy),
      apply: () => undefined,
    });
    return proxy;
  }

  it.each(services.map((s) => [s.service, s] as const))(
    '%s: what its subscribe functions subscribe at run time is what the catalogue lists',
    async (service, { consumes }) => {
      const module = (await import(
        path.join(ROOT, 'services', service, 'src/events/subscriptions.ts')
      )) as Record<string, unknown>;
      const subscribers = Object.entries(module).filter(
        ([name, f]) => /^subscribe/.test(name) && typeof f === 'function',
      );
      expect(subscribers.length).toBeGreaterThan(0);
      const recorded: { type: string; route: ConsumerRoute }[] = [];
      for (const [, subscribe] of subscribers) {
        // Every parameter (bus, handlers, optional handler groups) gets a recorder, so an optional group counts too.
        const f = subscribe as (...args: unknown[]) => void;
        f(...Array.from({ length: Math.max(3, f.length) }, () => recorder(recorded)));
      }
      const key = (c: { type: string; route: string }) => `${c.route} ${c.type}`;
      expect([...new Set(recorded.map(key))].sort()).toEqual(consumes.map(key).sort());
    },
  );

  it('every consumed contract is in the registry and every service is listed', () => {
    const types = new Set<string>(contractList.map((c) => c.type));
    for (const s of services) for (const c of s.consumes) expect(types.has(c.type)).toBe(true);
    expect(services.map((s) => s.service)).toEqual([
      'billing',
      'booking',
      'gateway',
      'jobs',
      'notify',
      'reporting',
    ]);
  });
});

describe('reading the sources', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-catalogue-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const full = path.join(dir, name);
    fs.writeFileSync(full, text);
    return full;
  };

  it('finds subscribe, subscribeBatch and live-feed subscriptions, aliases resolved', () => {
    const f = file(
      'subscriptions.ts',
      `import { BookingCreated, JobDeleted as Deleted, CustomerInvoiceIssuedV1, type EventBus } from '@tyres/events';
       export function subscribeX(bus: EventBus, feed: any, h: any) {
         bus.subscribe(BookingCreated, h.a);
         bus.subscribeBatch([Deleted, CustomerInvoiceIssuedV1], h.b);
         feed.on(BookingCreated, h.c);
       }`,
    );
    expect(readSubscriptions(f)).toEqual([
      { type: 'booking.created.v1', route: 'queue' },
      { type: 'job.deleted.v1', route: 'queue' },
      { type: 'customer-invoice.issued.v1', route: 'queue' },
      { type: 'booking.created.v1', route: 'live-feed' },
    ]);
  });

  it('refuses a contract named outside a subscribe call (it might be consumed in a way it cannot see)', () => {
    const f = file(
      'indirect.ts',
      `import { BookingCreated, JobDeleted } from '@tyres/events';
       const consumed = [BookingCreated, JobDeleted];
       export function subscribeX(bus: any, h: any) { for (const c of consumed) bus.subscribe(c, h); }`,
    );
    expect(() => readSubscriptions(f)).toThrow(
      /indirect\.ts:2: BookingCreated is named outside bus\.subscribe/,
    );
  });

  it('refuses a contract named elsewhere in a producing service (a wrapper could publish it unseen)', () => {
    const f = file(
      'wrapper.ts',
      `import { createEvent, JobCompleted, type AnyContract } from '@tyres/events';
       const publish = (c: AnyContract, data: unknown) => createEvent(c, data as never, {} as never);
       export const completed = (data: unknown) => publish(JobCompleted, data);
       export type Completed = typeof JobCompleted;`,
    );
    expect(() => readProductions(f)).toThrow(/wrapper\.ts:3: JobCompleted is named outside createEvent/);
  });

  it('finds productions through createEvent and an outbox writer, either branch of a conditional', () => {
    const f = file(
      'producer.ts',
      `import { createEvent, JobCompleted, CustomerInvoiceIssued, CustomerInvoiceUpdated, type JobDeleted } from '@tyres/events';
       export const a = () => createEvent(JobCompleted, {} as never, {} as never);
       export const b = (events: any, tx: unknown, issued: boolean) =>
         events.emit(tx, issued ? CustomerInvoiceIssued : CustomerInvoiceUpdated, {});
       export type Ignored = typeof JobDeleted;`,
    );
    expect(readProductions(f).sort()).toEqual([
      'customer-invoice.issued.v2',
      'customer-invoice.updated.v2',
      'job.completed.v1',
    ]);
  });
});
