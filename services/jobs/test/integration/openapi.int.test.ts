import { randomUUID } from 'node:crypto';
import { BookingPhotoAdded } from '@tyres/events';
import { checkResponse, compileRoutes, expressRoutes } from '@tyres/service-kit';
import { waitFor } from '@tyres/testkit';
import type { JobsApi } from '../../src/http/routes';
import { jobsRouter } from '../../src/http/routes';
import { jobsPaths } from '../../src/http/openapi';
import { ADMIN, startHarness, type Harness } from './helpers';

jest.setTimeout(60_000);

describe('jobs: the OpenAPI document', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness('jobs-openapi');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is served at /openapi.json as OpenAPI 3.1 with exactly the routes the router has', async () => {
    // Every other suite of this service relies on its answers being checked against this document.
    expect(process.env.OPENAPI_RESPONSE_CHECK).toBe('strict');
    const res = await h.http.get('/openapi.json').expect(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.title).toBe('jobs service');
    const documented: string[] = [];
    for (const [path, item] of Object.entries(res.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) documented.push(`${method.toUpperCase()} ${path}`);
    }
    const routes = expressRoutes(jobsRouter({} as JobsApi));
    expect(routes.length).toBeGreaterThanOrEqual(13);
    expect(documented.sort()).toEqual(routes);
    expect(res.body.components.schemas.DetailedJob).toBeDefined();
  });

  // The lists are sent as the JSON text Postgres built (res.send, not res.json), which the response check does not
  // see: check them here against the document, with a job that has every optional part filled in.
  it('documents the lists exactly as Postgres builds them', async () => {
    const admin = h.token(ADMIN);
    const tina = await h.createTechnician('tina-openapi');
    const job = await h.createJob();
    await h.createJob({ tyreSize: null, tyreQuantity: null, tyreBrand: null, notes: null });
    const photoId = randomUUID();
    await h.publish(BookingPhotoAdded, {
      jobId: job.jobId,
      photoId,
      type: 'tyre-condition',
      filename: `${photoId}.jpg`,
      originalName: 'tyre.jpg',
      mimeType: 'image/jpeg',
      size: 100,
      uploadedAt: new Date().toISOString(),
    });
    await waitFor(async () => (await h.sql('SELECT 1 FROM jobs.job_photos')).length === 1, {
      timeoutMs: 10_000,
    });
    await h.http
      .patch(`/api/dashboard/jobs/${job.jobId}/assign`)
      .set('x-identity-token', admin)
      .send({ technicianId: tina.id })
      .expect(200);
    await h.http
      .patch(`/api/dashboard/jobs/${job.jobId}/status`)
      .set('x-identity-token', admin)
      .send({ status: 'in-progress' })
      .expect(200);

    const compiled = compileRoutes(jobsPaths);
    for (const path of [
      '/api/dashboard/jobs',
      '/api/dashboard/jobs-with-details',
      `/api/dashboard/technicians/${tina.id}/jobs`,
    ]) {
      const res = await h.http.get(path).set('x-identity-token', admin).expect(200);
      expect(res.body.length).toBeGreaterThan(0);
      expect(checkResponse(compiled, 'GET', path, 200, res.body)).toBeUndefined();
    }
    const withPhoto = (
      await h.http.get('/api/dashboard/jobs').set('x-identity-token', admin).expect(200)
    ).body.find((j: { id: string }) => j.id === job.jobId);
    expect(withPhoto.photos).toHaveLength(1);

    // And the check does fail on a list that drifted (a renamed field).
    const drifted = [{ ...withPhoto, jobNo: withPhoto.jobNumber, jobNumber: undefined }];
    expect(checkResponse(compiled, 'GET', '/api/dashboard/jobs', 200, drifted)?.problem).toMatch(/jobNumber/);
  });
});
