/**
 * Issue 19 item 5: price list administration under /api/dashboard/prices (admin only; technicians 403). Mounted by
 * routes.ts; documented in price-list-openapi.ts.
 */
import type { Express } from 'express';
import { notFound, parseOr400, requireAdmin } from '@tyres/service-kit';
import type { PriceList } from '../app/price-list';
import {
  cancelChangeSchema,
  feeScheduleSchema,
  PRICE_MSG,
  tyreChangeSchema,
  tyreCreateSchema,
} from '../domain/price-list';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidOr404 = (v: unknown, message: string): string => {
  if (typeof v !== 'string' || !UUID.test(v)) throw notFound(message);
  return v;
};

export function priceListRoutes(deps: { priceList?: PriceList }) {
  return (app: Express): void => {
    const priceList = (): PriceList => {
      if (!deps.priceList) throw new Error('price list not configured');
      return deps.priceList;
    };
    const base = '/api/dashboard/prices';

    app.get(base, requireAdmin, async (_req, res) => {
      res.json(await priceList().view());
    });
    app.put(`${base}/fees`, requireAdmin, async (req, res) => {
      const body = parseOr400(feeScheduleSchema, req.body ?? {});
      res.status(201).json(await priceList().scheduleFees(body, req.identity!));
    });
    app.post(`${base}/tyres`, requireAdmin, async (req, res) => {
      const body = parseOr400(tyreCreateSchema, req.body ?? {});
      res.status(201).json(await priceList().createTyre(body, req.identity!));
    });
    app.put(`${base}/tyres/:id`, requireAdmin, async (req, res) => {
      const id = uuidOr404(req.params.id, PRICE_MSG.tyreNotFound);
      const body = parseOr400(tyreChangeSchema, req.body ?? {});
      res.json(await priceList().changeTyre(id, body, req.identity!));
    });
    app.delete(`${base}/changes/:id`, requireAdmin, async (req, res) => {
      const id = uuidOr404(req.params.id, PRICE_MSG.changeNotFound);
      const { reason } = parseOr400(cancelChangeSchema, req.body ?? {});
      await priceList().cancelChange(id, reason, req.identity!);
      res.status(204).end();
    });
    app.get(`${base}/audit`, requireAdmin, async (_req, res) => {
      res.json(await priceList().audit());
    });
  };
}
