import { listScope, mayViewTechnician, technicianScope } from './access';

const admin = { id: '00000000-0000-4000-8000-00000000000a', role: 'admin' as const };
const tech = { id: '00000000-0000-4000-8000-000000000001', role: 'technician' as const };
const other = '00000000-0000-4000-8000-000000000002';

describe('who sees which jobs', () => {
  it('limits technicians to their own jobs, never admins', () => {
    expect(technicianScope(tech)).toBe(tech.id);
    expect(technicianScope(admin)).toBeUndefined();
  });

  it('scopes lists: admins any technician, a technician only themselves', () => {
    expect(listScope(admin)).toEqual({ technicianId: undefined });
    expect(listScope(admin, other)).toEqual({ technicianId: other });
    expect(listScope(tech)).toEqual({ technicianId: tech.id });
    expect(listScope(tech, tech.id)).toEqual({ technicianId: tech.id });
    expect(listScope(tech, other)).toBeUndefined();
  });

  it('lets a technician read only their own job list', () => {
    expect(mayViewTechnician(admin, other)).toBe(true);
    expect(mayViewTechnician(tech, tech.id)).toBe(true);
    expect(mayViewTechnician(tech, other)).toBe(false);
  });
});
