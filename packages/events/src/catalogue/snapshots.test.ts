import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { samples } from '../../test/fixtures';
import { contractList } from '../contracts';
import { defineContract, envelopeSchema, EVENT_TYPE_PATTERN } from '../envelope';
import { checkSnapshots, envelopeExample, SNAPSHOT_DIR, writeSnapshots } from './index';
import {
  checkContracts,
  envelopeSnapshotOf,
  formatCheck,
  isClean,
  readSnapshots,
  snapshotOf,
  type Snapshots,
} from './snapshots';

const ROOT = path.resolve(__dirname, '../../../..');

describe('published event contracts (CI: the same check as `npm run events:check`)', () => {
  it('every contract version matches its committed snapshot in packages/events/contracts-snapshot', () => {
    // On failure the message is the check's own report: what changed, whom it breaks, what to do instead.
    expect(formatCheck(checkSnapshots(ROOT))).toBe('✔ every published event contract matches its snapshot');
  });
});

describe('checkContracts', () => {
  const v1 = defineContract({
    type: 'tyre.fitted.v1',
    name: 'TyreFitted',
    version: 1,
    schema: z.object({ jobId: z.uuid(), position: z.enum(['front-left', 'front-right']) }),
  });
  const sample = { jobId: '00000000-0000-4000-8000-000000000001', position: 'front-left' };
  const snapshots: Snapshots = { contracts: new Map([[v1.type, snapshotOf(v1, sample)]]) };

  it('passes an unchanged published version', () => {
    const result = checkContracts([v1], snapshots);
    expect(isClean(result)).toBe(true);
  });

  it('fails an incompatible change and says to add a version instead', () => {
    const changed = { ...v1, schema: z.object({ jobId: z.uuid(), position: z.enum(['front-left']) }) };
    const result = checkContracts([changed], snapshots);
    expect(result.incompatible).toEqual([
      {
        type: 'tyre.fitted.v1',
        issues: [
          {
            path: 'position',
            kind: 'enum-value-removed',
            breaks: 'new consumers',
            detail: 'enum value(s) removed: "front-right"',
          },
        ],
      },
    ]);
    expect(formatCheck(result)).toContain('add a new version beside it');
  });

  it('fails a renamed contract', () => {
    const result = checkContracts([{ ...v1, name: 'TyreMounted' }], snapshots);
    expect(result.incompatible[0]?.issues[0]?.detail).toBe('name TyreFitted -> TyreMounted');
  });

  it('asks for a snapshot of a compatible addition, so it cannot be removed later unnoticed', () => {
    const added = { ...v1, schema: v1.schema.extend({ pressureKpa: z.int().optional() }) };
    const result = checkContracts([added], snapshots);
    expect(result.incompatible).toEqual([]);
    expect(result.unrecorded.map((u) => u.type)).toEqual(['tyre.fitted.v1']);
    expect(formatCheck(result)).toContain('npm run events:snapshot');
  });

  it('fails a new version nobody snapshotted, and a snapshot whose version left the registry', () => {
    const v2 = defineContract({
      type: 'tyre.fitted.v2',
      name: 'TyreFitted',
      version: 2,
      schema: z.object({}),
    });
    expect(checkContracts([v1, v2], snapshots).missing).toEqual(['tyre.fitted.v2']);
    expect(checkContracts([], snapshots).retired).toEqual(['tyre.fitted.v1']);
    expect(isClean(checkContracts([], snapshots))).toBe(false);
  });

  it('snapshots the registry by routing key', () => {
    const first = contractList[0];
    const snapshot = snapshotOf(first, samples[first.type]);
    expect(snapshot).toMatchObject({ type: first.type, version: 1, schema: { type: 'object' } });
    expect(snapshot.schema).not.toHaveProperty('$schema');
    expect(snapshot.example).toEqual(JSON.parse(JSON.stringify(first.schema.parse(samples[first.type]))));
  });

  it('refuses to snapshot a sample the schema rejects', () => {
    expect(() => snapshotOf(v1, { ...sample, position: 'rear' })).toThrow();
  });
});

// What JSON Schema cannot show (audit of issue 17): each of these passed the schema comparison before.
describe('checkContracts: refinements, transforms, defaults and the recorded example', () => {
  const v1 = defineContract({
    type: 'tyre.fitted.v1',
    name: 'TyreFitted',
    version: 1,
    schema: z.object({
      jobId: z.uuid(),
      treadDepthMm: z.number().min(0),
      pressureKpa: z.int().default(220),
      note: z.string().max(200),
    }),
  });
  const sample = { jobId: '00000000-0000-4000-8000-000000000001', treadDepthMm: 1.2, note: 'front left' };
  const snapshots: Snapshots = { contracts: new Map([[v1.type, snapshotOf(v1, sample)]]) };
  const check = (schema: z.ZodType) => checkContracts([{ ...v1, schema }], snapshots);
  const issues = (schema: z.ZodType) =>
    check(schema).incompatible.flatMap((i) => i.issues.map(({ path, kind }) => ({ path, kind })));

  it('records the example as producers published it (defaults filled)', () => {
    expect(snapshots.contracts.get(v1.type)?.example).toEqual({ ...sample, pressureKpa: 220 });
    expect(snapshots.contracts.get(v1.type)?.refinements).toEqual([]);
  });

  it('passes the untouched schema', () => {
    expect(isClean(check(v1.schema))).toBe(true);
  });

  it('fails a .refine() on the payload, even one the example still satisfies', () => {
    const refined = v1.schema.refine((p) => p.note !== '', 'note required');
    expect(issues(refined)).toEqual([{ path: '(payload)', kind: 'refinement-added' }]);
    expect(formatCheck(check(refined))).toContain(
      'refine added; a refinement changes what consumers accept: add a new version',
    );
  });

  it('fails a .superRefine() on a field, and says the example no longer parses when it rejects it', () => {
    const schema = v1.schema.extend({
      treadDepthMm: z
        .number()
        .min(0)
        .superRefine((mm, ctx) => {
          if (mm < 1.6) ctx.addIssue({ code: 'custom', message: 'below the legal limit' });
        }),
    });
    expect(issues(schema)).toEqual([
      { path: '(payload)', kind: 'example-rejected' },
      { path: 'treadDepthMm', kind: 'refinement-added' },
    ]);
    expect(formatCheck(check(schema))).toContain('treadDepthMm: below the legal limit');
  });

  it('fails a .transform() on a field', () => {
    const schema = v1.schema.extend({
      note: z
        .string()
        .max(200)
        .transform((s) => s.toUpperCase()),
    });
    expect(issues(schema)).toEqual([{ path: 'note', kind: 'refinement-added' }]);
  });

  it('fails a removed refinement (old consumers refuse what producers may now send)', () => {
    const refined = defineContract({ ...v1, schema: v1.schema.refine((p) => p.treadDepthMm < 30) });
    const published: Snapshots = { contracts: new Map([[v1.type, snapshotOf(refined, sample)]]) };
    expect(checkContracts([v1], published).incompatible[0]?.issues).toMatchObject([
      { path: '(payload)', kind: 'refinement-removed', breaks: 'old consumers' },
    ]);
  });

  it('fails a changed, added or removed default', () => {
    expect(issues(v1.schema.extend({ pressureKpa: z.int().default(240) }))).toEqual([
      { path: 'pressureKpa', kind: 'default-changed' },
    ]);
    expect(issues(v1.schema.extend({ note: z.string().max(200).default('') }))).toEqual([
      { path: 'note', kind: 'required-became-optional' },
      { path: 'note', kind: 'default-changed' },
    ]);
    expect(issues(v1.schema.extend({ pressureKpa: z.int().optional() }))).toEqual([
      { path: 'pressureKpa', kind: 'default-changed' },
    ]);
  });

  it('fails a snapshot whose example or fingerprint is missing (the format before both existed)', () => {
    const { example: _example, ...withoutExample } = snapshots.contracts.get(v1.type)!;
    const result = checkContracts([v1], { contracts: new Map([[v1.type, withoutExample]]) });
    expect(result.outdated).toEqual([v1.type]);
    expect(isClean(result)).toBe(false);
    expect(formatCheck(result)).toContain('--migrate-format');
  });
});

describe('checkContracts: the envelope', () => {
  const example = envelopeExample(samples);
  const published: Snapshots = {
    contracts: new Map(),
    envelope: envelopeSnapshotOf(envelopeSchema, example),
  };
  const shape = envelopeSchema.shape;
  /** The envelope with some fields replaced, keeping its version/type refinement. */
  const envelopeWith = (fields: Partial<Record<keyof typeof shape, z.ZodType>>) =>
    z.object({ ...shape, ...fields }).superRefine((env, ctx) => {
      const match = EVENT_TYPE_PATTERN.exec(env.type as string);
      if (match && Number(match[1]) !== env.version)
        ctx.addIssue({ code: 'custom', path: ['version'], message: 'version does not match type' });
    });

  it('passes the envelope as it is, and the equivalent rebuilt one', () => {
    expect(isClean(checkContracts([], published, envelopeSchema))).toBe(true);
    expect(isClean(checkContracts([], published, envelopeWith({})))).toBe(true);
  });

  it('fails a tightened field, and regenerating the catalogue does not hide it', () => {
    const result = checkContracts([], published, envelopeWith({ source: z.string().min(1).max(20) }));
    expect(result.incompatible).toMatchObject([
      {
        type: 'envelope',
        issues: [{ path: 'source', kind: 'constraint-narrowed', detail: 'maxLength 100 -> 20' }],
      },
    ]);
    expect(formatCheck(result)).toContain('the event envelope: incompatible change');
  });

  it('fails a tightened field the recorded envelope example violates', () => {
    const result = checkContracts([], published, envelopeWith({ correlationId: z.uuid() }));
    expect(result.incompatible[0]?.issues.map((i) => i.kind)).toEqual(
      expect.arrayContaining(['example-rejected', 'constraint-changed']),
    );
  });

  it('fails a dropped envelope refinement', () => {
    const result = checkContracts([], published, z.object(shape));
    expect(result.incompatible[0]?.issues).toMatchObject([
      { path: '(envelope)', kind: 'refinement-removed' },
    ]);
  });

  it('asks for a snapshot of the envelope when there is none', () => {
    expect(checkContracts([], { contracts: new Map() }, envelopeSchema).missing).toEqual(['envelope']);
  });
});

describe('writeSnapshots', () => {
  let root: string;
  const dir = () => path.join(root, SNAPSHOT_DIR);
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'events-snapshots-'));
    fs.cpSync(path.join(ROOT, SNAPSHOT_DIR), dir(), { recursive: true });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('records a new version with its sample and never replaces a recorded example', async () => {
    const [first, second] = contractList;
    fs.rmSync(path.join(dir(), `${first.type}.json`));
    const file = path.join(dir(), `${second.type}.json`);
    const recorded = JSON.parse(fs.readFileSync(file, 'utf8')) as { example: unknown };
    const { written } = await writeSnapshots(root, {
      samples: { ...samples, [second.type]: { not: 'this one' } },
    });
    expect(written).toEqual([first.type]);
    expect(readSnapshots(dir()).contracts.get(first.type)?.example).toEqual(
      JSON.parse(JSON.stringify(first.schema.parse(samples[first.type]))),
    );
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(recorded);
  }, 30_000);

  it('records a compatible addition in the schema and keeps the recorded example and fingerprint', async () => {
    const snapshots = readSnapshots(dir());
    // A published version with an optional field, as if the field were added after the snapshot.
    const [type, snapshot] = [...snapshots.contracts].find(([, s]) => {
      const required = new Set(s.schema.required as string[]);
      return Object.keys(s.schema.properties as object).some((k) => !required.has(k));
    })!;
    const properties = { ...(snapshot.schema.properties as Record<string, unknown>) };
    const required = new Set(snapshot.schema.required as string[]);
    delete properties[Object.keys(properties).find((k) => !required.has(k))!];
    const before = { ...snapshot, schema: { ...snapshot.schema, properties } };
    fs.writeFileSync(path.join(dir(), `${type}.json`), JSON.stringify(before));

    // A changed sample must not replace what was recorded.
    const { written } = await writeSnapshots(root, { samples: { ...samples, [type]: { not: 'this one' } } });
    expect(written).toEqual([type]);
    const after = readSnapshots(dir()).contracts.get(type)!;
    expect(after.schema).toEqual(readSnapshots(path.join(ROOT, SNAPSHOT_DIR)).contracts.get(type)!.schema);
    expect(after.example).toEqual(snapshot.example);
    expect(after.refinements).toEqual(snapshot.refinements);
  }, 30_000);

  it('refuses a new version without a sample payload', async () => {
    fs.rmSync(path.join(dir(), `${contractList[0].type}.json`));
    const { written, noSample } = await writeSnapshots(root, { samples: {} });
    expect(written).toEqual([]);
    expect(noSample).toEqual([contractList[0].type]);
  });
});
