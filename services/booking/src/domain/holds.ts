/**
 * The cap on open payment holds per client (issue 14 item 5): a prepaid quote holds its slot for 30 minutes, so one
 * client starting quote after quote could hold a whole day without paying. At the cap a new quote is refused until
 * one of the client's holds is paid or runs out.
 */

export interface HoldCapInput {
  /** The client's quotes still holding a slot. */
  open: number;
  /** When the oldest of them runs out. */
  firstExpiresAt: Date | undefined;
  max: number;
  now: Date;
}

/** Undefined while the client is under the cap; otherwise the seconds until its oldest hold runs out (at least 1). */
export function holdCapRetryAfter({ open, firstExpiresAt, max, now }: HoldCapInput): number | undefined {
  if (open < max) return undefined;
  const ms = (firstExpiresAt?.getTime() ?? now.getTime()) - now.getTime();
  return Math.max(1, Math.ceil(ms / 1000));
}
