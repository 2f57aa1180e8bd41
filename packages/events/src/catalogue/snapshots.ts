import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { AnyContract } from '../envelope';
import { compareSchemas, type CompatibleChange, type Incompatibility } from './compatibility';
import { envelopeJsonSchema, payloadJsonSchema, type JsonSchema } from './json-schema';
import { key, refinementsOf, type Refinement } from './refinements';

/**
 * One published contract version as it was released: `packages/events/contracts-snapshot/<type>.json`
 * (`job.status-changed.v1.json`). Written only by `npm run events:snapshot`, never by the check.
 */
export interface ContractSnapshot {
  type: string;
  name: string;
  version: number;
  /** The payload (`data`) schema consumers parse with (see payloadJsonSchema). */
  schema: JsonSchema;
  /**
   * One payload as a producer published it (the parsed sample from test/fixtures.ts, recorded when the version
   * was first snapshotted and never overwritten). The current schema must still parse it: that catches what JSON
   * Schema cannot show (a refinement, transform or default that rejects published events).
   */
  example?: unknown;
  /** Where the schema refines or transforms (see refinements.ts); none may appear or disappear. */
  refinements?: Refinement[];
}

/**
 * The envelope every consumer parses before any payload (`envelopeSchema`): `_envelope.json`. It has no version,
 * so any incompatible change to it breaks every consumer of every event at once.
 */
export interface EnvelopeSnapshot {
  type: typeof ENVELOPE;
  schema: JsonSchema;
  example?: unknown;
  refinements?: Refinement[];
}

export const ENVELOPE = 'envelope';
export const ENVELOPE_FILE = '_envelope.json';
const ENVELOPE_ROOT = '(envelope)';

export interface CheckResult {
  /** Published versions changed in a way some consumer cannot parse: add a new version instead. */
  incompatible: { type: string; issues: Incompatibility[] }[];
  /** Compatible changes (optional fields added) not yet recorded in the snapshot. */
  unrecorded: { type: string; changes: CompatibleChange[] }[];
  /** Versions in the registry without a snapshot (new versions): `npm run events:snapshot`. */
  missing: string[];
  /** Snapshots of versions no longer in the registry (retired): delete the file in the same change. */
  retired: string[];
  /** Snapshots without a recorded example or refinement fingerprint (the format before both existed). */
  outdated: string[];
}

export const snapshotFile = (dir: string, type: string) =>
  path.join(dir, type === ENVELOPE ? ENVELOPE_FILE : `${type}.json`);

/** What producers put on the wire: the sample parsed by the schema (defaults filled, transforms applied). */
export function publishedExample(schema: z.ZodType, sample: unknown): unknown {
  return JSON.parse(JSON.stringify(schema.parse(sample))) as unknown;
}

/** The snapshot of a new version, with `sample` (a valid payload) as its recorded example. */
export function snapshotOf(contract: AnyContract, sample: unknown): ContractSnapshot {
  return {
    type: contract.type,
    name: contract.name,
    version: contract.version,
    schema: payloadJsonSchema(contract),
    example: publishedExample(contract.schema, sample),
    refinements: refinementsOf(contract.schema),
  };
}

export function envelopeSnapshotOf(envelopeSchema: z.ZodType, sample: unknown): EnvelopeSnapshot {
  return {
    type: ENVELOPE,
    schema: envelopeJsonSchema(envelopeSchema),
    example: publishedExample(envelopeSchema, sample),
    refinements: refinementsOf(envelopeSchema, ENVELOPE_ROOT),
  };
}

export interface Snapshots {
  contracts: Map<string, ContractSnapshot>;
  envelope?: EnvelopeSnapshot;
}

export function readSnapshots(dir: string): Snapshots {
  const out: Snapshots = { contracts: new Map() };
  if (!fs.existsSync(dir)) return out;
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith('.json')) continue;
    const snapshot = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as
      ContractSnapshot | EnvelopeSnapshot;
    if (snapshotFile(dir, snapshot.type) !== path.join(dir, file))
      throw new Error(`${file} holds the snapshot of ${snapshot.type}`);
    if (snapshot.type === ENVELOPE) out.envelope = snapshot as EnvelopeSnapshot;
    else out.contracts.set(snapshot.type, snapshot as ContractSnapshot);
  }
  return out;
}

interface Verdict {
  incompatible: Incompatibility[];
  compatible: CompatibleChange[];
  outdated: boolean;
}

/** The rules shared by a contract's payload and the envelope: JSON Schema, the recorded example, refinements. */
function compareWithSnapshot(
  published: { schema: JsonSchema; example?: unknown; refinements?: Refinement[] },
  current: { schema: z.ZodType; json: JsonSchema },
  root: string,
): Verdict {
  const { incompatible, compatible } = compareSchemas(published.schema, current.json);
  const outdated = !('example' in published) || !Array.isArray(published.refinements);
  if ('example' in published) {
    const parsed = current.schema.safeParse(published.example);
    if (!parsed.success) {
      const why = parsed.error.issues
        .map((i) => `${i.path.length ? i.path.join('.') : root}: ${i.message}`)
        .join('; ');
      incompatible.push({
        path: root,
        kind: 'example-rejected',
        breaks: 'new consumers',
        detail: `the recorded example no longer parses (${why})`,
      });
    }
  }
  if (Array.isArray(published.refinements)) {
    const before = published.refinements.map(key);
    const after = refinementsOf(current.schema, root).map(key);
    const why = 'a refinement changes what consumers accept: add a new version';
    for (const [path, kind] of difference(after, before)) {
      incompatible.push({
        path,
        kind: 'refinement-added',
        breaks: 'new consumers',
        detail: `${kind} added; ${why}`,
      });
    }
    for (const [path, kind] of difference(before, after)) {
      incompatible.push({
        path,
        kind: 'refinement-removed',
        breaks: 'old consumers',
        detail: `${kind} removed; ${why}`,
      });
    }
  }
  return { incompatible, compatible, outdated };
}

/** Entries of `a` not in `b`, counting duplicates (two refinements on one field are two). */
function difference(a: string[], b: string[]): [string, string][] {
  const left = [...b];
  const out: [string, string][] = [];
  for (const entry of a) {
    const i = left.indexOf(entry);
    if (i >= 0) left.splice(i, 1);
    else {
      const at = entry.lastIndexOf(' ');
      out.push([entry.slice(0, at), entry.slice(at + 1)]);
    }
  }
  return out;
}

/**
 * Compares every contract in the registry with its snapshot, and the envelope with `_envelope.json` when
 * `envelope` is given (the CLI and the CI test always give it). Pure: reads nothing, writes nothing.
 */
export function checkContracts(
  contracts: readonly AnyContract[],
  snapshots: Snapshots,
  envelope?: z.ZodType,
): CheckResult {
  const result: CheckResult = { incompatible: [], unrecorded: [], missing: [], retired: [], outdated: [] };
  const record = (type: string, verdict: Verdict) => {
    if (verdict.incompatible.length) result.incompatible.push({ type, issues: verdict.incompatible });
    else if (verdict.compatible.length) result.unrecorded.push({ type, changes: verdict.compatible });
    if (verdict.outdated) result.outdated.push(type);
  };
  if (envelope) {
    if (!snapshots.envelope) result.missing.push(ENVELOPE);
    else
      record(
        ENVELOPE,
        compareWithSnapshot(
          snapshots.envelope,
          { schema: envelope, json: envelopeJsonSchema(envelope) },
          ENVELOPE_ROOT,
        ),
      );
  }
  const types = new Set(contracts.map((c) => c.type));
  for (const contract of contracts) {
    const published = snapshots.contracts.get(contract.type);
    if (!published) {
      result.missing.push(contract.type);
      continue;
    }
    const verdict = compareWithSnapshot(
      published,
      { schema: contract.schema, json: payloadJsonSchema(contract) },
      '(payload)',
    );
    if (published.name !== contract.name) {
      verdict.incompatible.push({
        path: '(contract)',
        kind: 'keyword-changed',
        breaks: 'old and new consumers',
        detail: `name ${published.name} -> ${contract.name}`,
      });
    }
    record(contract.type, verdict);
  }
  for (const type of snapshots.contracts.keys()) if (!types.has(type)) result.retired.push(type);
  return result;
}

export const isClean = (r: CheckResult) =>
  !r.incompatible.length &&
  !r.unrecorded.length &&
  !r.missing.length &&
  !r.retired.length &&
  !r.outdated.length;

/** The check's verdict as people read it in CI. */
export function formatCheck(r: CheckResult): string {
  const lines: string[] = [];
  for (const { type, issues } of r.incompatible) {
    lines.push(
      type === ENVELOPE
        ? '✖ the event envelope: incompatible change (every consumer of every event parses it)'
        : `✖ ${type}: incompatible change to a published version`,
    );
    for (const i of issues) lines.push(`    ${i.path}: ${i.kind} (${i.detail}; breaks ${i.breaks})`);
  }
  if (r.incompatible.some((i) => i.type !== ENVELOPE)) {
    lines.push(
      '  Put the published schema back and add a new version beside it (src/contracts/<event>.v<N+1>.ts, in',
      '  contractList), then `npm run events:snapshot` (docs/service-guide.md, "Changing an event contract").',
    );
  }
  if (r.incompatible.some((i) => i.type === ENVELOPE)) {
    lines.push(
      '  The envelope has no version: put src/envelope.ts back. Only a compatible change (a new optional field)',
      '  can be snapshotted.',
    );
  }
  for (const { type, changes } of r.unrecorded) {
    lines.push(
      `✖ ${type}: compatible change not recorded in its snapshot (${changes.map((c) => c.path).join(', ')})`,
    );
  }
  for (const type of r.missing)
    lines.push(`✖ ${type}: no snapshot${type === ENVELOPE ? '' : ' (a new version?)'}`);
  if (r.unrecorded.length || r.missing.length) lines.push('  Record it with `npm run events:snapshot`.');
  if (r.outdated.length) {
    lines.push(
      `✖ no recorded example or refinement fingerprint in the snapshot of ${r.outdated.join(', ')}`,
      '  (the format before both existed): `npm run events:snapshot -- --migrate-format`.',
    );
  }
  for (const type of r.retired) {
    lines.push(
      `✖ ${type}: snapshot of a version no longer in contractList; if it is retired on purpose, delete`,
    );
    lines.push(`  packages/events/contracts-snapshot/${type}.json in the same change.`);
  }
  return lines.length ? lines.join('\n') : '✔ every published event contract matches its snapshot';
}
