import path from 'node:path';
import { z } from 'zod';
import { contractList } from '../contracts';
import { defineContract } from '../envelope';
import { checkSnapshots } from './index';
import { checkContracts, formatCheck, isClean, snapshotOf } from './snapshots';

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
  const snapshots = new Map([[v1.type, snapshotOf(v1)]]);

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
    const snapshot = snapshotOf(contractList[0]);
    expect(snapshot).toMatchObject({ type: contractList[0].type, version: 1, schema: { type: 'object' } });
    expect(snapshot.schema).not.toHaveProperty('$schema');
  });
});
