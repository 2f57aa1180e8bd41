/**
 * The front ends' component-test fixtures must be answers the services could give: each one listed in
 * frontends/<app>/src/testing/fixtures.ts is validated against the response schema of its operation in the
 * generated `<service>.openapi.json` (the document the services check their own answers against). A fixture that
 * keeps a field a service renamed fails here, not in front of a customer.
 */
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { AnswerFixture } from '../../frontends/platform/src/typed-api';
import { DASHBOARD_FIXTURES } from '../../frontends/dashboard/src/testing/fixtures';
import { PUBLIC_FIXTURES } from '../../frontends/public/src/testing/fixtures';

const API_TYPES = path.resolve(__dirname, '../../frontends/platform/src/api-types');

interface Document {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
  components?: { schemas?: Record<string, object> };
}

/** One Ajv per document: its component schemas registered under the document's own $ref addresses. */
const validators = new Map<string, { document: Document; ajv: Ajv2020 }>();
function forService(service: string) {
  const known = validators.get(service);
  if (known) return known;
  const file = path.join(API_TYPES, `${service}.openapi.json`);
  const document = JSON.parse(fs.readFileSync(file, 'utf8')) as Document;
  // strict: false — OpenAPI keywords such as `example` are not JSON Schema vocabulary.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'doc', components: document.components ?? {} });
  const entry = { document, ajv };
  validators.set(service, entry);
  return entry;
}

/** A schema whose `#/components/...` references point into the registered document. */
function rebased(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebased);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `doc${value}` : rebased(value),
    ]),
  );
}

function check(fixture: AnswerFixture): string[] {
  const { document, ajv } = forService(fixture.service);
  const operation = document.paths[fixture.path]?.[fixture.method];
  if (!operation)
    return [`${fixture.method.toUpperCase()} ${fixture.path} is not in ${fixture.service}'s document`];
  const response = operation.responses[String(fixture.status)];
  if (!response) return [`status ${fixture.status} is not documented`];
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return fixture.body === null ? [] : ['the documented answer has no JSON body'];
  const validate = ajv.compile(rebased(schema) as object);
  if (validate(fixture.body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}`.trim());
}

const all = [
  ...DASHBOARD_FIXTURES.map((f) => ['dashboard', f] as const),
  ...PUBLIC_FIXTURES.map((f) => ['public', f] as const),
];

describe("component-test fixtures are answers the services' documents allow", () => {
  test.each(all.map(([app, f]) => [app, `${f.method.toUpperCase()} ${f.path} ${f.status}`, f] as const))(
    '%s: %s',
    (_app, _name, fixture) => {
      expect(check(fixture)).toEqual([]);
    },
  );

  test('the check fails a fixture with a renamed field or a wrong type (so it can fail)', () => {
    const [, sample] = all.find(([, f]) => f.path === '/api/dashboard/jobs/{id}')!;
    const { jobNumber, ...rest } = sample.body as Record<string, unknown>;
    expect(check({ ...sample, body: { ...rest, jobNo: jobNumber } })).toEqual(
      expect.arrayContaining([expect.stringContaining("must have required property 'jobNumber'")]),
    );
    expect(check({ ...sample, body: { ...rest, jobNumber: 123 } })).toEqual(['/jobNumber must be string']);
  });
});
