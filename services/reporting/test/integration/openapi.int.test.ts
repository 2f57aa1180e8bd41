/**
 * Reporting's OpenAPI document (issue 17): served at /openapi.json as OpenAPI 3.1, and it describes every route the
 * router has, so a report added to routes.ts without its description in openapi.ts fails here.
 */
import express from 'express';
import { expressRoutes } from '@tyres/service-kit';
import type { ReportUseCases } from '../../src/app/reports';
import { mountRoutes } from '../../src/http/routes';
import { startTestReporting, type TestReporting } from './harness';

jest.setTimeout(60_000);

let r: TestReporting;

beforeAll(async () => {
  r = await startTestReporting('reporting-openapi');
});
afterAll(async () => {
  await r?.stop();
});

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document describing every route the router has, with its error messages', async () => {
    const res = await r.get('/openapi.json', null);
    expect(res.status).toBe(200);
    const doc = res.body as { openapi: string; info: { title: string }; paths: Record<string, object> };
    expect(doc.openapi).toBe('3.1.0');
    // Every other suite of this service relies on its answers being checked against this document.
    expect(process.env.OPENAPI_RESPONSE_CHECK).toBe('strict');
    expect(doc.info.title).toBe('reporting service');

    const app = express();
    mountRoutes({} as ReportUseCases)(app);
    const routes = expressRoutes(app);
    expect(routes).toHaveLength(3);
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.filter((route) => !documented.includes(route))).toEqual([]);
    expect(documented.filter((route) => !routes.includes(route))).toEqual([]);
    expect(res.text).toContain('startDate must be on or before endDate');
  });
});
