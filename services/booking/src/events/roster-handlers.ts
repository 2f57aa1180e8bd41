/**
 * Issue 19: booking learns the technicians it can roster from the gateway's user events. A technician is active on
 * the roster while the user is active with the technician role; anyone else is not rostered (a user whose role
 * changed away from technician stays listed, inactive). Inbox names `booking.roster…`: never rename them.
 */
import type { EventOf, Inbox, UserCreatedV1, UserStatusChangedV1 } from '@tyres/events';
import type { Tx } from '../db/client';
import { applyTechnicianFact, deactivateTechnician } from '../db/calendar';

export function rosterHandlers(deps: { inbox: Inbox<Tx> }) {
  const apply = async (
    tx: Tx,
    d: { userId: string; username: string; role: string; isActive: boolean },
    at: string,
  ) => {
    if (d.role === 'technician')
      await applyTechnicianFact(tx, {
        userId: d.userId,
        username: d.username,
        isActive: d.isActive,
        at: new Date(at),
      });
    else await deactivateTechnician(tx, d.userId, new Date(at));
  };
  const onUserCreated = deps.inbox.handler<EventOf<typeof UserCreatedV1>>(
    'booking.rosterOnUserCreated',
    async (tx, event) => apply(tx, event.data, event.data.createdAt),
  );
  const onUserStatusChanged = deps.inbox.handler<EventOf<typeof UserStatusChangedV1>>(
    'booking.rosterOnUserStatusChanged',
    async (tx, event) => apply(tx, event.data, event.data.changedAt),
  );
  return { onUserCreated, onUserStatusChanged };
}

export type RosterHandlers = ReturnType<typeof rosterHandlers>;
