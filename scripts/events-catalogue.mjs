#!/usr/bin/env node
// The event catalogue and the contract compatibility check (packages/events/src/catalogue), from the built dist:
//   node scripts/events-catalogue.mjs catalogue   regenerate docs/events/asyncapi.json and docs/events/README.md
//   node scripts/events-catalogue.mjs check       fail on an incompatible change to a published contract version
//                                                 (or a missing snapshot, or a stale catalogue)
//   node scripts/events-catalogue.mjs snapshot    record new contract versions in packages/events/contracts-snapshot,
//                                                 each with its sample from packages/events/test/fixtures.ts as the
//                                                 recorded example (never overwritten once recorded)
//   node scripts/events-catalogue.mjs snapshot --migrate-format
//                                                 one-off: add examples and refinement fingerprints to snapshots
//                                                 written before the format had them (published schemas untouched)
// Builds packages/events first (tsc -b is incremental), so the dist never lags the contracts it describes.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
execFileSync(
  process.execPath,
  [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'packages/events'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
const { main } = createRequire(import.meta.url)(path.join(root, 'packages/events/dist/catalogue/index.js'));

// The samples are test fixtures (TypeScript outside the package's build), loaded through tsx only when a snapshot
// needs them; they are plain data, so it does not matter that they import the contracts from src.
async function loadSamples() {
  const { require: tsxRequire } = await import('tsx/cjs/api');
  return tsxRequire(path.join(root, 'packages/events/test/fixtures.ts'), import.meta.url).samples;
}
const [command, ...flags] = process.argv.slice(2);
const unknown = flags.filter((f) => f !== '--migrate-format');
if (unknown.length) {
  console.log(`unknown option ${unknown.join(' ')}`);
  process.exitCode = 2;
} else {
  const samples = command === 'snapshot' ? await loadSamples() : undefined;
  process.exitCode = await main(command, root, console.log, {
    samples: samples && (() => samples),
    migrateFormat: flags.includes('--migrate-format'),
  });
}
