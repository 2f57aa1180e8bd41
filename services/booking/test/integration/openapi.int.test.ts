/**
 * Booking's OpenAPI document (issue 17): served at /openapi.json as OpenAPI 3.1, and it describes every route the
 * router has, so a route added to routes.ts without its description in openapi.ts fails here.
 */
import express from 'express';
import { expressRoutes } from '@tyres/service-kit';
import { bookingRoutes, type RouteDeps } from '../../src/http/routes';
import { startTestBooking, type BookingUnderTest } from './harness';

jest.setTimeout(60_000);

let booking: BookingUnderTest;

beforeAll(async () => {
  booking = await startTestBooking('booking-openapi');
});
afterAll(async () => {
  await booking?.stop();
});

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document describing every route the router has', async () => {
    const res = await booking.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body as unknown as {
      openapi: string;
      info: { title: string };
      paths: Record<string, object>;
    };
    expect(doc.openapi).toBe('3.1.0');
    // Every other suite of this service relies on its answers being checked against this document.
    expect(process.env.OPENAPI_RESPONSE_CHECK).toBe('strict');
    expect(doc.info.title).toBe('booking service');

    const app = express();
    bookingRoutes({ clock: () => new Date() } as RouteDeps)(app);
    const routes = expressRoutes(app);
    expect(routes.length).toBeGreaterThan(20);
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.filter((r) => !documented.includes(r))).toEqual([]);
    // And nothing documented that the router does not answer (the slash form of a tyre size is the wildcard's).
    expect(
      documented.filter((r) => !routes.includes(r) && r !== 'GET /api/tyre-pricing/{width}/{profileRim}'),
    ).toEqual([]);
  });

  it('names the exact error messages of a route', async () => {
    const doc = (await booking.request('GET', '/openapi.json')).text;
    expect(doc).toContain(
      'This time slot was just booked by someone else. Please select a different time slot.',
    );
    expect(doc).toContain('Only an admin can do that');
  });
});
