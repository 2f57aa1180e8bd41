/**
 * The front ends' API types (frontends/platform/src/api-types) must be what the services' OpenAPI documents say
 * now: a document changed without `npm run api:types` fails here, and then the front ends' typecheck tells what
 * the change breaks. Both checks regenerate from the TypeScript sources; nothing is written.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../..');
const OUT = path.join(ROOT, 'frontends/platform/src/api-types');
const services = fs
  .readdirSync(path.join(ROOT, 'services'))
  .filter((svc) => fs.existsSync(path.join(ROOT, 'services', svc, 'src/http/openapi.ts')))
  .sort();

describe('generated front-end API types', () => {
  test.each(services)(
    "%s: the committed <svc>.openapi.json is the service's document (else run npm run api:types)",
    (svc) => {
      const file = path.join(OUT, `${svc}.openapi.json`);
      if (!fs.existsSync(file))
        throw new Error(`${path.relative(ROOT, file)} is missing: run npm run api:types`);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const source = require(path.join(ROOT, 'services', svc, 'src/http/openapi.ts')) as Record<
        string,
        unknown
      >;
      const build = source[`${svc}OpenApi`] as () => unknown;
      const { 'x-generated': generated, ...committed } = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<
        string,
        unknown
      >;
      expect(generated).toMatch(/npm run api:types/);
      // As it travels (GET /openapi.json): JSON, no undefined members.
      expect(committed).toEqual(JSON.parse(JSON.stringify(build())));
    },
  );

  test('every generated file matches a regeneration from the sources (scripts/api-types.mjs --check)', async () => {
    const run = promisify(execFile);
    const result = await run(process.execPath, [path.join(ROOT, 'scripts/api-types.mjs'), '--check'], {
      cwd: ROOT,
    }).then(
      ({ stdout }) => ({ ok: true, output: stdout }),
      (error: { stdout?: string; stderr?: string }) => ({
        ok: false,
        output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
      }),
    );
    // On failure the output names the stale files and says to run `npm run api:types`.
    expect(result).toEqual({ ok: true, output: expect.stringContaining('up to date') });
  }, 60_000);
});
