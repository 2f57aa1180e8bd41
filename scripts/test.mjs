#!/usr/bin/env node
// `npm test`: every check, in the order that fails fastest. Unit and integration suites (jest, real Postgres,
// RabbitMQ and Redis), the fault stage (real RabbitMQ and Redis outages under a running gateway), static checks,
// the end-to-end specs in headless Chromium against the built stack, then the production-parity journeys against
// the stack as docker-compose.yml describes it (scripts/parity.mjs).
// Ends with one summary line "N passed, N failed, N skipped".
import fs from 'node:fs';
import path from 'node:path';
import { restoreInfrastructure } from './lib/fault-infra.mjs';
import { ROOT, run } from './lib/stack.mjs';

const results = path.join(ROOT, '.run');
fs.mkdirSync(results, { recursive: true });
const failures = [];
const totals = { passed: 0, failed: 0, skipped: 0 };

function count(file) {
  if (!fs.existsSync(file)) return;
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  fs.rmSync(file);
}

async function stage(name, fn) {
  console.log(`\n\x1b[1m▸ ${name}\x1b[0m`);
  const started = Date.now();
  try {
    await fn();
    console.log(`✔ ${name} (${Math.round((Date.now() - started) / 1000)} s)`);
  } catch (err) {
    failures.push(name);
    console.error(`✖ ${name}: ${err.message}`);
  }
}

const jest = (project, extra = []) => {
  const out = path.join(results, `jest-${project}.json`);
  return run('npx', [
    'jest',
    '--selectProjects',
    project,
    '--passWithNoTests',
    '--json',
    `--outputFile=${out}`,
    ...extra,
  ]).finally(() => count(out));
};

await stage('prisma generate', () => run('npm', ['run', 'prisma:generate']));
await stage('unit tests', () => jest('unit'));
await stage('front-end component tests', () => jest('web'));
await stage('integration tests', () => jest('integration', ['--maxWorkers=2']));
// Real outages under a running gateway and booking: RabbitMQ stopped, Redis stopped, Redis restarted empty
// (scripts/fault.mjs). Whatever happens, Redis and RabbitMQ are running again before the next stage.
await stage('fault tolerance (RabbitMQ and Redis outages)', () =>
  run(process.execPath, ['scripts/fault.mjs'])
    .finally(() => restoreInfrastructure())
    .finally(() => count(path.join(results, 'jest-fault.json'))),
);
await stage('typecheck', () => run('npm', ['run', 'typecheck']));
await stage('lint', () => run('npx', ['eslint', '.']));
await stage('end-to-end tests (Chromium)', () =>
  run(process.execPath, ['scripts/e2e.mjs']).finally(() => count(path.join(results, 'jest-e2e.json'))),
);
// The stack as docker-compose.yml runs it (host processes, compose's environment), on the build the e2e stage made.
await stage('production parity (docker-compose.yml)', () =>
  run(process.execPath, ['scripts/parity.mjs']).finally(() => count(path.join(results, 'jest-parity.json'))),
);

console.log(`\n${failures.length ? `✖ failed stages: ${failures.join(', ')}` : '✔ all stages passed'}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length ? 1 : 0);
