import { Router } from 'express';
import { parseOr400, requireAdmin } from '@tyres/service-kit';
import { REFUND_NOT_FOUND, type Refunds } from '../app/refunds';
import { idParam } from './params';
import { listRefundsQuery } from './schemas';
import { refundDto } from './serialize';

/** /api/dashboard/refunds: refunds of cancelled prepaid bookings and the retry of a failed one (admin only). */
export function refundRoutes(refunds: Refunds): Router {
  const r = Router();
  r.use(requireAdmin);

  r.get('/', async (req, res) => {
    const q = parseOr400(listRefundsQuery, req.query);
    const { rows, total } = await refunds.list({
      ...(q.status ? { status: q.status } : {}),
      limit: q.limit,
      offset: q.offset,
    });
    res.setHeader('X-Total-Count', String(total));
    res.json(rows.map(refundDto));
  });

  r.post('/:id/retry', async (req, res) => {
    const refund = await refunds.retry(idParam(req, 'id', REFUND_NOT_FOUND));
    res.status(202).json({ success: true, message: 'Refund retry requested', refund: refundDto(refund) });
  });

  return r;
}
