#!/usr/bin/env node
// Generic CLI over @tyres/prisma-tools for one schema. Services normally use scripts/db-migrate.mjs, which knows the
// repo layout; this one takes explicit paths (used by the package's integration tests and ad-hoc runs).
//
//   node packages/prisma-tools/bin/prisma-tools.mjs <deploy|create|status|resolve>
//     --database-url URL   (default: $DATABASE_URL)
//     --schema-path FILE   --migrations-dir DIR   --schema NAME
//     create:  --name NAME [--empty]
//     resolve: --rolled-back MIGRATION | --applied MIGRATION
//     --json   print the result (or {"error":{code,message}}) as JSON on stdout
import { parseArgs } from 'node:util';

import { loadPrismaTools } from './load.mjs';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    'database-url': { type: 'string' },
    'schema-path': { type: 'string' },
    'migrations-dir': { type: 'string' },
    schema: { type: 'string' },
    name: { type: 'string' },
    empty: { type: 'boolean', default: false },
    'rolled-back': { type: 'string' },
    applied: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

const command = positionals[0];
const json = values.json;
const logger = json
  ? { info: () => {}, warn: (m) => console.error(`warning: ${m}`) }
  : { info: (m) => console.log(m), warn: (m) => console.warn(`warning: ${m}`) };

async function main() {
  const tools = await loadPrismaTools();
  const target = {
    databaseUrl: values['database-url'] ?? process.env.DATABASE_URL,
    schemaPath: values['schema-path'],
    migrationsDir: values['migrations-dir'],
    schema: values.schema,
    logger,
  };
  switch (command) {
    case 'deploy':
      return tools.deploy(target);
    case 'create':
      return tools.create({ ...target, name: values.name, allowEmpty: values.empty });
    case 'status':
      return tools.status(target);
    case 'resolve': {
      const migration = values['rolled-back'] ?? values.applied;
      if (!migration) throw new Error('resolve needs --rolled-back <migration> or --applied <migration>');
      await tools.resolve({ ...target, migration, as: values['rolled-back'] ? 'rolled-back' : 'applied' });
      return { resolved: migration };
    }
    default:
      throw new Error(`Unknown command ${JSON.stringify(command)}: use deploy, create, status or resolve.`);
  }
}

main().then(
  (result) => {
    if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else if (command === 'status') console.log(JSON.stringify(result, null, 2));
  },
  (error) => {
    if (json)
      process.stdout.write(
        `${JSON.stringify({ error: { code: error.code ?? 'ERROR', message: error.message } })}\n`,
      );
    else console.error(`error: ${error.message}`);
    process.exitCode = 1;
  },
);
