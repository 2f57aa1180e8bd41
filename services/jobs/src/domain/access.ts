/**
 * Who sees which jobs (spec section 6): a technician only ever sees jobs assigned to them; an admin sees every job.
 * Anything outside a caller's view answers like an unknown id (404), so job ids are not confirmed.
 */
export interface Staff {
  id: string;
  role: 'admin' | 'technician';
}

/** The technician a caller's reads are limited to: their own id for a technician, none for an admin. */
export function technicianScope(who: Staff): string | undefined {
  return who.role === 'technician' ? who.id : undefined;
}

/**
 * Whose jobs a list covers: `{ technicianId }` (undefined = everyone's, admins only), or undefined when the caller
 * may see none of what they asked for (a technician asking for someone else's jobs gets an empty list).
 */
export function listScope(who: Staff, requested?: string): { technicianId?: string } | undefined {
  if (who.role !== 'technician') return { technicianId: requested };
  if (requested && requested !== who.id) return undefined;
  return { technicianId: who.id };
}

/** Whether a caller may read a technician's job list: admins any, a technician only their own. */
export function mayViewTechnician(who: Staff, technicianId: string): boolean {
  return who.role !== 'technician' || technicianId === who.id;
}
