import type { JsonSchema } from './json-schema';

/**
 * Compatibility of a published event contract version with its current schema.
 *
 * A published version has readers on both sides of a change, so both directions count:
 * - old consumers (still on the published schema) parse messages a new producer writes;
 * - new consumers parse events written under the published schema: messages in flight, in retry and dead-letter
 *   queues (replayed), and the events reporting stores and folds again on a rebuild.
 * Every consumer parses with zod (`parseEnvelope`): unknown keys are stripped, everything else is validated
 * strictly. So the set of accepted payloads must stay the same, with one exception: a new optional field (old
 * consumers strip it, events without it stay valid). Everything else is a new version (`<event>.v<N+1>.ts`).
 *
 * Enums: adding a value breaks old consumers (z.enum rejects the unknown value and the message is dead-lettered);
 * removing one breaks new consumers reading published events. Both are incompatible. The same holds for bounds,
 * patterns and formats: widened breaks old consumers, narrowed breaks new ones.
 *
 * Defaults: adding, removing or changing a `.default()` is incompatible. Parsing still succeeds, but an event
 * without the field now reads as another value (or as missing) to new consumers, so a fold over published events
 * gives a different answer. What JSON Schema cannot show (refinements, transforms) is checked beside this, in
 * snapshots.ts: a recorded example must still parse, and refinements may not appear or disappear.
 */
export type IncompatibleKind =
  | 'field-removed'
  | 'required-field-added'
  | 'optional-became-required'
  | 'required-became-optional'
  | 'type-changed'
  | 'nullability-changed'
  | 'enum-value-added'
  | 'enum-value-removed'
  | 'const-changed'
  | 'constraint-narrowed'
  | 'constraint-widened'
  | 'constraint-changed'
  | 'open-closed-changed'
  | 'union-changed'
  | 'keyword-changed'
  | 'default-changed'
  | 'refinement-added'
  | 'refinement-removed'
  | 'example-rejected';

export type CompatibleKind = 'optional-field-added' | 'annotation-changed';

/** Who stops parsing: consumers on the published schema, consumers on the current one, or both. */
export type Breaks = 'old consumers' | 'new consumers' | 'old and new consumers';

export interface Incompatibility {
  /** Where in the payload, e.g. `items[].category` ("(payload)" for the root). */
  path: string;
  kind: IncompatibleKind;
  breaks: Breaks;
  detail: string;
}

export interface CompatibleChange {
  path: string;
  kind: CompatibleKind;
  detail: string;
}

export interface Comparison {
  incompatible: Incompatibility[];
  compatible: CompatibleChange[];
}

/** Keywords that document a schema without changing what it accepts. */
const ANNOTATIONS = new Set(['title', 'description', 'examples', '$comment', 'deprecated', 'readOnly']);
/** Lower bounds: raising one narrows. */
const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'] as const;
/** Upper bounds: lowering one (or adding one) narrows. */
const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'] as const;
/** Any change to these changes the accepted set in a way neither side can rely on. */
const EXACT = ['pattern', 'format', 'multipleOf', 'uniqueItems'] as const;
/** Compared structurally below; everything else falls to the generic "keyword-changed". */
const STRUCTURAL = new Set([
  'type',
  'anyOf',
  'oneOf',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  ...LOWER_BOUNDS,
  ...UPPER_BOUNDS,
  ...EXACT,
]);

/** Compares the schema a version was published with (its snapshot) against the one the code declares now. */
export function compareSchemas(published: JsonSchema, current: JsonSchema): Comparison {
  const out: Comparison = { incompatible: [], compatible: [] };
  compareNode(published, current, '', out);
  return out;
}

interface Normalized {
  schema: JsonSchema;
  nullable: boolean;
}

const isNullSchema = (s: unknown): boolean =>
  !!s && typeof s === 'object' && (s as JsonSchema).type === 'null' && Object.keys(s).length === 1;

/** `anyOf: [X, {type: null}]` (zod's `.nullable()`) and `type: [..., 'null']` become X plus a nullable flag. */
function normalize(schema: JsonSchema): Normalized {
  const variants = schema.anyOf;
  if (Array.isArray(variants) && variants.some(isNullSchema)) {
    const rest = variants.filter((v) => !isNullSchema(v)) as JsonSchema[];
    const { anyOf: _anyOf, ...outer } = schema;
    const schemaWithoutNull = rest.length === 1 ? { ...outer, ...rest[0] } : { ...outer, anyOf: rest };
    return { schema: schemaWithoutNull, nullable: true };
  }
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((t) => t !== 'null');
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { schema, nullable: false };
}

const label = (path: string) => path || '(payload)';
const show = (value: unknown) => (value === undefined ? 'none' : JSON.stringify(value));
const typesOf = (schema: JsonSchema): string[] =>
  schema.type === undefined ? [] : ([] as unknown[]).concat(schema.type).map(String).sort();

function compareNode(publishedRaw: JsonSchema, currentRaw: JsonSchema, path: string, out: Comparison): void {
  const bad = (kind: IncompatibleKind, breaks: Breaks, detail: string) =>
    out.incompatible.push({ path: label(path), kind, breaks, detail });
  const published = normalize(publishedRaw);
  const current = normalize(currentRaw);
  const p = published.schema;
  const c = current.schema;

  if (published.nullable !== current.nullable) {
    bad(
      'nullability-changed',
      current.nullable ? 'old consumers' : 'new consumers',
      current.nullable ? 'may now be null' : 'was nullable, null is now refused',
    );
  }

  const pTypes = typesOf(p);
  const cTypes = typesOf(c);
  if (pTypes.join() !== cTypes.join()) {
    // A different type makes the rest of the comparison noise.
    bad(
      'type-changed',
      'old and new consumers',
      `type ${pTypes.join('|') || 'any'} -> ${cTypes.join('|') || 'any'}`,
    );
    return;
  }

  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const pv = p[keyword] as JsonSchema[] | undefined;
    const cv = c[keyword] as JsonSchema[] | undefined;
    if (pv === undefined && cv === undefined) continue;
    if (!pv || !cv || pv.length !== cv.length) {
      bad(
        'union-changed',
        'old and new consumers',
        `${keyword} with ${pv?.length ?? 0} -> ${cv?.length ?? 0} variants`,
      );
      continue;
    }
    pv.forEach((variant, i) => compareNode(variant, cv[i] as JsonSchema, `${path}<${keyword}[${i}]>`, out));
  }

  compareEnum(p, c, bad);
  if (JSON.stringify(p.const) !== JSON.stringify(c.const)) {
    bad('const-changed', 'old and new consumers', `const ${show(p.const)} -> ${show(c.const)}`);
  }
  compareConstraints(p, c, bad);
  compareObject(p, c, path, out, bad);

  if (p.items !== undefined || c.items !== undefined) {
    if (Array.isArray(p.items) || Array.isArray(c.items) || !p.items || !c.items) {
      if (JSON.stringify(p.items) !== JSON.stringify(c.items)) {
        bad('keyword-changed', 'old and new consumers', `items ${show(p.items)} -> ${show(c.items)}`);
      }
    } else {
      compareNode(p.items as JsonSchema, c.items as JsonSchema, `${path}[]`, out);
    }
  }

  for (const keyword of new Set([...Object.keys(p), ...Object.keys(c)])) {
    if (STRUCTURAL.has(keyword)) continue;
    if (JSON.stringify(p[keyword]) === JSON.stringify(c[keyword])) continue;
    if (keyword === 'default') {
      bad(
        'default-changed',
        'new consumers',
        `default ${show(p.default)} -> ${show(c.default)}: events without the field read differently`,
      );
    } else if (ANNOTATIONS.has(keyword)) {
      out.compatible.push({ path: label(path), kind: 'annotation-changed', detail: `${keyword} changed` });
    } else {
      bad(
        'keyword-changed',
        'old and new consumers',
        `${keyword} ${show(p[keyword])} -> ${show(c[keyword])}`,
      );
    }
  }
}

type Report = (kind: IncompatibleKind, breaks: Breaks, detail: string) => void;

function compareEnum(p: JsonSchema, c: JsonSchema, bad: Report): void {
  if (p.enum === undefined && c.enum === undefined) return;
  if (!Array.isArray(p.enum) || !Array.isArray(c.enum)) {
    bad(
      c.enum === undefined ? 'constraint-widened' : 'constraint-narrowed',
      c.enum === undefined ? 'old consumers' : 'new consumers',
      `enum ${show(p.enum)} -> ${show(c.enum)}`,
    );
    return;
  }
  const before = new Set(p.enum.map((v) => JSON.stringify(v)));
  const after = new Set(c.enum.map((v) => JSON.stringify(v)));
  const added = [...after].filter((v) => !before.has(v));
  const removed = [...before].filter((v) => !after.has(v));
  if (added.length) bad('enum-value-added', 'old consumers', `enum value(s) added: ${added.join(', ')}`);
  if (removed.length)
    bad('enum-value-removed', 'new consumers', `enum value(s) removed: ${removed.join(', ')}`);
}

function compareConstraints(p: JsonSchema, c: JsonSchema, bad: Report): void {
  for (const keyword of LOWER_BOUNDS) {
    const before = p[keyword] as number | undefined;
    const after = c[keyword] as number | undefined;
    if (before === after) continue;
    const narrowed = after !== undefined && (before === undefined || after > before);
    bad(
      narrowed ? 'constraint-narrowed' : 'constraint-widened',
      narrowed ? 'new consumers' : 'old consumers',
      `${keyword} ${show(before)} -> ${show(after)}`,
    );
  }
  for (const keyword of UPPER_BOUNDS) {
    const before = p[keyword] as number | undefined;
    const after = c[keyword] as number | undefined;
    if (before === after) continue;
    const narrowed = after !== undefined && (before === undefined || after < before);
    bad(
      narrowed ? 'constraint-narrowed' : 'constraint-widened',
      narrowed ? 'new consumers' : 'old consumers',
      `${keyword} ${show(before)} -> ${show(after)}`,
    );
  }
  for (const keyword of EXACT) {
    if (JSON.stringify(p[keyword]) === JSON.stringify(c[keyword])) continue;
    bad(
      'constraint-changed',
      'old and new consumers',
      `${keyword} ${show(p[keyword])} -> ${show(c[keyword])}`,
    );
  }
}

function compareObject(p: JsonSchema, c: JsonSchema, path: string, out: Comparison, bad: Report): void {
  const pProps = (p.properties ?? {}) as Record<string, JsonSchema>;
  const cProps = (c.properties ?? {}) as Record<string, JsonSchema>;
  const pRequired = new Set((p.required ?? []) as string[]);
  const cRequired = new Set((c.required ?? []) as string[]);
  const at = (key: string) => (path ? `${path}.${key}` : key);

  for (const [key, before] of Object.entries(pProps)) {
    const field = at(key);
    const after = cProps[key];
    if (!after) {
      // Also when it was optional: producers that always send it let consumers rely on it (JobStatusChanged's
      // customer), and a later field of the same name could come back with another type.
      out.incompatible.push({
        path: field,
        kind: 'field-removed',
        breaks: 'old consumers',
        detail: `${pRequired.has(key) ? 'required' : 'optional'} field removed`,
      });
      continue;
    }
    if (pRequired.has(key) && !cRequired.has(key)) {
      out.incompatible.push({
        path: field,
        kind: 'required-became-optional',
        breaks: 'old consumers',
        detail: 'was required, may now be missing',
      });
    }
    if (!pRequired.has(key) && cRequired.has(key)) {
      out.incompatible.push({
        path: field,
        kind: 'optional-became-required',
        breaks: 'new consumers',
        detail: 'was optional, published events without it are refused',
      });
    }
    compareNode(before, after, field, out);
  }
  for (const key of Object.keys(cProps)) {
    if (key in pProps) continue;
    if (cRequired.has(key)) {
      out.incompatible.push({
        path: at(key),
        kind: 'required-field-added',
        breaks: 'new consumers',
        detail: 'new required field: published events without it are refused',
      });
    } else {
      out.compatible.push({ path: at(key), kind: 'optional-field-added', detail: 'new optional field' });
    }
  }
  // Required names without a property schema (not something zod emits, but a plain list change is still one).
  for (const key of pRequired) {
    if (!(key in pProps) && !cRequired.has(key))
      bad('required-became-optional', 'old consumers', `${key} no longer required`);
  }
  for (const key of cRequired) {
    if (!(key in cProps) && !pRequired.has(key))
      bad('optional-became-required', 'new consumers', `${key} now required`);
  }

  const before = p.additionalProperties;
  const after = c.additionalProperties;
  if (JSON.stringify(before) !== JSON.stringify(after)) {
    // Closing an object (z.strictObject) refuses the extra fields old producers may send; opening it lets new
    // producers send fields old strict consumers refuse.
    bad(
      'open-closed-changed',
      'old and new consumers',
      `additionalProperties ${show(before)} -> ${show(after)}`,
    );
  }
}
