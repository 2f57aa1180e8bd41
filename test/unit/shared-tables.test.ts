import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sharedTableModels } from '@tyres/events';

/**
 * The outbox, inbox and idempotency tables are declared once (packages/events `sharedTableModels`, matching its
 * `outboxInboxStatements` DDL); every service's schema.prisma must carry them word for word, so the relay, the
 * inbox and the idempotency store run the same SQL against the same columns everywhere (issue 13).
 */
const ROOT = path.resolve(__dirname, '../..');
const services = readdirSync(path.join(ROOT, 'services')).filter((name) => {
  try {
    readFileSync(path.join(ROOT, 'services', name, 'prisma/schema.prisma'));
    return true;
  } catch {
    return false;
  }
});

/** `model Name { ... }` blocks of a Prisma schema, doc comments dropped and white space folded. */
function models(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^model (\w+) \{[\s\S]*?^\}/gm)) {
    const body = m[0]
      .split('\n')
      .filter((line) => !line.trim().startsWith('//'))
      .map((line) => line.trim().replace(/\s+/g, ' '))
      .filter(Boolean)
      .join('\n');
    out.set(m[1] as string, body);
  }
  return out;
}

describe('shared tables (outbox, inbox, idempotency) come from one source', () => {
  it('finds the six services', () => {
    expect(services.sort()).toEqual(['billing', 'booking', 'gateway', 'jobs', 'notify', 'reporting']);
  });

  it.each(services)('%s declares them exactly as packages/events does', (service) => {
    const text = readFileSync(path.join(ROOT, 'services', service, 'prisma/schema.prisma'), 'utf8');
    const schema = /schemas\s*=\s*\["(\w+)"\]/.exec(text)?.[1];
    expect(schema).toBeDefined();
    const declared = models(text);
    const canonical = models(sharedTableModels(schema as string, { idempotency: true }));
    for (const name of ['OutboxEvent', 'InboxEvent']) expect(declared.get(name)).toBe(canonical.get(name));
    if (declared.has('IdempotencyKey'))
      expect(declared.get('IdempotencyKey')).toBe(canonical.get('IdempotencyKey'));
  });
});
