#!/usr/bin/env node
// The event catalogue and the contract compatibility check (packages/events/src/catalogue), from the built dist:
//   node scripts/events-catalogue.mjs catalogue   regenerate docs/events/asyncapi.json and docs/events/README.md
//   node scripts/events-catalogue.mjs check       fail on an incompatible change to a published contract version
//                                                 (or a missing snapshot, or a stale catalogue)
//   node scripts/events-catalogue.mjs snapshot    record new contract versions in packages/events/contracts-snapshot
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
process.exitCode = await main(process.argv[2], root);
