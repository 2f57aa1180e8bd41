import {
  assignmentChange,
  completion,
  jobEdit,
  reschedule,
  statusChange,
  type ProjectedJob,
} from './job-projection';

const t = (iso: string) => new Date(`2026-11-24T${iso}:00.000Z`);
const job = (over: Partial<ProjectedJob> = {}): ProjectedJob => ({
  status: 'new',
  statusAt: null,
  assignmentAt: null,
  completedAt: null,
  ...over,
});

describe('job projection: an older event never overwrites a newer one', () => {
  it('applies a status change and its assignment, completion time set once', () => {
    const done = statusChange(job(), { to: 'completed', at: t('10:00'), assignedTechnicianId: 'tech-1' });
    expect(done.applied).toEqual({ from: 'new', to: 'completed' });
    expect(done.change).toEqual({
      status: 'completed',
      statusAt: t('10:00'),
      completedAt: t('10:00'),
      assignedTechnicianId: 'tech-1',
      assignmentAt: t('10:00'),
    });
    const again = statusChange(job({ status: 'completed', statusAt: t('10:00'), completedAt: t('10:00') }), {
      to: 'completed',
      at: t('11:00'),
      assignedTechnicianId: 'tech-1',
    });
    expect(again.change.completedAt).toBeUndefined();
  });

  it('ignores an older status but still takes a newer assignment', () => {
    const result = statusChange(job({ status: 'paid', statusAt: t('12:00'), assignmentAt: t('08:00') }), {
      to: 'in-progress',
      at: t('09:00'),
      assignedTechnicianId: 'tech-2',
    });
    expect(result.applied).toBeUndefined();
    expect(result.change).toEqual({ assignedTechnicianId: 'tech-2', assignmentAt: t('09:00') });
  });

  it('completion always records the time; status and assignment only when newer', () => {
    expect(
      completion(job({ statusAt: t('12:00'), assignmentAt: t('12:00') }), {
        at: t('10:00'),
        assignedTechnicianId: 'x',
      }),
    ).toEqual({ completedAt: t('10:00') });
    expect(completion(job(), { at: t('10:00'), assignedTechnicianId: null })).toEqual({
      completedAt: t('10:00'),
      status: 'completed',
      statusAt: t('10:00'),
      assignedTechnicianId: null,
      assignmentAt: t('10:00'),
    });
  });

  it('assignment and reschedule', () => {
    expect(
      assignmentChange(job({ assignmentAt: t('12:00') }), { at: t('11:00'), technicianId: 'a' }),
    ).toEqual({});
    expect(
      assignmentChange(job({ assignmentAt: t('12:00') }), { at: t('12:00'), technicianId: 'a' }),
    ).toEqual({
      assignedTechnicianId: 'a',
      assignmentAt: t('12:00'),
    });
    expect(
      reschedule(job({ assignmentAt: t('12:00') }), {
        at: t('11:00'),
        scheduledDate: '2026-12-01',
        timeSlot: '2-4 PM',
        assignedTechnicianId: 'b',
      }),
    ).toEqual({ scheduledDate: '2026-12-01', timeSlot: '2-4 PM' });
  });
});

describe('jobEdit (issue 19)', () => {
  const base = { status: 'completed', statusAt: null, assignmentAt: null, completedAt: null };
  const edit = {
    version: 2,
    customerValue: '189.50',
    address: '2 Hay St',
    suburb: 'Perth',
    postcode: '6000',
    notes: null,
    tyreSize: null,
    tyreQuantity: null,
    tyreBrand: null,
    vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, registration: '1ABC234' },
  };

  it('applies a newer version with every edited value', () => {
    expect(jobEdit({ ...base, editVersion: 1 }, edit)).toMatchObject({
      editVersion: 2,
      customerValue: '189.50',
      address: '2 Hay St',
      vehicleColor: null,
      vehicleRegistration: '1ABC234',
    });
  });

  it('ignores a version already applied or older (late delivery)', () => {
    expect(jobEdit({ ...base, editVersion: 2 }, edit)).toEqual({});
    expect(jobEdit({ ...base, editVersion: 3 }, edit)).toEqual({});
  });
});
