#!/usr/bin/env node
// Prisma migrations for every service, without Prisma's native schema engine (see docs/migrations.md).
//
//   node scripts/db-migrate.mjs deploy [service...]          npm run db:migrate
//   node scripts/db-migrate.mjs create <service> <name> [--empty]
//                                                            npm run db:migration:create -- <service> <name>
//   node scripts/db-migrate.mjs status [service...]
//   node scripts/db-migrate.mjs resolve <service> --rolled-back <migration> | --applied <migration>
//
// DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/tyres) names the database; deploy and create create it
// when missing. Each service's migrations go to its own Postgres schema, with its own <schema>._prisma_migrations.
// DB_MIGRATE_SERVICES_DIR overrides the services folder (tests only).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { loadPrismaTools } from '../packages/prisma-tools/bin/load.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVICES_DIR = path.resolve(process.env.DB_MIGRATE_SERVICES_DIR || path.join(ROOT, 'services'));
const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/tyres';
/** Deploy order: the gateway's identity schema first, then the services in their team-conventions order. */
const ORDER = ['gateway', 'booking', 'jobs', 'billing', 'reporting', 'notify'];
/** Fallback when a schema.prisma declares no `schemas` (docs/team-conventions.md). */
const CONVENTIONAL_SCHEMA = {
  gateway: 'identity',
  booking: 'booking',
  jobs: 'jobs',
  billing: 'billing',
  reporting: 'reporting',
  notify: 'notify',
};

const USAGE = `Usage:
  node scripts/db-migrate.mjs deploy [service...]       apply pending migrations (all services by default)
  node scripts/db-migrate.mjs create <service> <name> [--empty]
                                                        write the next migration from schema.prisma changes
                                                        (--empty: write an empty one for hand-written SQL)
  node scripts/db-migrate.mjs status [service...]       applied / pending / failed / modified migrations
  node scripts/db-migrate.mjs resolve <service> --rolled-back <migration> | --applied <migration>
                                                        settle a failed migration (see docs/migrations.md)
Environment: DATABASE_URL (default ${DEFAULT_DATABASE_URL})`;

const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

/** Services that have prisma/schema.prisma, in deploy order. */
function discoverServices() {
  const names = fs.existsSync(SERVICES_DIR)
    ? fs
        .readdirSync(SERVICES_DIR)
        .filter((name) => fs.existsSync(path.join(SERVICES_DIR, name, 'prisma', 'schema.prisma')))
    : [];
  const rank = (n) => (ORDER.includes(n) ? ORDER.indexOf(n) : ORDER.length);
  return names
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((name) => {
      const prismaDir = path.join(SERVICES_DIR, name, 'prisma');
      const schemaPath = path.join(prismaDir, 'schema.prisma');
      const source = fs.readFileSync(schemaPath, 'utf8');
      const declared = /^\s*schemas\s*=\s*\[\s*"([^"]+)"/m.exec(source)?.[1];
      const schema = declared ?? CONVENTIONAL_SCHEMA[name];
      if (!schema)
        throw new Error(
          `${path.relative(ROOT, schemaPath)} declares no datasource \`schemas = ["…"]\`; add the service's schema.`,
        );
      return { name, schema, schemaPath, migrationsDir: path.join(prismaDir, 'migrations') };
    });
}

function pickServices(all, requested) {
  if (requested.length === 0) return all;
  const unknown = requested.filter((r) => !all.some((s) => s.name === r));
  if (unknown.length) {
    throw new Error(
      `Unknown service(s) ${unknown.join(', ')}. Services with a prisma/schema.prisma: ${all.map((s) => s.name).join(', ') || '(none)'}`,
    );
  }
  return all.filter((s) => requested.includes(s.name));
}

function logger(service) {
  return {
    info: () => {},
    warn: (message) => console.warn(`  ⚠ ${service.name}: ${message}`),
  };
}

async function deploy(tools, databaseUrl, services) {
  if (await tools.ensureDatabase(databaseUrl))
    console.log(`Created database ${new URL(databaseUrl).pathname.slice(1)}.`);
  if (services.length === 0) {
    console.log(
      `No service has a prisma/schema.prisma under ${path.relative(ROOT, SERVICES_DIR) || '.'}; nothing to migrate.`,
    );
    return;
  }
  for (const service of services) {
    const result = await tools.deploy({ databaseUrl, ...service, logger: logger(service) });
    const label = `${service.name} (${service.schema})`;
    if (result.applied.length === 0) console.log(`✔ ${label}: up to date, ${result.total} migration(s)`);
    else
      console.log(
        `✔ ${label}: applied ${result.applied.length} of ${result.total}: ${result.applied.join(', ')}`,
      );
  }
}

async function create(tools, databaseUrl, services, name, empty) {
  const [service] = services;
  if (!service || !name) throw new Error(`create needs a service and a migration name.\n${USAGE}`);
  await tools.ensureDatabase(databaseUrl);
  const result = await tools.create({
    databaseUrl,
    ...service,
    name,
    allowEmpty: empty,
    logger: logger(service),
  });
  if (!result.created) {
    console.log(
      `${service.name} (${service.schema}): schema.prisma matches the migrations; no migration created.`,
    );
    console.log('  (For hand-written SQL only, such as a partial unique index, add --empty.)');
    return;
  }
  console.log(`✔ ${service.name} (${service.schema}): wrote ${path.relative(process.cwd(), result.file)}`);
  console.log(result.sql.replace(/^/gm, '    ').trimEnd());
  console.log(
    '  Review it (append hand-written SQL such as partial unique indexes at the end), then apply with `npm run db:migrate`.',
  );
}

async function status(tools, databaseUrl, services) {
  let clean = true;
  for (const service of services) {
    const result = await tools.status({ databaseUrl, ...service });
    clean &&= result.upToDate;
    const counts = ['applied', 'pending', 'failed', 'modified', 'rolled-back']
      .map((state) => [state, result.migrations.filter((m) => m.state === state).length])
      .filter(([, n]) => n > 0)
      .map(([state, n]) => `${n} ${state}`);
    console.log(
      bold(`${service.name} (${service.schema})`) +
        `: ${counts.join(', ') || 'no migrations'}${result.databaseExists ? '' : ' (database does not exist)'}`,
    );
    const icon = { applied: '✔', pending: '·', failed: '✖', modified: '!', 'rolled-back': '↺' };
    for (const m of result.migrations) {
      console.log(`  ${icon[m.state]} ${m.name}  ${m.state}${m.appliedAt ? ` ${m.appliedAt}` : ''}`);
    }
    for (const name of result.databaseOnly)
      console.log(`  ? ${name}  applied in the database, missing from the folder`);
  }
  if (!clean) process.exitCode = 2;
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      empty: { type: 'boolean', default: false },
      'rolled-back': { type: 'string' },
      applied: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    if (!command && !values.help) process.exitCode = 1;
    return;
  }
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const all = discoverServices();
  const tools = await loadPrismaTools();
  try {
    switch (command) {
      case 'deploy':
        return await deploy(tools, databaseUrl, pickServices(all, rest));
      case 'status':
        return await status(tools, databaseUrl, pickServices(all, rest));
      case 'create': {
        const [service, ...nameParts] = rest;
        if (!service) throw new Error(`create needs a service and a migration name.\n${USAGE}`);
        return await create(
          tools,
          databaseUrl,
          pickServices(all, [service]),
          nameParts.join(' '),
          values.empty,
        );
      }
      case 'resolve': {
        const migration = values['rolled-back'] ?? values.applied;
        if (rest.length !== 1 || !migration)
          throw new Error(`resolve needs one service and --rolled-back or --applied <migration>.\n${USAGE}`);
        const [service] = pickServices(all, rest);
        await tools.resolve({
          databaseUrl,
          ...service,
          migration,
          as: values['rolled-back'] ? 'rolled-back' : 'applied',
          logger: logger(service),
        });
        console.log(
          `✔ ${service.name} (${service.schema}): ${migration} marked ${values['rolled-back'] ? 'rolled back' : 'applied'}.`,
        );
        return;
      }
      default:
        throw new Error(`Unknown command "${command}".\n${USAGE}`);
    }
  } catch (error) {
    if (error?.code === 'DB_UNREACHABLE') {
      console.error(`✖ ${error.message}`);
      console.error('    Set DATABASE_URL to a running PostgreSQL 15+ server, or start one:');
      console.error(
        '    locally:      pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
      );
      console.error('    with Docker:  docker compose up -d postgres');
      process.exit(1);
    }
    if (error?.code === 'DB_AUTH') {
      console.error(`✖ ${error.message}\n    Fix the user/password in DATABASE_URL.`);
      process.exit(1);
    }
    throw error;
  }
}

main().catch((error) => {
  console.error(`✖ ${error?.message ?? error}`);
  process.exit(1);
});
