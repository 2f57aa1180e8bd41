/**
 * The event catalogue and the contract compatibility check (issue 17). Tooling, not runtime: the package's main
 * entry does not export it; scripts/events-catalogue.mjs runs it from the built dist, the unit tests from src.
 *
 *   npm run events:catalogue   regenerates docs/events/asyncapi.json and docs/events/README.md
 *   npm run events:check       fails on an incompatible change to a published contract version
 *   npm run events:snapshot    records new versions (and compatible additions) in packages/events/contracts-snapshot
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as contractModule from '../contracts';
import type { AnyContract } from '../envelope';
import { buildAsyncApi, type AsyncApiDocument } from './asyncapi';
import { renderCatalogue } from './markdown';
import { readServices } from './services';
import {
  checkContracts,
  formatCheck,
  isClean,
  readSnapshots,
  snapshotFile,
  snapshotOf,
  type CheckResult,
} from './snapshots';

export { compareSchemas } from './compatibility';
export type { Comparison, Incompatibility, IncompatibleKind } from './compatibility';
export { buildAsyncApi, messageId } from './asyncapi';
export { payloadJsonSchema } from './json-schema';
export { renderCatalogue } from './markdown';
export { readProductions, readServices, readSubscriptions, type ServiceEvents } from './services';
export {
  checkContracts,
  formatCheck,
  isClean,
  readSnapshots,
  type CheckResult,
  type ContractSnapshot,
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
  return checkContracts(registeredContracts(), readSnapshots(path.join(root, SNAPSHOT_DIR)));
}

/**
 * `npm run events:snapshot`: records new versions and compatible additions. Refuses while a published version is
 * incompatible (that needs a new version, not a new snapshot); never deletes a snapshot (retiring is by hand).
 */
export async function writeSnapshots(root: string): Promise<{ written: string[]; result: CheckResult }> {
  const dir = path.join(root, SNAPSHOT_DIR);
  const result = checkSnapshots(root);
  if (result.incompatible.length) return { written: [], result };
  fs.mkdirSync(dir, { recursive: true });
  const written = [...result.missing, ...result.unrecorded.map((u) => u.type)].sort();
  for (const contract of registeredContracts()) {
    if (!written.includes(contract.type)) continue;
    const file = snapshotFile(dir, contract.type);
    fs.writeFileSync(file, format(root, path.relative(root, file), JSON.stringify(snapshotOf(contract))));
  }
  return { written, result };
}

/** The command line of scripts/events-catalogue.mjs; returns the exit code. */
export async function main(command: string | undefined, root: string, log = console.log): Promise<number> {
  try {
    return await run(command, root, log);
  } catch (err) {
    // A source the catalogue cannot read (services.ts explains which line and why): a finding, not a crash.
    log(`✖ ${(err as Error).message}`);
    return 1;
  }
}

async function run(command: string | undefined, root: string, log: (line: string) => void): Promise<number> {
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
      const { written, result } = await writeSnapshots(root);
      if (result.incompatible.length) {
        log(formatCheck({ ...result, unrecorded: [], missing: [] }));
        log('Nothing written: an incompatible change is never snapshotted over a published version.');
        return 1;
      }
      for (const type of written) log(`snapshotted ${type}`);
      if (!written.length) log('every contract version already has an up-to-date snapshot');
      for (const type of result.retired)
        log(`note: ${type} is no longer registered; delete its snapshot if retired`);
      return 0;
    }
    default:
      log('usage: events-catalogue.mjs catalogue | check | snapshot');
      return 2;
  }
}
