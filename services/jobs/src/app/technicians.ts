import type { EventOf, UserCreated, UserStatusChanged } from '@tyres/events';
import type { Identity } from '@tyres/service-kit';
import type { Tx } from '../db/client';
import type { StaffFact, StaffRepository, TechnicianView } from '../db/staff-repository';
import { technicianScope } from '../domain/access';

/** The staff directory (technicians for assignment), fed by the gateway's user events. */
export class TechnicianUseCases {
  constructor(private readonly deps: { staff: StaffRepository }) {}

  /** Active technicians; a technician sees only themselves (the same scoping rule as jobs). */
  list(who: Identity): Promise<TechnicianView[]> {
    return this.deps.staff.activeTechnicians(technicianScope(who));
  }

  async userCreated(tx: Tx, event: EventOf<typeof UserCreated>): Promise<void> {
    await this.apply(tx, event.data, event.data.createdAt, event.data.email);
  }

  /** UserStatusChanged carries no email: the stored one is kept. */
  async userStatusChanged(tx: Tx, event: EventOf<typeof UserStatusChanged>): Promise<void> {
    await this.apply(tx, event.data, event.data.changedAt);
  }

  /** An older fact never overwrites a newer one (`at` is the event's time). */
  private async apply(
    tx: Tx,
    user: Pick<StaffFact, 'userId' | 'username' | 'role' | 'isActive'>,
    at: string,
    email?: string | null,
  ): Promise<void> {
    const { userId, username, role, isActive } = user;
    await this.deps.staff.apply(tx, { userId, username, email, role, isActive, at: new Date(at) });
  }
}
