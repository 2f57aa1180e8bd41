// Loads @tyres/prisma-tools for the plain-Node CLIs (this package's bin/prisma-tools.mjs, scripts/db-migrate.mjs):
// the compiled dist/ when it is up to date with src/, otherwise src/ through tsx (a root devDependency), so the
// commands work on a fresh checkout before `npm run build` and never run stale code during development.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const distEntry = path.join(packageDir, 'dist', 'index.js');
const srcDir = path.join(packageDir, 'src');
const srcEntry = path.join(srcDir, 'index.ts');

function newestSourceMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

function distIsFresh() {
  if (!fs.existsSync(distEntry)) return false;
  if (!fs.existsSync(srcDir)) return true; // deployed image: dist only
  return fs.statSync(distEntry).mtimeMs >= newestSourceMtime(srcDir);
}

/** @returns {Promise<typeof import('../src/index')>} */
export async function loadPrismaTools() {
  const require = createRequire(import.meta.url);
  // PRISMA_TOOLS_FROM_SOURCE=1 forces src/ (the integration tests use it so they always test the source).
  if (!process.env.PRISMA_TOOLS_FROM_SOURCE && distIsFresh()) return require(distEntry);
  let tsx;
  try {
    tsx = await import('tsx/cjs/api');
  } catch {
    if (fs.existsSync(distEntry)) {
      process.emitWarning(
        '@tyres/prisma-tools: dist/ is older than src/ and tsx is not installed; using dist/.',
      );
      return require(distEntry);
    }
    throw new Error(
      '@tyres/prisma-tools is not built and tsx is not installed: run `npx tsc -b packages/prisma-tools`.',
    );
  }
  return tsx.require(srcEntry, import.meta.url);
}
