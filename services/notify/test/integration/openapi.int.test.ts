/**
 * notify's OpenAPI document (issue 17): served at /openapi.json as OpenAPI 3.1, and it describes every route the
 * router has, so a route added to routes.ts without its description in openapi.ts fails here.
 */
import express from 'express';
import { expressRoutes } from '@tyres/service-kit';
import type { DeliveryLog } from '../../src/app/delivery-log';
import { mountRoutes, type RouteDeps } from '../../src/http/routes';
import { startStack, type Stack } from './harness';

jest.setTimeout(60_000);

let stack: Stack;

beforeAll(async () => {
  stack = await startStack('notify-openapi');
});
afterAll(async () => {
  await stack?.stop();
});

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document describing every route the router has, with its error messages', async () => {
    const res = await fetch(`${stack.notify[0]!.url}/openapi.json`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const doc = JSON.parse(text) as {
      openapi: string;
      info: { title: string };
      paths: Record<string, object>;
    };
    expect(doc.openapi).toBe('3.1.0');
    // Every other suite of this service relies on its answers being checked against this document.
    expect(process.env.OPENAPI_RESPONSE_CHECK).toBe('strict');
    expect(doc.info.title).toBe('notify service');

    const app = express();
    mountRoutes(app, { log: {} as DeliveryLog, reviews: {} as RouteDeps['reviews'], queues: [] });
    const routes = expressRoutes(app);
    expect(routes.length).toBeGreaterThanOrEqual(3);
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.filter((route) => !documented.includes(route))).toEqual([]);
    expect(text).toContain('Delivery not found');
  });

  it('checks the admin answers against it (a real delivery log page conforms)', async () => {
    const admin = await stack.admin();
    const res = await admin.request('GET', '/api/dashboard/notifications/deliveries?limit=5');
    expect(res.status).toBe(200);
  });
});
