/**
 * Issue 19 audit: technicians created before booking kept a roster reach it after the upgrade, pulled rather than
 * pushed. Booking learns technicians from the gateway's user events, but an event published before booking's queue
 * is bound to it is dropped by the exchange, and with one team per service the gateway's deploy may come days
 * before booking's. So booking asks the gateway (GET /internal/technicians) itself, until it has applied one
 * snapshot; booking.roster_sync records that, in the same transaction.
 *
 * Each technician is applied with the rule of the user events (db/calendar.ts applyTechnicianFact): the fact's time
 * is when the gateway's user row last changed, and an older fact never overwrites a newer one, so a user event
 * that came after the snapshot was read is kept whatever the order they arrive in. A technician already on the
 * roster keeps their weekdays; a new one works Monday to Friday (the column's default, as from an event).
 */
import type { PgExecutor } from '@tyres/events';
import { applyTechnicianFact, markRosterSynced, rosterSynced } from '../db/calendar';

/** One technician as the gateway states it (GET /internal/technicians); changedAt: when its user row last changed. */
export interface TechnicianFact {
  userId: string;
  username: string;
  isActive: boolean;
  changedAt: string;
}

/**
 * The gateway could not give the technicians: `reason` says why, for the warning. `absent` when the gateway answers
 * 404 (a gateway older than the route, deployed by its team on its own schedule): retried like any other failure.
 */
export class GatewayUnavailableError extends Error {
  constructor(
    readonly reason: string,
    readonly absent = false,
  ) {
    super(`the gateway's technicians are unavailable: ${reason}`);
    this.name = 'GatewayUnavailableError';
  }
}

export interface GatewayClient {
  /** The gateway's active technicians (GET /internal/technicians). Throws GatewayUnavailableError, never else. */
  technicians(): Promise<TechnicianFact[]>;
}

export type RosterSyncOutcome =
  { kind: 'already' } | { kind: 'synced'; technicians: number; recorded: boolean };

export class RosterSync {
  constructor(
    private readonly deps: {
      sql: PgExecutor;
      gateway: GatewayClient;
      clock: () => Date;
      /** A roster change may change any date's capacity (the slot cache). */
      onRosterChanged: () => void;
    },
  ) {}

  /** Whether the pull has been applied (by this replica or another). */
  synced(): Promise<boolean> {
    return rosterSynced(this.deps.sql);
  }

  /** One attempt. Throws GatewayUnavailableError when the gateway cannot answer, a database error when booking can't. */
  async runOnce(): Promise<RosterSyncOutcome> {
    if (await this.synced()) return { kind: 'already' };
    const technicians = await this.deps.gateway.technicians();
    const recorded = await this.deps.sql.$transaction(async (tx) => {
      for (const t of technicians)
        await applyTechnicianFact(tx, {
          userId: t.userId,
          username: t.username,
          isActive: t.isActive,
          at: new Date(t.changedAt),
        });
      return markRosterSynced(tx, technicians.length, this.deps.clock());
    });
    this.deps.onRosterChanged();
    return { kind: 'synced', technicians: technicians.length, recorded };
  }
}
