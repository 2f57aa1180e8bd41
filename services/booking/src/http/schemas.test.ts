import { blockSlotSchema, moveReservationSchema } from './schemas';

describe('booking route schemas', () => {
  it('reschedule: bad dates and slots are "Invalid date or time slot selected"', () => {
    expect(moveReservationSchema.parse({ scheduledDate: '2030-06-04', timeSlot: '2-4 PM' })).toEqual({
      scheduledDate: '2030-06-04',
      timeSlot: '2-4 PM',
    });
    for (const body of [
      { scheduledDate: 'soon', timeSlot: '2-4 PM' },
      { scheduledDate: '2030-06-04', timeSlot: '5 PM' },
      {},
    ]) {
      expect(moveReservationSchema.safeParse(body).error?.issues[0]?.message).toBe(
        'Invalid date or time slot selected',
      );
    }
  });

  it('blocking needs a non-blank reason', () => {
    expect(blockSlotSchema.safeParse({ reason: '   ' }).error?.issues[0]?.message).toBe(
      'Please enter a reason for blocking this time slot',
    );
    expect(blockSlotSchema.safeParse({}).error?.issues[0]?.message).toBe(
      'Please enter a reason for blocking this time slot',
    );
    expect(blockSlotSchema.parse({ reason: ' Van at the mechanic ' }).reason).toBe('Van at the mechanic');
  });
});
