import { gzipSync } from 'node:zlib';
import express from 'express';
import request from 'supertest';
import * as z from 'zod';
import {
  STAFF_ERRORS,
  NO_BODY,
  checkResponse,
  documentedRoutes,
  expressRoutes,
  compileRoutes,
  errors,
  json,
  jsonBody,
  mountOpenApi,
  responseContractCheck,
  serviceOpenApiDocument,
  type RoutePaths,
} from './openapi';

const Booking = z
  .object({ id: z.string(), jobNumber: z.string(), createdAt: z.string() })
  .meta({ id: 'Booking' });

const paths: RoutePaths = {
  '/api/bookings': {
    post: {
      summary: 'Book a slot',
      requestBody: jsonBody(z.object({ timeSlot: z.string() })),
      responses: { '201': json('The booking', Booking), ...errors({ 409: 'That slot has just been taken' }) },
    },
  },
  '/api/bookings/slots': {
    get: { summary: 'Free slots', responses: { '200': json('Slots', z.array(z.string())) } },
  },
  '/api/bookings/{id}': {
    get: {
      summary: 'One booking',
      requestParams: { path: z.object({ id: z.string() }) },
      responses: {
        '200': json('The booking', Booking),
        ...errors({ ...STAFF_ERRORS, 404: 'Booking not found' }),
      },
    },
  },
};

describe('the OpenAPI document', () => {
  const doc = serviceOpenApiDocument({ service: 'booking', description: 'Bookings', paths });

  it('is OpenAPI 3.1 with the routes, the shared error body and the documented messages', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths ?? {})).toEqual([
      '/api/bookings',
      '/api/bookings/slots',
      '/api/bookings/{id}',
    ]);
    expect(doc.components?.schemas?.Error).toBeDefined();
    expect(doc.components?.schemas?.Booking).toBeDefined();
    const notFound = doc.paths?.['/api/bookings/{id}']?.get?.responses?.['404'] as { description: string };
    expect(notFound.description).toBe('Not found: "Booking not found"');
    expect(JSON.stringify(doc)).toContain('That slot has just been taken');
  });

  it('is served at /openapi.json', async () => {
    const app = express();
    mountOpenApi(app, doc);
    const res = await request(app).get('/openapi.json').expect(200);
    expect(res.body.info.title).toBe('booking service');
  });
});

describe('checking answers against the document', () => {
  const compiled = compileRoutes(paths);
  const booking = { id: 'b1', jobNumber: 'JOB-1', createdAt: new Date(0) };

  it('accepts a conforming answer (dates travel as strings) and prefers literal paths', () => {
    expect(checkResponse(compiled, 'GET', '/api/bookings/b1', 200, booking)).toBeUndefined();
    expect(checkResponse(compiled, 'GET', '/api/bookings/slots', 200, ['8-10'])).toBeUndefined();
  });

  it('names a missing or renamed field', () => {
    const v = checkResponse(compiled, 'GET', '/api/bookings/b1', 200, {
      id: 'b1',
      number: 'JOB-1',
      createdAt: 'x',
    });
    expect(v?.problem).toMatch(/jobNumber/);
  });

  it('refuses a field the published document does not have (zod alone would drop it)', () => {
    const v = checkResponse(compiled, 'GET', '/api/bookings/b1', 200, { ...booking, passwordHash: 'x' });
    expect(v?.problem).toMatch(/additional properties \(passwordHash\)/);
  });

  it('holds error answers to their documented messages, a {name} standing for any text', () => {
    expect(
      checkResponse(compiled, 'GET', '/api/bookings/b1', 404, { message: 'Booking not found' }),
    ).toBeUndefined();
    expect(
      checkResponse(compiled, 'GET', '/api/bookings/b1', 404, { message: 'Gone fishing' })?.problem,
    ).toMatch(/not one documented for 404/);
    const templated = compileRoutes({
      '/api/jobs/{id}/invoice': {
        post: {
          responses: { ...errors({ 409: 'Job {jobNumber} already has invoice {invoiceNumber}' }) },
        },
      },
    });
    const msg = (message: string) =>
      checkResponse(templated, 'POST', '/api/jobs/1/invoice', 409, { message });
    expect(msg('Job JOB-1 already has invoice INV-000001')).toBeUndefined();
    expect(msg('Job JOB-1 has no invoice')?.problem).toMatch(/not one documented/);
  });

  it('answers HEAD as GET, and checks the route and status of answers that are not JSON', () => {
    expect(checkResponse(compiled, 'HEAD', '/api/bookings/slots', 200, NO_BODY)).toBeUndefined();
    expect(checkResponse(compiled, 'GET', '/api/bookings/slots', 202, NO_BODY)?.problem).toMatch(
      /status 202 is not documented/,
    );
  });

  it('refuses undocumented statuses and routes, but not the kit’s generic answers', () => {
    expect(checkResponse(compiled, 'GET', '/api/bookings/b1', 409, { message: 'x' })?.problem).toMatch(
      /status 409 is not documented/,
    );
    expect(checkResponse(compiled, 'DELETE', '/api/bookings/b1', 200, {})?.problem).toMatch(
      /not in the OpenAPI/,
    );
    expect(checkResponse(compiled, 'GET', '/nowhere', 404, { message: 'Not found' })).toBeUndefined();
    expect(
      checkResponse(compiled, 'POST', '/api/bookings', 400, { message: 'bad', code: 'malformed_json' }),
    ).toBeUndefined();
    expect(checkResponse(compiled, 'POST', '/api/bookings', 503, { message: 'down' })).toBeUndefined();
    expect(checkResponse(compiled, 'POST', '/api/bookings', 503, { oops: true })?.problem).toMatch(
      /error body/,
    );
    expect(
      checkResponse(compiled, 'POST', '/api/bookings', 400, { message: 'Name is required' })?.problem,
    ).toMatch(/status 400 is not documented/);
  });

  it('in strict mode turns a non-conforming answer into a 500 naming the problem; warn mode passes it on', async () => {
    const seen: string[] = [];
    const make = (mode: 'strict' | 'warn') => {
      const app = express();
      app.use(responseContractCheck(paths, mode, (v) => seen.push(v.problem)));
      app.get('/api/bookings/:id', (_req, res) => {
        res.json({ id: 'b1', createdAt: 'x' });
      });
      return app;
    };
    const strict = await request(make('strict')).get('/api/bookings/b1');
    expect(strict.status).toBe(500);
    expect(strict.body.code).toBe('openapi_contract_violation');
    expect(strict.body.message).toMatch(/jobNumber/);
    const warn = await request(make('warn')).get('/api/bookings/b1');
    expect(warn.status).toBe(200);
    expect(seen).toHaveLength(2);
  });
});

describe('answers sent as ready-made JSON text', () => {
  const app = () => {
    const a = express();
    a.use(responseContractCheck(paths, 'strict'));
    a.get('/api/bookings/slots', (req, res) => {
      const text = req.query.bad ? '[1,2]' : '["8-10 AM"]';
      res.type('application/json');
      if (req.query.gzip) res.setHeader('content-encoding', 'gzip').send(gzipSync(text));
      else res.send(text);
    });
    a.get('/api/bookings/:id', (_req, res) => {
      res.type('text/plain').send('not json at all');
    });
    return a;
  };

  it('checks them too, gzipped or not', async () => {
    await request(app()).get('/api/bookings/slots').expect(200, ['8-10 AM']);
    await request(app()).get('/api/bookings/slots?gzip=1').expect(200, ['8-10 AM']);
    const bad = await request(app()).get('/api/bookings/slots?bad=1&gzip=1');
    expect(bad.status).toBe(500);
    expect(bad.body.code).toBe('openapi_contract_violation');
    expect(bad.headers['content-encoding']).toBeUndefined();
  });

  it('leaves answers that are not JSON alone', async () => {
    await request(app()).get('/api/bookings/b1').expect(200, 'not json at all');
  });
});

describe('coverage helpers', () => {
  it('lists every route of nested routers as OpenAPI templates, and what a document describes', () => {
    const a = express();
    const inner = express.Router();
    inner.get('/:id', (_req, res) => res.end());
    inner.post('/', (_req, res) => res.end());
    a.use('/api/bookings', inner);
    a.get('/api/bookings/slots', (_req, res) => res.end());
    const unmounted = express.Router();
    unmounted.get('/api/bookings/:id/x', (_req, res) => res.end());
    a.use(unmounted);
    mountOpenApi(a, serviceOpenApiDocument({ service: 'x', description: 'x', paths }));
    expect(expressRoutes(a)).toEqual([
      'GET /api/bookings/slots',
      'GET /api/bookings/{id}',
      'GET /api/bookings/{id}/x',
      'POST /api/bookings',
    ]);
    expect(documentedRoutes(serviceOpenApiDocument({ service: 'x', description: 'x', paths }))).toEqual([
      'GET /api/bookings/slots',
      'GET /api/bookings/{id}',
      'POST /api/bookings',
    ]);
  });
});
