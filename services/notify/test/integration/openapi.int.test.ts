/**
 * notify's OpenAPI document (issue 17): served at /openapi.json as OpenAPI 3.1, and it describes every route the
 * router has, so a route added to routes.ts without its description in openapi.ts fails here.
 */
import express, { type Express } from 'express';
import type { DeliveryLog } from '../../src/app/delivery-log';
import { mountRoutes } from '../../src/http/routes';
import { startStack, type Stack } from './harness';

jest.setTimeout(60_000);

/** Every "METHOD /path" express would answer, walking nested routers (express 5 / router 2 layers). */
function routerRoutes(app: Express): string[] {
  const out: string[] = [];
  type Layer = {
    name?: string;
    rawPath?: string;
    route?: { path: string; methods: Record<string, boolean> };
    handle?: { stack?: Layer[] };
  };
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const template = (prefix + layer.route.path).replace(/[:*](\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
        for (const method of Object.keys(layer.route.methods))
          out.push(`${method.toUpperCase()} ${template}`);
      } else if (layer.name === 'router' && layer.handle?.stack) {
        walk(layer.handle.stack, prefix + (typeof layer.rawPath === 'string' ? layer.rawPath : ''));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return out.filter((r) => !/ \/openapi\.json$/.test(r)).sort();
}

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
    mountRoutes(app, { log: {} as DeliveryLog, queues: [] });
    const routes = routerRoutes(app);
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
