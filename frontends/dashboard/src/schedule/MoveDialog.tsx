import { useState } from 'react';
import { Form, Modal, Select } from 'antd';
import { addDays, isTimeSlot, type TimeSlot } from '@tyres/kernel';
import type { Job, Technician } from '../api/types';
import { perthToday } from '../lib/dates';
import { useSlotAvailability } from '../api/schedule';
import { dayLabel, SLOTS, technicianChoices, UNASSIGNED_LANE, type MoveTarget } from './model';

/** How far ahead the dialog offers dates (booking refuses beyond its own horizon, with its message). */
export const MOVE_DAYS_AHEAD = 60;

/**
 * The keyboard way to do what dragging does (WCAG 2.1.1): choose a date, a slot and a technician, then Move.
 * The same checks apply (the server's), and a refusal is toasted the same way.
 */
export function MoveDialog(props: {
  job: Job | null;
  technicians: Technician[];
  onCancel: () => void;
  onMove: (job: Job, to: MoveTarget) => void;
}) {
  return props.job ? <MoveForm key={props.job.id} {...props} job={props.job} /> : null;
}

function MoveForm({
  job,
  technicians,
  onCancel,
  onMove,
}: {
  job: Job;
  technicians: Technician[];
  onCancel: () => void;
  onMove: (job: Job, to: MoveTarget) => void;
}) {
  const [date, setDate] = useState(job.scheduledDate);
  const [slot, setSlot] = useState<TimeSlot>(isTimeSlot(job.timeSlot) ? job.timeSlot : '8-10 AM');
  const [tech, setTech] = useState(job.assignedTechnicianId ?? UNASSIGNED_LANE);

  const today = perthToday();
  const dates = Array.from({ length: MOVE_DAYS_AHEAD + 1 }, (_, i) => addDays(today, i));
  if (!dates.includes(job.scheduledDate)) dates.unshift(job.scheduledDate);
  // Who is free at the chosen date and slot (booking): the suggestion first, those not free marked.
  const availability = useSlotAvailability(job, date, slot);
  const techOptions = technicianChoices(UNASSIGNED_LANE, technicians, availability.data);
  if (job.assignedTechnicianId && !technicians.some((t) => t.id === job.assignedTechnicianId))
    techOptions.push({
      value: job.assignedTechnicianId,
      label: job.assignedTechnician?.username ?? 'Inactive technician',
    });

  return (
    <Modal
      open
      title={`Move job ${job.jobNumber}`}
      okText="Move"
      onCancel={onCancel}
      onOk={() => onMove(job, { date, slot, technicianId: tech === UNASSIGNED_LANE ? null : tech })}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label="Date" htmlFor="sched-move-date">
          <Select
            id="sched-move-date"
            value={date}
            onChange={setDate}
            options={dates.map((d) => ({
              value: d,
              label: `${dayLabel(d)}${d === today ? ' (today)' : ''}`,
            }))}
          />
        </Form.Item>
        <Form.Item label="Time slot" htmlFor="sched-move-slot">
          <Select
            id="sched-move-slot"
            value={slot}
            onChange={setSlot}
            options={SLOTS.map((s) => ({ value: s, label: s }))}
          />
        </Form.Item>
        <Form.Item label="Technician" htmlFor="sched-move-tech">
          <Select
            id="sched-move-tech"
            value={tech}
            onChange={setTech}
            options={techOptions}
            loading={availability.isLoading}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
