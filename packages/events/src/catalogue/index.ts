/**
 * The event catalogue and the contract compatibility check (issue 17). Tooling, not runtime: the package's main
 * entry does not export it; scripts/events-catalogue.mjs runs it from the built dist, the unit tests from src.
 *
 *   npm run events:catalogue   regenerates docs/events/asyncapi.json and docs/events/README.md
 *   npm run events:check       fails on an incompatible change to a published contract version
 *   npm run events:snapshot    records new versions (and compatible additions) in packages/events/contracts-snapshot
 *                              with one example payload each (the samples in packages/events/test/fixtures.ts)
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as contractModule from '../contracts';
import { envelopeSchema, type AnyContract } from '../envelope';
import { buildAsyncApi, type AsyncApiDocument } from './asyncapi';
import { payloadJsonSchema } from './json-schema';
import { renderCatalogue } from './markdown';
import { readServices } from './services';
import {
  checkContracts,
  ENVELOPE,
  envelopeSnapshotOf,
  formatCheck,
  isClean,
  publishedExample,
  readSnapshots,
  snapshotFile,
  snapshotOf,
  type CheckResult,
  type ContractSnapshot,
  type EnvelopeSnapshot,
} from './snapshots';
import { refinementsOf } from './refinements';

export { compareSchemas } from './compatibility';
export type { Comparison, Incompatibility, IncompatibleKind } from './compatibility';
export { buildAsyncApi, messageId } from './asyncapi';
export { envelopeJsonSchema, payloadJsonSchema } from './json-schema';
export { refinementsOf, type Refinement, type RefinementKind } from './refinements';
export { renderCatalogue } from './markdown';
export { readProductions, readServices, readSubscriptions, type ServiceEvents } from './services';
export {
  checkContracts,
  envelopeSnapshotOf,
  formatCheck,
  isClean,
  readSnapshots,
  snapshotOf,
  type CheckResult,
  type ContractSnapshot,
  type EnvelopeSnapshot,
  type Snapshots,
} from './snapshots';

export const CATALOGUE_FILES = {
  asyncapi: 'docs/events/asyncapi.json',
  readme: 'docs/events/README.md',
} as const;
export const SNAPSHOT_DIR = 'packages/events/contracts-snapshot';

/** Every registered contract (all versions still in use). */
export const registeredContracts = (): readonly AnyContract[] => contractModule.contractList;

/** Routing keys of the versions producers emit today: those an unversioned alias (`BookingCreated`) points at. */
export function currentTypes(): Set<string> {
  const out = new Set<string>();
  for (const [exportName, value] of Object.entries(contractModule)) {
    const contract = value as AnyContract;
    if (contractModule.contractList.includes(value as never) && exportName === contract.name)
      out.add(contract.type);
  }
  return out;
}

/**
 * Formats as `prettier --check` expects (the repository's config), in a child process: prettier 3 loads its
 * plugins with dynamic import(), which jest's module sandbox refuses, and the staleness test must format too.
 */
function format(root: string, file: string, text: string): string {
  return execFileSync(
    process.execPath,
    [require.resolve('prettier/bin/prettier.cjs'), '--stdin-filepath', file],
    {
      cwd: root,
      input: text,
      encoding: 'utf8',
    },
  );
}

export function buildDocument(root: string): AsyncApiDocument {
  return buildAsyncApi(registeredContracts(), readServices(root), currentTypes());
}

/** The catalogue files as they should be committed, formatted as `prettier --check` expects. */
export async function generateCatalogue(root: string): Promise<{ file: string; content: string }[]> {
  const doc = buildDocument(root);
  return [
    {
      file: CATALOGUE_FILES.asyncapi,
      content: format(root, CATALOGUE_FILES.asyncapi, JSON.stringify(doc)),
    },
    {
      file: CATALOGUE_FILES.readme,
      content: format(root, CATALOGUE_FILES.readme, renderCatalogue(doc)),
    },
  ];
}

export async function writeCatalogue(root: string): Promise<string[]> {
  const files = await generateCatalogue(root);
  for (const { file, content } of files) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
  return files.map((f) => f.file);
}

/** Committed catalogue files that differ from what the sources generate now. */
export async function staleCatalogueFiles(root: string): Promise<string[]> {
  const files = await generateCatalogue(root);
  return files
    .filter(({ file, content }) => {
      const absolute = path.join(root, file);
      return !fs.existsSync(absolute) || fs.readFileSync(absolute, 'utf8') !== content;
    })
    .map((f) => f.file);
}

export function checkSnapshots(root: string): CheckResult {
  return checkContracts(registeredContracts(), readSnapshots(path.join(root, SNAPSHOT_DIR)), envelopeSchema);
}

/** A valid payload per routing key (test/fixtures.ts `samples`, loaded by scripts/events-catalogue.mjs). */
export type Samples = Readonly<Record<string, unknown>>;

/**
 * The envelope's recorded example: fixed ids and times so the file never changes, with the payload of the first
 * contract that has a sample (the envelope's `data` is opaque to it). `causationId` is set so the optional field is
 * exercised too.
 */
export function envelopeExample(samples: Samples): unknown {
  const contract = registeredContracts().find((c) => c.type in samples);
  if (!contract) throw new Error('no sample payload to put in the envelope example');
  return {
    id: '01936f4e-8a2b-7c3d-9e4f-a5b6c7d8e9f0',
    type: contract.type,
    version: contract.version,
    occurredAt: '2025-03-04T01:02:03.000Z',
    source: 'booking',
    correlationId: 'req-5b1e2c9d',
    causationId: '01936f4e-8a2b-7c3d-9e4f-a5b6c7d8e9e1',
    data: publishedExample(contract.schema, samples[contract.type]),
  };
}

export interface SnapshotOptions {
  samples: Samples;
  /**
   * One-off format migration: add an example and a refinement fingerprint to snapshots written before both existed,
   * leaving their published schema untouched. The fingerprint is the code's as of the migration.
   */
  migrateFormat?: boolean;
}

/**
 * `npm run events:snapshot`: records new versions (with their example) and compatible additions. Refuses while a
 * published version is incompatible (that needs a new version, not a new snapshot); never deletes a snapshot
 * (retiring is by hand) and never replaces a recorded example or fingerprint.
 */
export async function writeSnapshots(
  root: string,
  options: SnapshotOptions,
): Promise<{ written: string[]; result: CheckResult; noSample: string[] }> {
  const dir = path.join(root, SNAPSHOT_DIR);
  const result = checkSnapshots(root);
  if (result.incompatible.length) return { written: [], result, noSample: [] };
  const published = readSnapshots(dir);
  const { samples } = options;
  const needsExample = new Set([...result.missing, ...(options.migrateFormat ? result.outdated : [])]);
  const noSample = [...needsExample].filter((type) => type !== ENVELOPE && !(type in samples));
  if (noSample.length) return { written: [], result, noSample };

  const toWrite = new Set([...needsExample, ...result.unrecorded.map((u) => u.type)]);
  const write = (type: string, snapshot: ContractSnapshot | EnvelopeSnapshot) => {
    const file = snapshotFile(dir, type);
    fs.writeFileSync(file, format(root, path.relative(root, file), JSON.stringify(snapshot)));
  };
  fs.mkdirSync(dir, { recursive: true });

  if (toWrite.has(ENVELOPE)) {
    const before = published.envelope;
    const fresh = envelopeSnapshotOf(envelopeSchema, envelopeExample(samples));
    const unrecorded = result.unrecorded.some((u) => u.type === ENVELOPE);
    write(
      ENVELOPE,
      before
        ? {
            type: ENVELOPE,
            schema: unrecorded ? fresh.schema : before.schema,
            example: 'example' in before ? before.example : fresh.example,
            refinements: before.refinements ?? fresh.refinements,
          }
        : fresh,
    );
  }
  for (const contract of registeredContracts()) {
    if (!toWrite.has(contract.type)) continue;
    const before = published.contracts.get(contract.type);
    if (!before) {
      write(contract.type, snapshotOf(contract, samples[contract.type]));
      continue;
    }
    const unrecorded = result.unrecorded.some((u) => u.type === contract.type);
    write(contract.type, {
      type: contract.type,
      name: contract.name,
      version: contract.version,
      schema: unrecorded ? payloadJsonSchema(contract) : before.schema,
      example:
        'example' in before ? before.example : publishedExample(contract.schema, samples[contract.type]),
      refinements: before.refinements ?? refinementsOf(contract.schema),
    });
  }
  return { written: [...toWrite].sort(), result, noSample };
}

/** The command line of scripts/events-catalogue.mjs; returns the exit code. */
export async function main(
  command: string | undefined,
  root: string,
  log = console.log,
  options: { samples?: () => Samples; migrateFormat?: boolean } = {},
): Promise<number> {
  try {
    return await run(command, root, log, options);
  } catch (err) {
    // A source the catalogue cannot read (services.ts explains which line and why): a finding, not a crash.
    log(`✖ ${(err as Error).message}`);
    return 1;
  }
}

async function run(
  command: string | undefined,
  root: string,
  log: (line: string) => void,
  options: { samples?: () => Samples; migrateFormat?: boolean },
): Promise<number> {
  switch (command) {
    case 'catalogue': {
      for (const file of await writeCatalogue(root)) log(`wrote ${file}`);
      return 0;
    }
    case 'check': {
      const result = checkSnapshots(root);
      log(formatCheck(result));
      const stale = await staleCatalogueFiles(root);
      for (const file of stale) log(`✖ ${file} is stale: run \`npm run events:catalogue\``);
      return isClean(result) && !stale.length ? 0 : 1;
    }
    case 'snapshot': {
      if (!options.samples) throw new Error('snapshot needs the sample payloads (test/fixtures.ts)');
      const { written, result, noSample } = await writeSnapshots(root, {
        samples: options.samples(),
        migrateFormat: options.migrateFormat,
      });
      if (result.incompatible.length) {
        log(formatCheck({ ...result, unrecorded: [], missing: [], outdated: [] }));
        log('Nothing written: an incompatible change is never snapshotted over a published version.');
        return 1;
      }
      if (noSample.length) {
        log(`✖ no sample payload for ${noSample.join(', ')}: add one to packages/events/test/fixtures.ts`);
        log("  (it is recorded as the version's example). Nothing written.");
        return 1;
      }
      for (const type of written) log(`snapshotted ${type}`);
      if (!written.length) log('every contract version already has an up-to-date snapshot');
      if (result.outdated.length && !options.migrateFormat)
        log(`note: ${result.outdated.join(', ')} predate recorded examples: run with --migrate-format once`);
      for (const type of result.retired)
        log(`note: ${type} is no longer registered; delete its snapshot if retired`);
      return 0;
    }
    default:
      log('usage: events-catalogue.mjs catalogue | check | snapshot [--migrate-format]');
      return 2;
  }
}
