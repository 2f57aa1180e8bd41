import { z } from 'zod';
import { contractList } from '../contracts';
import { refinementsOf } from './refinements';

describe('refinementsOf: where a schema runs code JSON Schema cannot show', () => {
  it('finds nothing in a plain schema (formats, bounds and enums are JSON Schema)', () => {
    const plain = z.object({
      id: z.uuid(),
      total: z.string().regex(/^\d+\.\d{2}$/),
      status: z.enum(['new', 'paid']).nullable().optional(),
      items: z.array(z.object({ quantity: z.int().min(1) })),
      changedFields: z.array(z.string()).default([]),
    });
    expect(refinementsOf(plain)).toEqual([]);
  });

  it('finds refinements, transforms and overwrites with their path', () => {
    const schema = z
      .object({
        note: z.string().trim(),
        items: z.array(z.object({ total: z.string().refine((s) => s !== '0.00') })),
        code: z.string().transform((s) => s.toUpperCase()),
        payment: z.union([
          z.object({ method: z.literal('card'), last4: z.string().superRefine(() => undefined) }),
          z.object({ method: z.literal('cash') }),
        ]),
      })
      .superRefine(() => undefined);
    expect(refinementsOf(schema)).toEqual([
      { path: '(payload)', kind: 'refine' },
      { path: 'code', kind: 'transform' },
      { path: 'items[].total', kind: 'refine' },
      { path: 'note', kind: 'overwrite' },
      { path: 'payment<anyOf[0]>.last4', kind: 'refine' },
    ]);
  });

  it('finds preprocess, pipe, catch and coercion, also inside optional and record values', () => {
    const schema = z.object({
      a: z.preprocess((v) => v, z.string()).optional(),
      b: z.string().pipe(z.email()),
      c: z.number().catch(0),
      d: z.record(z.string(), z.coerce.number()),
    });
    expect(refinementsOf(schema)).toEqual([
      { path: 'a', kind: 'preprocess' },
      { path: 'b', kind: 'pipe' },
      { path: 'c', kind: 'catch' },
      { path: 'd{*}', kind: 'coerce' },
    ]);
  });

  it('survives a recursive schema', () => {
    type Part = { name: string; parts: Part[] };
    const part: z.ZodType<Part> = z.lazy(() =>
      z.object({ name: z.string().refine((s) => s.length > 0), parts: z.array(part) }),
    );
    expect(refinementsOf(part)).toEqual([{ path: 'name', kind: 'refine' }]);
  });

  it('walks every registered contract', () => {
    for (const contract of contractList) expect(() => refinementsOf(contract.schema)).not.toThrow();
  });
});
