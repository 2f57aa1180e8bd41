/**
 * The API reference (issue 17): a real gateway in front of stand-in services that serve the services' real OpenAPI
 * documents. The combined document has every route the gateway sends to each service (and none it does not), the
 * page loads only the gateway's own assets, production shows it to admins only, and a service that is down leaves
 * the document incomplete but answering.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { mountOpenApi, type OpenApiDocument, expressRoutes } from '@tyres/service-kit';
import { billingOpenApi } from '../../../billing/src/http/openapi';
import { bookingOpenApi } from '../../../booking/src/http/openapi';
import { jobsOpenApi } from '../../../jobs/src/http/openapi';
import { notifyOpenApi } from '../../../notify/src/http/openapi';
import { reportingOpenApi } from '../../../reporting/src/http/openapi';
import { apiDocsRoutes } from '../../src/http/api-docs';
import { authRoutes, type AuthRoutesDeps } from '../../src/http/auth-routes';
import { gatewayPaths } from '../../src/http/openapi';
import { matchRoute } from '../../src/http/routing';
import { SESSION_COOKIE } from '../../src/http/session';
import { Client, startTestGateway, type GatewayUnderTest } from './harness';

jest.setTimeout(60_000);

const DOCUMENTS: Record<string, () => OpenApiDocument> = {
  booking: bookingOpenApi,
  jobs: jobsOpenApi,
  billing: billingOpenApi,
  reporting: reportingOpenApi,
  notify: notifyOpenApi,
};
const URL_VARIABLE: Record<string, string> = {
  booking: 'BOOKING_URL',
  jobs: 'JOBS_URL',
  billing: 'BILLING_URL',
  reporting: 'REPORTING_URL',
  notify: 'NOTIFY_URL',
};

/** A stand-in service serving only its document. */
async function documentServer(document: OpenApiDocument) {
  const app = express();
  mountOpenApi(app, document);
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (a service that is down). */
async function deadUrl() {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

type Combined = {
  openapi: string;
  paths: Record<string, Record<string, { 'x-service'?: string }>>;
  components: Record<string, Record<string, unknown>>;
  'x-services': string[];
  'x-unavailable-services': { service: string; reason: string }[];
};

const servers: { url: string; close(): Promise<void> }[] = [];
const upstreamEnv: Record<string, string> = {};
let dev: GatewayUnderTest;

beforeAll(async () => {
  for (const [service, document] of Object.entries(DOCUMENTS)) {
    const server = await documentServer(document());
    servers.push(server);
    upstreamEnv[URL_VARIABLE[service]!] = server.url;
  }
  dev = await startTestGateway('gateway-api-docs', upstreamEnv);
});
afterAll(async () => {
  await dev?.stop();
  await Promise.all(servers.map((s) => s.close()));
});

describe('the gateway own document', () => {
  it('describes every route the gateway answers itself', () => {
    const app = express();
    app.use(authRoutes({} as AuthRoutesDeps));
    app.use(
      apiDocsRoutes({ reference: { document: () => Promise.reject(new Error('unused')) }, adminOnly: false }),
    );
    const routes = expressRoutes(app);
    expect(routes.length).toBeGreaterThanOrEqual(10);
    // Every other suite of this service relies on its answers being checked against this document.
    expect(process.env.OPENAPI_RESPONSE_CHECK).toBe('strict');
    const documented = Object.entries(gatewayPaths).flatMap(([path, item]) =>
      Object.keys(item ?? {}).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.filter((r) => !documented.includes(r))).toEqual([]);
    expect(documented.filter((r) => !routes.includes(r))).toEqual([]);
  });
});

describe('GET /api/docs/openapi.json (development)', () => {
  let doc: Combined;
  beforeAll(async () => {
    const res = await new Client(dev.baseUrl).request('GET', '/api/docs/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body as unknown as Combined;
  });

  it('has every path the gateway routes to each service, and none it does not', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc['x-unavailable-services']).toEqual([]);
    expect(doc['x-services'].sort()).toEqual(Object.keys(DOCUMENTS).sort());
    for (const [service, document] of Object.entries(DOCUMENTS)) {
      const paths = Object.keys(document().paths ?? {});
      const routed = paths.filter((p) => matchRoute(p.replace(/\{[^}]+\}/g, 'x'))?.upstream === service);
      expect(routed.length).toBeGreaterThan(0);
      for (const path of routed)
        expect({ service, path, in: Boolean(doc.paths[path]) }).toEqual({ service, path, in: true });
      for (const path of paths.filter((p) => !routed.includes(p)))
        expect({ service, path, in: doc.paths[path]?.get?.['x-service'] === service }).toEqual({
          service,
          path,
          in: false,
        });
    }
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/internal/'))).toBe(false);
    expect(doc.paths['/api/login']).toBeDefined();
    expect(doc.paths['/api/bookings']?.post?.['x-service']).toBe('booking');
  });

  it('resolves every $ref, and authenticates staff routes with the session cookie', () => {
    const text = JSON.stringify(doc);
    const refs = new Set(
      [...text.matchAll(/"\$ref":"#\/components\/([^/"]+)\/([^"]+)"/g)].map((m) => `${m[1]}/${m[2]}`),
    );
    expect(refs.size).toBeGreaterThan(5);
    for (const ref of refs) {
      const [section, name] = ref.split('/') as [string, string];
      expect({ ref, found: doc.components[section]?.[name] !== undefined }).toEqual({ ref, found: true });
    }
    expect(doc.components.securitySchemes).toEqual({
      staffSession: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }),
    });
    expect(text).not.toContain('gatewayIdentity');
  });
});

describe('GET /api/docs (the reference page)', () => {
  it('loads only the gateway own assets, each served with its type, under the gateway CSP', async () => {
    const client = new Client(dev.baseUrl);
    const page = await client.request('GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    const urls = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(urls).toEqual([
      '/api/docs/assets/swagger-ui.css',
      '/api/docs/assets/swagger-ui-bundle.js',
      '/api/docs/assets/start.js',
    ]);
    expect(page.text).not.toMatch(/https?:\/\//);
    expect(page.text).not.toMatch(/<script>|<style>|style="/); // nothing inline for the CSP to refuse
    for (const url of urls) {
      const asset = await client.request('GET', url);
      expect({ url, status: asset.status }).toEqual({ url, status: 200 });
      expect(asset.headers.get('content-type')).toMatch(
        url.endsWith('.css') ? /^text\/css/ : /^text\/javascript/,
      );
    }
    const start = await client.request('GET', '/api/docs/assets/start.js');
    expect(start.text).toContain('"/api/docs/openapi.json"');
    expect(start.text).toContain('validatorUrl: null'); // no call to the public validator
    // Only the page's files: no listing, no other file of the package, no way out of it.
    for (const url of [
      '/api/docs/assets/index.html',
      '/api/docs/assets/..%2Fpackage.json',
      '/api/docs/assets/',
    ])
      expect((await client.request('GET', url)).status).toBe(404);
  });
});

describe('in production', () => {
  let prod: GatewayUnderTest;
  beforeAll(async () => {
    prod = await startTestGateway('gateway-api-docs-prod', {
      ...upstreamEnv,
      // notify is down: the document still answers, without it.
      NOTIFY_URL: await deadUrl(),
      NODE_ENV: 'production',
      COOKIE_SECURE: 'false',
      SHELL_URL: 'http://127.0.0.1:9',
      PUBLIC_REMOTE_URL: 'http://127.0.0.1:9',
      DASHBOARD_REMOTE_URL: 'http://127.0.0.1:9',
    });
  });
  afterAll(async () => {
    await prod?.stop();
  });

  it('is for signed-in admins only', async () => {
    const anonymous = new Client(prod.baseUrl);
    for (const path of ['/api/docs', '/api/docs/openapi.json', '/api/docs/assets/swagger-ui-bundle.js']) {
      const res = await anonymous.request('GET', path);
      expect({ path, status: res.status, message: res.body?.message }).toEqual({
        path,
        status: 401,
        message: 'Not authenticated',
      });
    }
    const admin = new Client(prod.baseUrl);
    expect((await admin.login('Boss', prod.adminPassword)).status).toBe(200);
    const created = await admin.request('POST', '/api/admin/users', {
      username: 'tech-docs',
      password: 'spanner-123',
      role: 'technician',
    });
    expect(created.status).toBe(201);
    const technician = new Client(prod.baseUrl);
    expect((await technician.login('tech-docs', 'spanner-123')).status).toBe(200);
    const refused = await technician.request('GET', '/api/docs/openapi.json');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only an admin can do that');

    expect((await admin.request('GET', '/api/docs')).status).toBe(200);
    expect((await admin.request('GET', '/api/docs/assets/swagger-ui.css')).status).toBe(200);
    const doc = await admin.request('GET', '/api/docs/openapi.json');
    expect(doc.status).toBe(200);
    const combined = doc.body as unknown as Combined;
    // A service that is down is named, its routes are missing, and the others are all there.
    expect(combined['x-unavailable-services']).toEqual([{ service: 'notify', reason: 'unreachable' }]);
    expect(combined.paths['/api/dashboard/notifications/deliveries']).toBeUndefined();
    expect(combined.paths['/api/bookings']).toBeDefined();
    expect(combined.paths['/api/dashboard/reports/gst']).toBeDefined();
    expect(combined['x-services'].sort()).toEqual(['billing', 'booking', 'jobs', 'reporting']);
  });
});
