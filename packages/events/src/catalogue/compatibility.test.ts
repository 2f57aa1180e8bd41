import { z } from 'zod';
import { defineContract } from '../envelope';
import { compareSchemas, type IncompatibleKind } from './compatibility';
import { payloadJsonSchema } from './json-schema';

// The rules run on what z.toJSONSchema makes of real zod contracts, so they are tested on the same.
const schemaOf = (schema: z.ZodType) =>
  payloadJsonSchema(defineContract({ type: 'test.happened.v1', name: 'TestHappened', version: 1, schema }));

const published = z.object({
  jobId: z.uuid(),
  jobNumber: z.string().min(1).max(50),
  status: z.enum(['new', 'completed']),
  notes: z.string().max(500).nullable(),
  suburb: z.string().optional(),
  quantity: z.int().min(0),
  customer: z.object({ name: z.string(), email: z.email() }),
  items: z.array(z.object({ category: z.enum(['tyre', 'labour']), total: z.string().regex(/^\d+\.\d{2}$/) })),
});
const shape = published.shape;

function kinds(current: z.ZodType): IncompatibleKind[] {
  return compareSchemas(schemaOf(published), schemaOf(current)).incompatible.map((i) => i.kind);
}

function only(current: z.ZodType) {
  const { incompatible } = compareSchemas(schemaOf(published), schemaOf(current));
  expect(incompatible).toHaveLength(1);
  return incompatible[0]!;
}

describe('compareSchemas: incompatible changes to a published version', () => {
  it('a removed required field', () => {
    const { jobNumber: _removed, ...rest } = shape;
    expect(only(z.object(rest))).toMatchObject({
      path: 'jobNumber',
      kind: 'field-removed',
      breaks: 'old consumers',
    });
  });

  it('a removed optional field (consumers rely on it when producers always send it)', () => {
    const { suburb: _removed, ...rest } = shape;
    expect(only(z.object(rest))).toMatchObject({ path: 'suburb', kind: 'field-removed' });
  });

  it('a removed nested field', () => {
    const current = published.extend({ customer: z.object({ name: z.string() }) });
    expect(only(current)).toMatchObject({ path: 'customer.email', kind: 'field-removed' });
  });

  it('a renamed field (removed + new required)', () => {
    const { jobNumber, ...rest } = shape;
    expect(kinds(z.object({ ...rest, number: jobNumber }))).toEqual([
      'field-removed',
      'required-field-added',
    ]);
  });

  it('an optional field made required', () => {
    expect(only(published.extend({ suburb: z.string() }))).toMatchObject({
      path: 'suburb',
      kind: 'optional-became-required',
      breaks: 'new consumers',
    });
  });

  it('a required field made optional', () => {
    expect(only(published.extend({ quantity: z.int().min(0).optional() }))).toMatchObject({
      path: 'quantity',
      kind: 'required-became-optional',
      breaks: 'old consumers',
    });
  });

  it('a new required field', () => {
    expect(only(published.extend({ technicianId: z.uuid() }))).toMatchObject({
      path: 'technicianId',
      kind: 'required-field-added',
      breaks: 'new consumers',
    });
  });

  it('a changed type', () => {
    expect(only(published.extend({ quantity: z.string() }))).toMatchObject({
      path: 'quantity',
      kind: 'type-changed',
    });
    expect(only(published.extend({ quantity: z.number().min(0) }))).toMatchObject({ kind: 'type-changed' });
  });

  it('an enum value added: strict (z.enum) consumers dead-letter it', () => {
    expect(only(published.extend({ status: z.enum(['new', 'completed', 'invoiced']) }))).toMatchObject({
      path: 'status',
      kind: 'enum-value-added',
      breaks: 'old consumers',
    });
  });

  it('an enum value removed: published events carrying it no longer parse', () => {
    expect(only(published.extend({ status: z.enum(['new']) }))).toMatchObject({
      kind: 'enum-value-removed',
      breaks: 'new consumers',
    });
  });

  it('an enum inside array items', () => {
    const current = published.extend({
      items: z.array(z.object({ category: z.enum(['tyre']), total: z.string().regex(/^\d+\.\d{2}$/) })),
    });
    expect(only(current)).toMatchObject({ path: 'items[].category', kind: 'enum-value-removed' });
  });

  it('nullability added or removed', () => {
    expect(only(published.extend({ notes: z.string().max(500) }))).toMatchObject({
      path: 'notes',
      kind: 'nullability-changed',
      breaks: 'new consumers',
    });
    expect(only(published.extend({ jobId: z.uuid().nullable() }))).toMatchObject({
      path: 'jobId',
      kind: 'nullability-changed',
      breaks: 'old consumers',
    });
  });

  it('narrowed and widened bounds', () => {
    expect(only(published.extend({ jobNumber: z.string().min(1).max(20) }))).toMatchObject({
      kind: 'constraint-narrowed',
      breaks: 'new consumers',
      detail: 'maxLength 50 -> 20',
    });
    expect(only(published.extend({ jobNumber: z.string().min(1).max(80) }))).toMatchObject({
      kind: 'constraint-widened',
      breaks: 'old consumers',
    });
    expect(only(published.extend({ quantity: z.int().min(1) }))).toMatchObject({
      kind: 'constraint-narrowed',
    });
    expect(only(published.extend({ notes: z.string().nullable() }))).toMatchObject({
      path: 'notes',
      kind: 'constraint-widened',
    });
  });

  it('a changed pattern or format', () => {
    const current = published.extend({
      items: z.array(z.object({ category: z.enum(['tyre', 'labour']), total: z.string().regex(/^\d+$/) })),
    });
    expect(only(current)).toMatchObject({ path: 'items[].total', kind: 'constraint-changed' });
    expect(kinds(published.extend({ jobId: z.string() }))).toContain('constraint-changed');
  });

  it('a closed object (z.strictObject) where the published one was open', () => {
    expect(only(z.strictObject(shape))).toMatchObject({ path: '(payload)', kind: 'open-closed-changed' });
  });

  it('a changed union', () => {
    // Unions of primitives become a type list (type-changed); unions of objects stay anyOf.
    const card = z.object({ method: z.literal('card'), last4: z.string() });
    const cash = z.object({ method: z.literal('cash') });
    const before = z.object({ amount: z.union([z.string(), z.number()]), payment: z.union([card, cash]) });
    const after = z.object({
      amount: z.union([z.string(), z.number(), z.boolean()]),
      payment: z.union([card, cash, z.object({ method: z.literal('voucher') })]),
    });
    expect(compareSchemas(schemaOf(before), schemaOf(after)).incompatible).toMatchObject([
      { path: 'amount', kind: 'type-changed' },
      { path: 'payment', kind: 'union-changed' },
    ]);
    const renamedMethod = z.object({
      amount: before.shape.amount,
      payment: z.union([card, z.object({ method: z.literal('eftpos') })]),
    });
    expect(compareSchemas(schemaOf(before), schemaOf(renamedMethod)).incompatible).toMatchObject([
      { path: 'payment<anyOf[1]>.method', kind: 'const-changed' },
    ]);
  });
});

describe('compareSchemas: compatible changes', () => {
  it('the same schema', () => {
    expect(compareSchemas(schemaOf(published), schemaOf(published))).toEqual({
      incompatible: [],
      compatible: [],
    });
  });

  it('a new optional field, also nested: old consumers strip it, published events lack it legitimately', () => {
    const current = published.extend({
      paymentStatus: z.enum(['pending', 'paid']).optional(),
      customer: z.object({ name: z.string(), email: z.email(), phone: z.string().optional() }),
    });
    expect(compareSchemas(schemaOf(published), schemaOf(current))).toEqual({
      incompatible: [],
      compatible: [
        { path: 'customer.phone', kind: 'optional-field-added', detail: 'new optional field' },
        { path: 'paymentStatus', kind: 'optional-field-added', detail: 'new optional field' },
      ],
    });
  });

  it('a description (documentation only)', () => {
    const current = published.extend({ suburb: z.string().optional().describe('Where the job is') });
    const { incompatible, compatible } = compareSchemas(schemaOf(published), schemaOf(current));
    expect(incompatible).toEqual([]);
    expect(compatible).toEqual([
      { path: 'suburb', kind: 'annotation-changed', detail: 'description changed' },
    ]);
  });

  it('fields reordered', () => {
    const { jobId, ...rest } = shape;
    expect(compareSchemas(schemaOf(published), schemaOf(z.object({ ...rest, jobId }))).incompatible).toEqual(
      [],
    );
  });
});
