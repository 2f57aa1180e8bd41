import { checkResponse, compileRoutes, expressRoutes } from '@tyres/service-kit';
import type { Payments } from '../../src/app/payments';
import { billingPaths } from '../../src/http/openapi';
import { billingRouters, STRIPE_WEBHOOK_PATH, type BillingUseCases } from '../../src/http/routes';
import { seedJob, startTestBilling, type TestBilling } from './helpers';

jest.setTimeout(120_000);

/** Every route billing answers, as OpenAPI templates: `GET /api/dashboard/customer-invoices/{id}`. */
function routerRoutes(): string[] {
  const useCases = { payments: { mode: 'test' } as Payments } as BillingUseCases;
  const routes = [`POST ${STRIPE_WEBHOOK_PATH}`];
  for (const [prefix, router] of billingRouters(useCases))
    routes.push(...expressRoutes(router).map((r) => r.replace(' ', ` ${prefix}`).replace(/(.)\/$/, '$1')));
  return routes.sort();
}

describe('billing: the OpenAPI document', () => {
  let svc: TestBilling;

  beforeAll(async () => {
    svc = await startTestBilling('billing-openapi');
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('is served at /openapi.json as OpenAPI 3.1 with exactly the routes the routers have', async () => {
    // Every other suite of this service relies on its answers being checked against this document.
    expect(process.env.OPENAPI_RESPONSE_CHECK).toBe('strict');
    const res = await svc.http().get('/openapi.json').expect(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.title).toBe('billing service');
    const documented: string[] = [];
    for (const [path, item] of Object.entries(res.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) documented.push(`${method.toUpperCase()} ${path}`);
    }
    const routes = routerRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(30);
    expect(documented.sort()).toEqual(routes);
    const pdf = res.body.paths['/api/dashboard/customer-invoices/{id}/pdf'].get.responses['200'];
    expect(Object.keys(pdf.content)).toEqual(['application/pdf']);
  });

  // The invoices list is sent as the JSON text Postgres built (res.send, not res.json), which the response check
  // does not see: check it here against the document.
  it('documents the invoices list exactly as Postgres builds it', async () => {
    const token = svc.token(svc.admin);
    const job = await seedJob(svc);
    const generated = await svc
      .http()
      .post(`/api/dashboard/customer-invoices/generate/${job.jobId}`)
      .set('x-identity-token', token)
      .expect(201);
    const list = await svc
      .http()
      .get('/api/dashboard/customer-invoices')
      .set('x-identity-token', token)
      .expect(200);
    expect(list.body.map((i: { id: string }) => i.id)).toContain(generated.body.customerInvoice.id);
    const compiled = compileRoutes(billingPaths);
    expect(
      checkResponse(compiled, 'GET', '/api/dashboard/customer-invoices', 200, list.body),
    ).toBeUndefined();
    // …and would name a field that drifted.
    const drifted = [{ ...list.body[0], total: list.body[0].totalAmount, totalAmount: undefined }];
    expect(checkResponse(compiled, 'GET', '/api/dashboard/customer-invoices', 200, drifted)?.problem).toMatch(
      /totalAmount/,
    );
  });
});
