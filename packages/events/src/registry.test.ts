import { randomUUID } from 'node:crypto';
import { EventParseError, parseEvent, parseEnvelope, createRegistry } from './registry';
import { BookingCreated, UserCreated } from './contracts';
import { sampleEvent } from '../test/fixtures';

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof EventParseError) return err.reason;
    throw err;
  }
  return undefined;
}

describe('parseEvent', () => {
  const event = sampleEvent(BookingCreated);

  it('accepts an object, a JSON string or a Buffer and returns the typed event', () => {
    for (const raw of [event, JSON.stringify(event), Buffer.from(JSON.stringify(event))]) {
      const parsed = parseEvent(raw);
      expect(parsed).toEqual(event);
      if (parsed.type === 'booking.created.v1') expect(parsed.data.jobNumber).toBe('JOB-1001');
    }
  });

  it('strips unknown payload fields (additive changes are compatible)', () => {
    const parsed = parseEvent({ ...event, data: { ...event.data, extra: 1 } });
    expect(parsed.data).not.toHaveProperty('extra');
  });

  it('rejects malformed JSON', () => {
    expect(reasonOf(() => parseEvent(Buffer.from('{"id":')))).toBe('malformed-json');
    expect(reasonOf(() => parseEvent('not json'))).toBe('malformed-json');
  });

  it('rejects an invalid envelope', () => {
    expect(reasonOf(() => parseEvent({ ...event, id: 'abc' }))).toBe('invalid-envelope');
    expect(reasonOf(() => parseEvent({ ...event, correlationId: undefined }))).toBe('invalid-envelope');
    expect(reasonOf(() => parseEvent(null))).toBe('invalid-envelope');
    expect(reasonOf(() => parseEvent([]))).toBe('invalid-envelope');
  });

  it('rejects an unknown type', () => {
    expect(reasonOf(() => parseEvent({ ...event, type: 'booking.teleported.v1' }))).toBe('unknown-type');
  });

  it('rejects an unknown version of a known event', () => {
    const err = (() => {
      try {
        parseEvent({ ...event, id: randomUUID(), type: 'booking.created.v2', version: 2 });
      } catch (e) {
        return e as EventParseError;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(EventParseError);
    expect(err?.reason).toBe('unknown-version');
    expect(err?.details.type).toBe('booking.created.v2');
  });

  it('rejects data that does not match the contract', () => {
    const bad = { ...event, data: { ...event.data, customerValue: 12.5 } };
    const err = (() => {
      try {
        parseEvent(bad);
      } catch (e) {
        return e as EventParseError;
      }
      return undefined;
    })();
    expect(err?.reason).toBe('invalid-data');
    expect(err?.message).toMatch(/customerValue/);
    expect(err?.details.eventId).toBe(event.id);
  });

  it('a custom registry limits what is accepted', () => {
    const registry = createRegistry([UserCreated]);
    expect(reasonOf(() => parseEnvelope(event, registry))).toBe('unknown-type');
    expect(() => createRegistry([UserCreated, UserCreated])).toThrow(/Duplicate/);
  });
});
