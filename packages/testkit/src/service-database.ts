import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTemplateDatabase, createTestDatabase, type TestDatabase } from './postgres';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const run = promisify(execFile);

/** Hash of a service's migrations folder: the migrated template is rebuilt only when a migration changes. */
export function migrationsFingerprint(service: string): string {
  const dir = path.join(REPO_ROOT, 'services', service, 'prisma', 'migrations');
  if (!existsSync(dir)) throw new Error(`no migrations folder for service "${service}" (${dir})`);
  const hash = createHash('sha256');
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      if (statSync(full).isDirectory()) walk(full);
      else hash.update(path.relative(dir, full)).update(readFileSync(full));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

/**
 * A fresh database for one test file, copied from a template that the service's real migrations built
 * (`node scripts/db-migrate.mjs deploy <service>`, in a child process: Prisma's Wasm schema engine cannot load
 * under jest). The template is built once per machine for as long as the migrations do not change.
 *
 * The copy is made with createTestDatabase here, not with a cached template handle, so it always runs in the
 * calling test file's module registry.
 */
export async function migratedServiceDatabase(
  service: string,
  label: string = service,
): Promise<TestDatabase> {
  const template = await createTemplateDatabase(
    service,
    async (url) => {
      await run(process.execPath, [path.join(REPO_ROOT, 'scripts', 'db-migrate.mjs'), 'deploy', service], {
        cwd: REPO_ROOT,
        env: { ...process.env, DATABASE_URL: url },
      });
    },
    { fingerprint: migrationsFingerprint(service) },
  );
  return createTestDatabase(label, { template: template.name });
}
