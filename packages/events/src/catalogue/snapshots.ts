import fs from 'node:fs';
import path from 'node:path';
import type { AnyContract } from '../envelope';
import { compareSchemas, type CompatibleChange, type Incompatibility } from './compatibility';
import { payloadJsonSchema, type JsonSchema } from './json-schema';

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
}

export interface CheckResult {
  /** Published versions changed in a way some consumer cannot parse: add a new version instead. */
  incompatible: { type: string; issues: Incompatibility[] }[];
  /** Compatible changes (optional fields added) not yet recorded in the snapshot. */
  unrecorded: { type: string; changes: CompatibleChange[] }[];
  /** Versions in the registry without a snapshot (new versions): `npm run events:snapshot`. */
  missing: string[];
  /** Snapshots of versions no longer in the registry (retired): delete the file in the same change. */
  retired: string[];
}

export const snapshotFile = (dir: string, type: string) => path.join(dir, `${type}.json`);

export function snapshotOf(contract: AnyContract): ContractSnapshot {
  return {
    type: contract.type,
    name: contract.name,
    version: contract.version,
    schema: payloadJsonSchema(contract),
  };
}

export function readSnapshots(dir: string): Map<string, ContractSnapshot> {
  const out = new Map<string, ContractSnapshot>();
  if (!fs.existsSync(dir)) return out;
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith('.json')) continue;
    const snapshot = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as ContractSnapshot;
    if (`${snapshot.type}.json` !== file) throw new Error(`${file} holds the snapshot of ${snapshot.type}`);
    out.set(snapshot.type, snapshot);
  }
  return out;
}

/** Compares every contract in the registry with its snapshot. Pure: reads nothing, writes nothing. */
export function checkContracts(
  contracts: readonly AnyContract[],
  snapshots: ReadonlyMap<string, ContractSnapshot>,
): CheckResult {
  const result: CheckResult = { incompatible: [], unrecorded: [], missing: [], retired: [] };
  const types = new Set(contracts.map((c) => c.type));
  for (const contract of contracts) {
    const published = snapshots.get(contract.type);
    if (!published) {
      result.missing.push(contract.type);
      continue;
    }
    const { incompatible, compatible } = compareSchemas(published.schema, payloadJsonSchema(contract));
    if (published.name !== contract.name) {
      incompatible.push({
        path: '(contract)',
        kind: 'keyword-changed',
        breaks: 'old and new consumers',
        detail: `name ${published.name} -> ${contract.name}`,
      });
    }
    if (incompatible.length) result.incompatible.push({ type: contract.type, issues: incompatible });
    else if (compatible.length) result.unrecorded.push({ type: contract.type, changes: compatible });
  }
  for (const type of snapshots.keys()) if (!types.has(type)) result.retired.push(type);
  return result;
}

export const isClean = (r: CheckResult) =>
  !r.incompatible.length && !r.unrecorded.length && !r.missing.length && !r.retired.length;

/** The check's verdict as people read it in CI. */
export function formatCheck(r: CheckResult): string {
  const lines: string[] = [];
  for (const { type, issues } of r.incompatible) {
    lines.push(`✖ ${type}: incompatible change to a published version`);
    for (const i of issues) lines.push(`    ${i.path}: ${i.kind} (${i.detail}; breaks ${i.breaks})`);
  }
  if (r.incompatible.length) {
    lines.push(
      '  Put the published schema back and add a new version beside it (src/contracts/<event>.v<N+1>.ts, in',
      '  contractList), then `npm run events:snapshot` (docs/service-guide.md, "Changing an event contract").',
    );
  }
  for (const { type, changes } of r.unrecorded) {
    lines.push(
      `✖ ${type}: compatible change not recorded in its snapshot (${changes.map((c) => c.path).join(', ')})`,
    );
  }
  for (const type of r.missing) lines.push(`✖ ${type}: no snapshot (a new version?)`);
  if (r.unrecorded.length || r.missing.length) lines.push('  Record it with `npm run events:snapshot`.');
  for (const type of r.retired) {
    lines.push(
      `✖ ${type}: snapshot of a version no longer in contractList; if it is retired on purpose, delete`,
    );
    lines.push(`  packages/events/contracts-snapshot/${type}.json in the same change.`);
  }
  return lines.length ? lines.join('\n') : '✔ every published event contract matches its snapshot';
}
