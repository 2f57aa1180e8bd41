import type { z } from 'zod';

/**
 * Where a schema runs code JSON Schema cannot describe: `.refine()` / `.superRefine()` (a custom check),
 * `.transform()`, `z.preprocess()`, `.pipe()`, `.trim()`-style overwrites, `.catch()` and `z.coerce`. Each narrows
 * or changes what a consumer's parse accepts while `z.toJSONSchema` shows the same schema, so the snapshot records
 * where they are (not what they do: a function's source is not stable across builds) and the check fails when one
 * appears or disappears in a published version.
 */
export type RefinementKind =
  'refine' | 'overwrite' | 'transform' | 'preprocess' | 'pipe' | 'catch' | 'coerce';

export interface Refinement {
  /** Same notation as the compatibility report: `items[].total`, `payment<anyOf[1]>`, "(payload)" for the root. */
  path: string;
  kind: RefinementKind;
}

/** The zod 4 internals this walk reads (`schema._zod.def`); kept loose because they are not a public API. */
interface Def {
  type: string;
  checks?: { _zod: { def: { check: string } } }[];
  coerce?: boolean;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  catchall?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Every refinement and transform in `schema`, sorted, so two fingerprints compare as lists. */
export function refinementsOf(schema: z.ZodType, root = '(payload)'): Refinement[] {
  const out: Refinement[] = [];
  walk(schema, '', out, new Set());
  return out.map((r) => (r.path ? r : { ...r, path: root })).sort((a, b) => key(a).localeCompare(key(b)));
}

export const key = (r: Refinement) => `${r.path} ${r.kind}`;

function walk(schema: z.ZodType, path: string, out: Refinement[], seen: Set<z.ZodType>): void {
  if (seen.has(schema)) return; // z.lazy recursion
  seen.add(schema);
  const def = defOf(schema);
  const at = (kind: RefinementKind) => out.push({ path, kind });
  for (const check of def.checks ?? []) {
    const kind = check._zod.def.check;
    if (kind === 'custom') at('refine');
    else if (kind === 'overwrite') at('overwrite');
  }
  if (def.coerce) at('coerce');
  const child = (s: z.ZodType | null | undefined, p = path) => s && walk(s, p, out, seen);
  switch (def.type) {
    case 'transform':
      at('transform');
      return;
    case 'pipe': {
      // `.transform(f)` is pipe(schema, transform); `z.preprocess(f, schema)` is pipe(transform, schema).
      const inType = def.in ? defOf(def.in).type : '';
      const outType = def.out ? defOf(def.out).type : '';
      if (outType === 'transform') at('transform');
      else if (inType === 'transform') at('preprocess');
      else at('pipe');
      if (inType !== 'transform') child(def.in);
      if (outType !== 'transform') child(def.out);
      return;
    }
    case 'catch':
      at('catch');
      child(def.innerType);
      return;
    case 'object':
      for (const [name, field] of Object.entries(def.shape ?? {}))
        child(field, path ? `${path}.${name}` : name);
      child(def.catchall, `${path}{*}`);
      return;
    case 'array':
    case 'set':
      child(def.element ?? def.valueType, `${path}[]`);
      return;
    case 'record':
    case 'map':
      child(def.keyType, `${path}{key}`);
      child(def.valueType, `${path}{*}`);
      return;
    case 'tuple':
      (def.items ?? []).forEach((item, i) => child(item, `${path}[${i}]`));
      child(def.rest, `${path}[...]`);
      return;
    case 'union':
      (def.options ?? []).forEach((option, i) => child(option, `${path}<anyOf[${i}]>`));
      return;
    case 'intersection':
      child(def.left, `${path}<allOf[0]>`);
      child(def.right, `${path}<allOf[1]>`);
      return;
    case 'lazy':
      if (def.getter) child(def.getter());
      return;
    default:
      // optional, nullable, default, prefault, nonoptional, readonly, promise: the same value, wrapped.
      child(def.innerType);
  }
}
