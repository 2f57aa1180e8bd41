import { combineDocuments, samplePath, type OpenApiLike, withEdgeResponses } from './api-reference';

const gateway: OpenApiLike = {
  openapi: '3.1.0',
  info: { title: 'Mobile tyres API', version: '1', description: 'The gateway.' },
  paths: { '/api/login': { post: { responses: {} } } },
  components: {
    schemas: { Error: { type: 'object', properties: { message: { type: 'string' } } } },
    securitySchemes: { staffSession: { type: 'apiKey', in: 'cookie', name: 'tyres_session' } },
  },
};

const error = { type: 'object', properties: { message: { type: 'string' } } };
const booking: OpenApiLike = {
  openapi: '3.1.0',
  info: { title: 'booking service', version: '1' },
  paths: {
    '/api/bookings': {
      post: {
        tags: ['Bookings'],
        security: [{ gatewayIdentity: [] }],
        responses: {
          '201': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Money' } } } },
        },
      },
    },
    '/internal/reservations/{jobId}': { put: { responses: {} } },
    // Routed to another service by the gateway: not booking's to publish.
    '/api/dashboard/jobs/{id}': { get: { responses: {} } },
  },
  components: {
    schemas: { Error: error, Money: { type: 'string', pattern: '^\\d+\\.\\d{2}$' } },
    securitySchemes: { gatewayIdentity: { type: 'apiKey', in: 'header', name: 'x-identity' } },
  },
};
const billing: OpenApiLike = {
  openapi: '3.1.0',
  info: { title: 'billing service', version: '1' },
  paths: {
    '/api/payments/{id}': {
      get: {
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Money' } } } },
        },
      },
    },
  },
  // The same name for something else: renamed in billing's paths.
  components: { schemas: { Error: error, Money: { type: 'number' } } },
};

const owner = (path: string) =>
  path.startsWith('/api/bookings')
    ? 'booking'
    : path.startsWith('/api/payments')
      ? 'billing'
      : path.startsWith('/api/dashboard/jobs')
        ? 'jobs'
        : undefined;

describe('combineDocuments', () => {
  const combined = combineDocuments({
    gateway,
    services: [
      { service: 'booking', document: booking },
      { service: 'billing', document: billing },
    ],
    unavailable: [{ service: 'notify', reason: 'unreachable' }],
    routeOwner: owner,
    accessOf: (path) => (path.startsWith('/api/bookings') ? 'public' : 'staff'),
  });

  it('keeps only the paths the gateway routes to each service, with the gateway own first', () => {
    expect(Object.keys(combined.paths ?? {}).sort()).toEqual([
      '/api/bookings',
      '/api/login',
      '/api/payments/{id}',
    ]);
  });

  it('shares identical components and renames a clash in the later service, refs included', () => {
    const schemas = combined.components?.schemas ?? {};
    expect(Object.keys(schemas).sort()).toEqual(['Error', 'Money', 'billing.Money']);
    expect(schemas['billing.Money']).toEqual({ type: 'number' });
    expect(JSON.stringify(combined.paths?.['/api/payments/{id}'])).toContain(
      '#/components/schemas/billing.Money',
    );
    expect(JSON.stringify(combined.paths?.['/api/bookings'])).toContain('#/components/schemas/Money"');
  });

  it('describes staff routes as the gateway clients meet them: the session cookie, the service, the access rule', () => {
    const op = combined.paths?.['/api/bookings']?.post as Record<string, unknown>;
    expect(op.security).toEqual([{ staffSession: [] }]);
    expect(op['x-service']).toBe('booking');
    expect(op['x-access']).toBe('public');
    expect(Object.keys(combined.components?.securitySchemes ?? {})).toEqual(['staffSession']);
    // An operation without tags is grouped under its service.
    expect((combined.paths?.['/api/payments/{id}']?.get as { tags: string[] }).tags).toEqual(['billing']);
  });

  it('names the services it could not fetch', () => {
    expect(combined['x-unavailable-services']).toEqual([{ service: 'notify', reason: 'unreachable' }]);
    expect(combined['x-services']).toEqual(['booking', 'billing']);
    expect(combined.info.description).toContain('notify could not be fetched');
  });

  it('asks the routing table with one plain segment per parameter', () => {
    expect(samplePath('/api/dashboard/jobs/{jobId}/photos/{photoId}')).toBe('/api/dashboard/jobs/x/photos/x');
  });
});

describe("the gateway's own answers on the services' operations", () => {
  const edge429 = {
    '429': {
      description: 'gateway limit',
      content: { 'application/json': { examples: { gw: { value: { message: 'Too many requests.' } } } } },
    },
  };
  const combined = combineDocuments({
    gateway,
    services: [{ service: 'booking', document: booking }],
    unavailable: [],
    routeOwner: owner,
    edgeResponsesOf: (method, path) => (method === 'POST' && path === '/api/bookings' ? edge429 : undefined),
  });

  it('adds them to the operations they apply to, and only those', () => {
    const ops = combined.paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    expect(ops['/api/bookings']?.post?.responses?.['429']).toEqual(edge429['429']);
    expect(ops['/api/dashboard/jobs/{id}']?.get?.responses?.['429']).toBeUndefined();
  });

  it("merges with the service's own answer for the same status, keeping both messages", () => {
    const merged = withEdgeResponses(
      {
        '429': {
          description: 'hold cap',
          content: {
            'application/json': { examples: { e1: { value: { message: 'Too many open holds' } } } },
          },
        },
      },
      edge429,
    ) as Record<string, { description: string; content: Record<string, { examples: object }> }>;
    expect(merged['429']?.description).toBe('hold cap; or gateway limit');
    expect(Object.keys(merged['429']?.content['application/json']?.examples ?? {})).toEqual(['e1', 'gw']);
  });
});
