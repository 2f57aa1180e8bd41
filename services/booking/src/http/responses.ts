/** Answer shapes: what the routes send for bookings, tokens and photos. */
import type { Response } from 'express';
import { toMoney } from '@tyres/events';
import { dateFromDb } from '@tyres/kernel';
import type { Replay } from '../app/bookings';
import type { Booking as BookingModel } from '../db/generated/client';
import { customerOf, vehicleOf, type PhotoRow } from '../events/builders';

/** A use case's answer (201 unless told), or the stored answer of a replayed Idempotency-Key. */
export function send(res: Response, result: object | Replay, status = 201) {
  if ('replay' in result) {
    res.setHeader('Idempotent-Replayed', 'true');
    res.status(result.statusCode).json(result.body);
    return;
  }
  res.status(status).json(result);
}

/** "Booking by token" (spec section 3) plus its state. */
export function tokenView(b: BookingModel) {
  return {
    amount: toMoney(b.total),
    currency: 'AUD' as const,
    status: b.status,
    paymentStatus: b.paymentStatus,
    expiresAt: b.status === 'quoted' ? (b.expiresAt?.toISOString() ?? null) : null,
    serviceType: b.serviceType,
    customer: customerOf(b),
    job: {
      scheduledDate: dateFromDb(b.scheduledDate),
      timeSlot: b.timeSlot,
      address: b.address,
      suburb: b.suburb,
      postcode: b.postcode,
      tyreSize: b.tyreSize,
      tyreQuantity: b.tyreQuantity,
    },
    vehicle: vehicleOf(b),
  };
}

export const photoView = (p: PhotoRow) => ({
  id: p.id,
  jobId: p.jobId,
  type: p.type,
  filename: p.filename,
  originalName: p.originalName,
  mimeType: p.mimeType,
  size: p.size,
  uploadedAt: p.uploadedAt.toISOString(),
});
