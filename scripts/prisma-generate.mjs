#!/usr/bin/env node
// `npm run prisma:generate`: generates every service's Prisma client (services/*/prisma/schema.prisma), in parallel,
// skipping the ones whose generated client is already up to date.
//
//   node scripts/prisma-generate.mjs [--force] [path/to/schema.prisma ...]
//
// Up to date = `<output>/.schema-hash` (written after a successful generate, next to the generated files) matches
// the sha256 of schema.prisma + the prisma / @prisma/client versions + this script's format version. Deleting the
// output folder, changing the schema or upgrading Prisma regenerates; --force always does.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SCRIPT), '..');
const require = createRequire(import.meta.url);
const HASH_FILE = '.schema-hash';
const FORMAT = 'prisma-generate/1';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { force: { type: 'boolean', default: false } },
});

function schemaFiles() {
  if (positionals.length > 0) return positionals.map((p) => path.resolve(p));
  const services = path.join(ROOT, 'services');
  if (!fs.existsSync(services)) return [];
  return fs
    .readdirSync(services)
    .map((name) => path.join(services, name, 'prisma', 'schema.prisma'))
    .filter((file) => fs.existsSync(file))
    .sort();
}

/** Output folders of the schema's generators (`output = "..."`, relative to the schema file). */
function generatorOutputs(schemaPath, source) {
  const outputs = [];
  for (const block of source.matchAll(/^\s*generator\s+\w+\s*\{([\s\S]*?)^\s*\}/gm)) {
    const output = /^\s*output\s*=\s*"([^"]+)"/m.exec(block[1])?.[1];
    if (output) outputs.push(path.resolve(path.dirname(schemaPath), output));
  }
  return outputs;
}

function versionOf(pkg) {
  try {
    return require(`${pkg}/package.json`).version;
  } catch {
    return 'missing';
  }
}

const toolVersions = `${FORMAT} prisma@${versionOf('prisma')} @prisma/client@${versionOf('@prisma/client')}`;

function schemaHash(source) {
  return createHash('sha256').update(toolVersions).update('\0').update(source).digest('hex');
}

function isUpToDate(outputs, hash) {
  return (
    outputs.length > 0 &&
    outputs.every((dir) => {
      try {
        return (
          fs.readFileSync(path.join(dir, HASH_FILE), 'utf8').trim() === hash && fs.readdirSync(dir).length > 1
        );
      } catch {
        return false;
      }
    })
  );
}

/**
 * Prisma's CLI resolves its native schema engine before running any command and, when the binary is missing,
 * downloads it from binaries.prisma.sh, which is unreachable here, so even `generate` fails. Pointing
 * PRISMA_SCHEMA_ENGINE_BINARY at any existing file satisfies that check: `generate` never executes the schema
 * engine (the prisma-client generator is pure JS/Wasm). We point it at this script, a file that always exists
 * and, not being executable, would fail loudly rather than pretend to work if a command ever tried to run it.
 * Migrations do not use the native engine at all (scripts/db-migrate.mjs, Wasm engine).
 */
function prismaEnv() {
  const configured = process.env.PRISMA_SCHEMA_ENGINE_BINARY;
  return {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: configured && fs.existsSync(configured) ? configured : SCRIPT,
    CHECKPOINT_DISABLE: '1', // no update-check / telemetry request
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  };
}

function generate(schemaPath) {
  const cli = require.resolve('prisma/build/index.js');
  return new Promise((resolve) => {
    // cwd = the service folder, so a service's own prisma.config.ts (if it ever has one) is picked up.
    const child = spawn(process.execPath, [cli, 'generate', '--schema', schemaPath], {
      cwd: path.dirname(path.dirname(schemaPath)),
      env: prismaEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}` }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function runOne(schemaPath) {
  const label = path.relative(ROOT, schemaPath);
  const source = fs.readFileSync(schemaPath, 'utf8');
  const outputs = generatorOutputs(schemaPath, source);
  const hash = schemaHash(source);
  if (!values.force && isUpToDate(outputs, hash)) return { label, status: 'up to date' };
  const started = Date.now();
  const { code, output } = await generate(schemaPath);
  if (code !== 0) return { label, status: 'failed', output };
  for (const dir of outputs) {
    if (fs.existsSync(dir)) fs.writeFileSync(path.join(dir, HASH_FILE), `${hash}\n`);
  }
  return { label, status: `generated in ${((Date.now() - started) / 1000).toFixed(1)}s` };
}

async function main() {
  const files = schemaFiles();
  if (files.length === 0) {
    console.log('prisma generate: no services/*/prisma/schema.prisma yet; nothing to do.');
    return;
  }
  const missing = files.filter((f) => !fs.existsSync(f));
  if (missing.length) throw new Error(`No such schema: ${missing.join(', ')}`);
  const queue = [...files];
  const results = [];
  const workers = Array.from(
    { length: Math.min(queue.length, Math.max(1, Math.min(os.cpus().length, 4))) },
    async () => {
      for (let file = queue.shift(); file; file = queue.shift()) results.push(await runOne(file));
    },
  );
  await Promise.all(workers);
  results.sort((a, b) => a.label.localeCompare(b.label));
  for (const r of results) console.log(`prisma generate: ${r.label} ${r.status}`);
  const failed = results.filter((r) => r.status === 'failed');
  for (const r of failed) console.error(`\n✖ prisma generate failed for ${r.label}:\n${r.output.trim()}`);
  if (failed.length) process.exit(1);
}

main().catch((error) => {
  console.error(`✖ ${error.message}`);
  process.exit(1);
});
