import type { Request, Response } from 'express';
import { notFound } from '@tyres/service-kit';
import type { Replied } from '../app/transactions';
import { isUuid } from './fields';

/** A path id that is not a UUID cannot name anything: 404 with the resource's message. */
export function idParam(req: Request, name: string, message: string): string {
  const value = req.params[name];
  if (!isUuid(value)) throw notFound(message);
  return value.toLowerCase();
}

export function identityOf(req: Request) {
  if (!req.identity) throw new Error('identity missing: requireStaff must run first');
  return req.identity;
}

/** Sends a use case's answer; a replayed one says so (`Idempotent-Replayed: true`). */
export function sendReplied(res: Response, replied: Replied): void {
  if (replied.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.status(replied.statusCode).json(replied.body);
}
