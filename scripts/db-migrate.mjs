#!/usr/bin/env node
// Prisma migrations for every service, without Prisma's native schema engine (see docs/migrations.md).
//
//   node scripts/db-migrate.mjs deploy [service...]          npm run db:migrate
//   node scripts/db-migrate.mjs roles [service...]
//   node scripts/db-migrate.mjs create <service> <name> [--empty]
//                                                            npm run db:migration:create -- <service> <name>
//   node scripts/db-migrate.mjs status [service...]
//   node scripts/db-migrate.mjs resolve <service> --rolled-back <migration> | --applied <migration>
//
// DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/tyres) names the database and the administrator; deploy
// and create create the database when missing. Each service's migrations go to its own Postgres schema, with its own
// <schema>._prisma_migrations. deploy first sets up the service roles (scripts/lib/database-roles.mjs): per service a
// NOLOGIN <service>_owner that owns the schema and a LOGIN <service>_app for the service, whose password comes from
// <SERVICE>_DATABASE_URL (required for every deployed service when NODE_ENV=production); then it runs each service's
// migrations as its owner. DB_MIGRATE_SERVICES_DIR overrides the services folder (tests only).
// DATABASE_ROLE_PREFIX prefixes every role name (several environments on one cluster, tests).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { loadPrismaTools } from '../packages/prisma-tools/bin/load.mjs';
import { appPasswordFromEnv, databaseUrlVariable, rolePrefix, roleNames } from './lib/database-roles.mjs';

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
  node scripts/db-migrate.mjs deploy [service...]       set up the service roles, then apply pending migrations as
                                                        each schema's owner (all services by default)
  node scripts/db-migrate.mjs roles [service...]        only set up the service roles (idempotent)
  node scripts/db-migrate.mjs create <service> <name> [--empty]
                                                        write the next migration from schema.prisma changes
                                                        (--empty: write an empty one for hand-written SQL)
  node scripts/db-migrate.mjs status [service...]       applied / pending / failed / modified migrations
  node scripts/db-migrate.mjs resolve <service> --rolled-back <migration> | --applied <migration>
                                                        settle a failed migration (see docs/migrations.md)
Environment: DATABASE_URL (default ${DEFAULT_DATABASE_URL}): the administrator (superuser, or CREATEROLE and
  owner of the database); <SERVICE>_DATABASE_URL: each service's own URL (postgresql://<service>_app:<password>@…),
  whose password its role gets (required with NODE_ENV=production); DATABASE_ROLE_PREFIX: prefix of every role name`;

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

/** Each service with its owner and app role names (and the app role's password from <SERVICE>_DATABASE_URL). */
function withRoles(services) {
  const prefix = rolePrefix();
  const missing = [];
  const result = services.map((service) => {
    const roles = roleNames(service.name, prefix);
    const appPassword = appPasswordFromEnv(process.env, service.name, prefix);
    if (!appPassword && process.env.NODE_ENV === 'production')
      missing.push(databaseUrlVariable(service.name));
    return { ...service, ...roles, appPassword: appPassword || undefined };
  });
  if (missing.length) {
    throw new Error(
      `Missing ${missing.join(', ')} (with a password). In production each service's role gets its password from the ` +
        "service's own DATABASE_URL (postgresql://<service>_app:<password>@host:5432/<database>), given to the migrator " +
        'as <SERVICE>_DATABASE_URL. See docs/migrations.md, "Database roles".',
    );
  }
  return result;
}

async function bootstrapRoles(tools, databaseUrl, services) {
  const result = await tools.bootstrapRoles({
    databaseUrl,
    services: services.map(({ schema, owner, app, appPassword, migrationsDir }) => ({
      schema,
      owner,
      app,
      appPassword,
      migrationsDir,
    })),
  });
  const changes = [
    result.created.length && `created ${result.created.join(', ')}`,
    result.corrected.length && `corrected ${result.corrected.join(', ')}`,
    result.passwordsSet.length && `set the password of ${result.passwordsSet.join(', ')}`,
    result.reassigned.length && `handed ${result.reassigned.length} object(s) to their schema's owner`,
    result.extensions.length && `installed ${result.extensions.join(', ')}`,
  ].filter(Boolean);
  const prefix = rolePrefix();
  console.log(
    `✔ database roles of ${services.map((s) => s.name).join(', ')}${prefix ? ` (prefix ${prefix})` : ''}: ` +
      (changes.join('; ') || 'up to date'),
  );
}

async function deploy(tools, databaseUrl, services) {
  // Checked before anything is created: a missing password fails the deploy, not the service later.
  const targets = withRoles(services);
  if (await tools.ensureDatabase(databaseUrl))
    console.log(`Created database ${new URL(databaseUrl).pathname.slice(1)}.`);
  if (services.length === 0) {
    console.log(
      `No service has a prisma/schema.prisma under ${path.relative(ROOT, SERVICES_DIR) || '.'}; nothing to migrate.`,
    );
    return;
  }
  await bootstrapRoles(tools, databaseUrl, targets);
  for (const service of targets) {
    // As the schema's owner: what the migrations create is the owner's, and they cannot touch another schema.
    const result = await tools.deploy({
      databaseUrl,
      ...service,
      role: service.owner,
      logger: logger(service),
    });
    // The first deploy creates _prisma_migrations, and the default privileges hand it to the app role.
    if (result.applied.length > 0) await tools.restrictMigrationHistory({ databaseUrl, ...service });
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
      case 'roles': {
        const targets = withRoles(pickServices(all, rest));
        if (await tools.ensureDatabase(databaseUrl))
          console.log(`Created database ${new URL(databaseUrl).pathname.slice(1)}.`);
        return await bootstrapRoles(tools, databaseUrl, targets);
      }
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
        const [picked] = pickServices(all, rest);
        const service = { ...picked, ...roleNames(picked.name, rolePrefix()) };
        await tools.resolve({
          databaseUrl,
          ...service,
          role: service.owner,
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
    if (error?.code === 'DB_PRIVILEGES') {
      console.error(`✖ ${error.message}`);
      console.error(
        "    DATABASE_URL is the migrator's: point it at the administrator (e.g. postgres), not a service role.",
      );
      process.exit(1);
    }
    throw error;
  }
}

main().catch((error) => {
  console.error(`✖ ${error?.message ?? error}`);
  process.exit(1);
});
