import { DASHBOARD_FIELDS, DETAIL_FIELDS } from '../db/job-json';
import { jobsOpenApi } from './openapi';
import { DashboardJobSchema, DetailedJobSchema } from './responses';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

describe("the jobs service's OpenAPI document", () => {
  const doc = jobsOpenApi();
  const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = (item as Record<string, unknown>)[method] as
        | {
            operationId?: string;
            security?: unknown[];
            parameters?: { in: string; name: string }[];
            responses: Record<string, { content?: unknown }>;
          }
        | undefined;
      return op ? [{ path, method, op }] : [];
    }),
  );

  it('names every operation once, declares its path parameters, a success answer and, for staff routes, 401', () => {
    expect(doc.openapi).toBe('3.1.0');
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect({ where, params: declared.sort() }).toEqual({ where, params: inPath.sort() });
      const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      expect({ where, success: success.length > 0 }).toEqual({ where, success: true });
      if (op.security) expect({ where, has401: '401' in op.responses }).toEqual({ where, has401: true });
    }
  });

  // The lists are JSON that Postgres builds from src/db/job-json.ts: the document must name the same fields.
  it('describes the list documents with exactly the fields Postgres builds', () => {
    expect(Object.keys(DashboardJobSchema.shape).sort()).toEqual(DASHBOARD_FIELDS.map(([k]) => k).sort());
    expect(Object.keys(DetailedJobSchema.shape).sort()).toEqual(DETAIL_FIELDS.map(([k]) => k).sort());
  });
});
