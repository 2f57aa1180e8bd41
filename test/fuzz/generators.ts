/**
 * fast-check generators of hostile requests for the fuzz suite (test/e2e/fuzz.e2e.test.ts). A request is built from a
 * plan (path, query, body, headers) that fast-check generates; the plan says whether the server must refuse the
 * request (mustFail: a poison the server has to answer with 4xx) or may accept it (the odd but perhaps valid values).
 * State-changing routes only ever get requests that must fail, so the suite never books a slot or creates an invoice.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { Field, Fixtures, Identity, Kind, RouteSpec } from './catalogue';

/** Body caps the stack runs with: the gateway's MAX_BODY_BYTES, the services' JSON parser, the gateway's own. */
export const GATEWAY_BODY_CAP = 1_048_576;
export const SERVICE_JSON_CAP = 100 * 1024;
export const GATEWAY_OWN_JSON_CAP = 10 * 1024;

export interface FuzzRequest {
  route: RouteSpec;
  identity: Identity;
  method: string;
  /** Raw request target as sent on the wire (path and query, percent-encoded as generated). */
  target: string;
  headers: Record<string, string>;
  /** Headers of the identity's session not to send (a cross-site call without Origin). */
  dropHeaders?: string[];
  body?: Buffer;
  /** Sent with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
  /** Content-Length claims more than is sent. */
  lyingLength?: number;
  /** What was generated, in words (the poison and the noise). */
  describe: string[];
  /** The server must refuse it (4xx). */
  mustFail: boolean;
  /** Refused by a parsing layer (JSON parser, NUL/surrogate guard, size cap) before any route runs. */
  preParse: boolean;
  hostilePath: boolean;
  crossSite: boolean;
  oversize?: 'gateway' | 'service' | 'gateway-own';
  /** The only acceptable statuses, when the poison decides them. */
  exact?: number[];
  /** Statuses another poison of the same request may answer first (a NUL in the query: 400). */
  alsoRefusedWith?: number[];
  /** Issue item a refusal depends on (for KNOWN_FAILURES), e.g. "issue14-6". */
  tag?: string;
}

// --- values ------------------------------------------------------------------------------------------------------

/** A JSON fragment written as is (-0, 1e999, deep nesting): JSON.stringify cannot produce them. */
export class Raw {
  constructor(readonly text: string) {}
}
export const MISSING = Symbol('missing');
type Value = unknown;

const LONE_SURROGATES = ['A\ud800', '\udc00', '\ud800\ud800x', 'x\udfff', '\udbff'];
const ODD_TEXT = [
  '',
  ' ',
  '\t\r\n',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e308',
  '0x1F',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  "'; DROP TABLE jobs; --",
  '%00',
  '%s%s%n',
  '${7*7}{{7*7}}',
  '../../../../etc/passwd',
  '\\',
  '\u202eevil',
  'Ω≈ç√∫ 日本語 🚗💨',
  'e\u0301\u0301\u0301',
  '\ufeffbom',
  '\u2028\u2029',
  '👩‍👩‍👧‍👦'.repeat(50),
];
const ODD_NUMBERS: Value[] = [
  1e308,
  -1e308,
  new Raw('-0'),
  0.1 + 0.2,
  12.345,
  5e-324,
  2 ** 53 + 2,
  -1,
  0,
  1.5,
  new Raw('1e999'),
  new Raw('-0.0'),
];

const oddText = fc.oneof(
  { arbitrary: fc.constantFrom(...ODD_TEXT), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 1 },
  { arbitrary: fc.integer({ min: 256, max: 4000 }).map((n) => 'x'.repeat(n)), weight: 1 },
);

/** A hostile JSON value of any shape (never NUL or lone surrogates: those are poisons of their own). */
const oddValue: fc.Arbitrary<Value> = fc.letrec<{ v: Value }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: oddText, weight: 4 },
    { arbitrary: fc.constantFrom(...ODD_NUMBERS), weight: 3 },
    { arbitrary: fc.constantFrom<Value>(true, false, null), weight: 1 },
    { arbitrary: fc.array(tie('v'), { maxLength: 3 }), weight: 1 },
    { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), tie('v'), { maxKeys: 3 }), weight: 1 },
  ),
})).v;

/** The Perth calendar date `days` from today. */
export const perthDay = (days: number) =>
  new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);

const tooLong = (field: Field) => (field.max !== undefined ? ['x'.repeat(field.max + 1)] : []);

/** Values that must be refused in a field of this kind, with a label. `tag` marks an issue-14 rule. */
export function poisonValues(field: Field): { value: Value; tag?: string }[] {
  const req = field.required ? [{ value: MISSING }, { value: null }] : [];
  const reqBlank = field.required ? [{ value: '' }, ...(field.untrimmed ? [] : [{ value: '   ' }])] : [];
  const v = (...values: Value[]) => values.map((value) => ({ value }));
  const byKind: Record<Kind, () => { value: Value; tag?: string }[]> = {
    text: () => [...v(12345, true, {}, ['x']), ...v(...tooLong(field)), ...req, ...reqBlank],
    email: () => [
      ...v(12345, {}, 'not-an-email', 'a@', '@example.com', 'a b@example.com'),
      ...req,
      ...reqBlank,
    ],
    optionalEmail: () => v(12345, {}, ['a@example.com'], 'not-an-email', 'a@', '@example.com'),
    phone: () => [...v(412345678901, '123', 'abcdefghijkl', '0412 345 678<script>'), ...req, ...reqBlank],
    postcode: () => [...v(6168, '61', 'abcd', '61689', {}), ...req, ...reqBlank],
    registration: () => [...v(12345, {}, 'X'.repeat(21)), ...req, ...reqBlank],
    money: () => [
      ...v('abc', '12.345', 12.345, 1e308, '1e308', {}, [], true, -1, '-0.01', new Raw('1e999')),
      ...req,
      ...(field.required ? v('') : []),
    ],
    positiveMoney: () => [
      ...v(
        'abc',
        '12.345',
        12.345,
        1e308,
        '1e308',
        {},
        [],
        true,
        0,
        new Raw('-0'),
        -5,
        '-5.00',
        new Raw('1e999'),
      ),
      ...req,
      ...(field.required ? v('') : []),
    ],
    lineMoney: () => [...v('abc', '12.345', 12.345, 1e308, {}, [], true, -1, null), ...req],
    // Issue 14 item 6: accounting dates from 1 Jan 2000 to five years ahead; bookings within the horizon (90 days).
    accountingDate: () => [
      ...v('0000-00-00', '2025-02-30', '2025-13-01', 'not-a-date', {}, [], true, 12345),
      ...['9999-12-31', '1999-12-31', `${Number(perthDay(0).slice(0, 4)) + 6}-01-01`].map((value) => ({
        value,
        tag: 'issue14-6',
      })),
      ...req,
    ],
    bookingDate: () => [
      ...v('0000-00-00', '2025-02-30', '2025-13-01', 'not-a-date', '2020-01-02', {}, [], 12345, '9999-12-31'),
      { value: perthDay(400), tag: 'issue14-6' },
      ...req,
      ...(field.required ? v('') : []),
    ],
    rescheduleDate: () => [
      ...v('2025-02-30', '0000-00-00', 'not-a-date', {}, 123, ''),
      { value: perthDay(400), tag: 'issue14-6' },
      ...req,
    ],
    instant: () => v('not-a-date', '2025-02-30T10:00:00Z', {}, [], true),
    enum: () => [...v('bogus-value', 42, {}, ['x']), ...req, ...(field.required ? v('') : [])],
    quantity: () =>
      v(
        'abc',
        1.5,
        (field.min ?? 1) - 1,
        (field.maxValue ?? 4) + 1,
        1e308,
        {},
        'NaN',
        new Raw('1e999'),
        ...(field.required ? [MISSING] : []),
      ),
    year: () => [...v('abc', 1.5, 1899, 3000, {}, 1e308, 'NaN'), ...(field.required ? v(MISSING) : [])],
    flag: () => v('yes', 1, 0, {}, [], 'TRUE'),
    strictBool: () => [...v('yes', 'true', 1, 0, {}, []), ...req],
    jobRef: () => [...v('not-a-uuid', 12345, {}, '00000000-0000-0000-0000-00000000000g'), ...req],
    // null (and '') unassign: only a missing field or a non-technician is wrong.
    technicianRef: () => [
      ...v('not-a-uuid', 12345, {}, true, '3b241101-e2bb-4255-8caf-4136c566a962'),
      { value: MISSING },
    ],
    tyreSize: () => v(12345, {}, [], true),
    ignored: () => [],
  };
  return byKind[field.kind]();
}

/** Values that are odd but may be valid in a field of this kind (never a reason to expect a refusal). */
const maybeValues: Value[] = [
  new Raw('-0'),
  0.1 + 0.2,
  '0.30',
  '1,000.00',
  '$12.00',
  ' 12.00 ',
  '2025-02-28',
  '2026-01-01T00:00:00+08:00',
  'Tue, 03 Mar 2026 10:00:00 GMT',
  'Ω≈ç√∫ 日本語 🚗💨',
  '  padded  ',
  'UPPER lower',
  '👩‍👩‍👧‍👦',
];

// --- JSON building -------------------------------------------------------------------------------------------------

const RAW_MARK = /"\\u0001R(\d+)\\u0001"/g;

/** JSON text of `value`, with Raw fragments spliced in and own "__proto__" keys kept. */
export function toJsonText(value: Value): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (v instanceof Raw) {
      raws.push(v.text);
      return `\u0001R${raws.length - 1}\u0001`;
    }
    return v;
  });
  return (text ?? 'null').replace(RAW_MARK, (_m, i: string) => raws[Number(i)]!);
}

function defineKey(target: Record<string, unknown>, key: string, value: Value) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Sets (or deletes, for MISSING) a dotted path, creating objects on the way; a non-object on the way is replaced. */
function setPath(root: Record<string, unknown>, path: string, value: Value) {
  const keys = path.split('.');
  let node = root;
  for (const key of keys.slice(0, -1)) {
    const next = Object.prototype.hasOwnProperty.call(node, key) ? node[key] : undefined;
    if (!next || typeof next !== 'object' || Array.isArray(next)) defineKey(node, key, {});
    node = node[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1]!;
  if (value === MISSING) delete node[last];
  else defineKey(node, last, value);
}

function getPath(root: Record<string, unknown>, path: string): unknown {
  let node: unknown = root;
  for (const key of path.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

const clone = (v: Record<string, unknown>) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>;

// --- plans -------------------------------------------------------------------------------------------------------

type Noise =
  | { t: 'extra'; parent: string; key: string; value: Value }
  | { t: 'proto'; parent: string; key: '__proto__' | 'constructor' | 'prototype'; value: Value }
  | { t: 'maybe'; index: number; value: Value }
  | { t: 'deepExtra'; depth: number }
  | { t: 'bigExtra'; size: number };

type BodyPoison =
  | { t: 'field'; index: number; pick: number }
  | { t: 'nul'; index: number; inKey: boolean }
  | { t: 'surrogate'; index: number; variant: string; inKey: boolean }
  | { t: 'malformed'; text: string }
  | { t: 'notObject'; text: string }
  | { t: 'contentType'; contentType: string | null }
  | { t: 'oversize'; level: 'service' | 'gateway'; chunked: boolean; lying: boolean }
  | { t: 'deep'; depth: number }
  | { t: 'charset'; contentType: string }
  | { t: 'encoding'; encoding: 'gzip-garbage' | 'gzip-bomb' | 'unknown' }
  | { t: 'crossSite'; origin: string | null; referer?: string };

const MALFORMED_JSON = [
  '{',
  '{"a":',
  "{'a':1}",
  '{"a":1,}',
  '{"a":1}{"b":2}',
  '{"a" 1}',
  'NaN',
  'undefined',
  '<xml/>',
  '[1,2',
  '{"a":"\\ud800',
  '{"a":"\\x41"}',
  '{"a":01}',
  '{"a":.5}',
  '{"a":+1}',
  '{"a":Infinity}',
  '\u0000',
  '{"a":"unterminated}',
  '{"__proto__":}',
];
const NOT_OBJECTS = ['[]', '[{}]', '"x"', '123', 'null', 'true', '[[[[]]]]'];
const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data',
  null,
  'application/vnd.api+json',
  'application/jsonx',
];
const BAD_CHARSETS = ['application/json; charset=utf-16', 'application/json; charset=latin1-fuzz'];
const CROSS_SITE: { origin: string | null; referer?: string }[] = [
  { origin: 'https://evil.example' },
  { origin: 'null' },
  { origin: null, referer: 'https://evil.example/page' },
  { origin: 'http://127.0.0.1.evil.example' },
];
const NOISE_KEYS = [
  'isAdmin',
  'role',
  'id',
  'jobNumber',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '$where',
  '$gt',
  'then',
  'length',
  '0',
  '',
  'a.b',
  'ünïcødé',
];

/** Hostile path segments, as sent on the wire. None names a real record, date or slot. */
export const HOSTILE_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2E%2F',
  '..%2f..%2fadmin',
  '%252e%252e',
  '..;',
  '%00',
  'abc%00def',
  '%ED%A0%80',
  '%E0%A4%A',
  '%',
  '%zz',
  '%C0%AF',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '3b241101-e2bb-4255-8caf-4136c566a962%00',
  '%F0%9F%92%A5',
  encodeURIComponent('日本語'),
  '%20',
  '+',
  '%3B',
  '1e308',
  '-1',
  '0',
  'null',
  'undefined',
  '%5Bobject%20Object%5D',
  '%7B%7D',
  '%2F',
  'a/b',
  '%5C..%5C',
  '__proto__',
  'constructor',
  '2025-02-30',
  '0000-00-00',
  '2020-01-02',
  '8-10AM',
  'x'.repeat(3000),
];

/** The hostile values of query strings (raw, on the wire). */
const HOSTILE_QUERIES = [
  'a=1&a=2&a=3',
  'a[]=1&a[]=2',
  'a[b][c]=1',
  '__proto__[admin]=1',
  'constructor[prototype][admin]=1',
  'hasOwnProperty=1',
  'x=%00',
  'x=%ED%A0%80',
  'x=%zz&y=%',
  '&&&==&',
  '=',
  'x=' + 'y'.repeat(8000),
  'k=1&'.repeat(1500),
  'x=%F0%9F%92%A5%E2%80%AE',
  'x=1;y=2',
  '%00=1',
];

const HEADER_NOISE: Record<string, string>[] = [
  { 'x-identity-token': 'eyJhbGciOiJub25lIn0.eyJpZCI6ImFkbWluIiwicm9sZSI6ImFkbWluIn0.' },
  { 'x-forwarded-for': '127.0.0.1' },
  { forwarded: 'for=127.0.0.1;proto=https' },
  { 'x-request-id': '../'.repeat(60) },
  { 'x-http-method-override': 'DELETE' },
  { 'accept-encoding': 'gzip, br' },
  { range: 'bytes=0-0' },
  { 'if-none-match': '*' },
  { accept: 'text/html' },
  { 'idempotency-key': 'fuzz\u00e9key' },
  { 'idempotency-key': 'k'.repeat(300) },
];

interface Plan {
  path: { param: string; value: string } | null;
  query: { text: string; poison?: string } | null;
  poison: BodyPoison | { t: 'query'; text: string; why: string } | null;
  noise: Noise[];
  headers: Record<string, string>;
  getBody: boolean;
}

function textFieldIndexes(fields: Field[]): number[] {
  return fields.flatMap((f, i) =>
    ['text', 'email', 'optionalEmail', 'phone', 'postcode', 'registration'].includes(f.kind) ? [i] : [],
  );
}

/** Poisons of a JSON body (the route validates `fields`). */
function jsonPoisons(route: RouteSpec, fields: Field[], requiresObject: boolean): fc.Arbitrary<BodyPoison> {
  const poisonable = fields.flatMap((f, i) => (poisonValues(f).length ? [i] : []));
  const texts = textFieldIndexes(fields);
  const anyField = fc.nat({ max: Math.max(0, fields.length - 1) });
  const hasRequired = fields.some((f) => f.required);
  const choices: { arbitrary: fc.Arbitrary<BodyPoison>; weight: number }[] = [
    { arbitrary: middlewarePoisons(route), weight: 4 },
  ];
  if (poisonable.length)
    choices.push({
      arbitrary: fc
        .record({ index: fc.constantFrom(...poisonable), pick: fc.nat({ max: 1000 }) })
        .map((r) => ({ t: 'field', ...r })),
      weight: 8,
    });
  choices.push({
    arbitrary: fc
      .record({ index: texts.length ? fc.constantFrom(...texts) : anyField, inKey: fc.boolean() })
      .map((r) => ({ t: 'nul', ...r })),
    weight: 2,
  });
  choices.push({
    arbitrary: fc
      .record({
        index: texts.length ? fc.constantFrom(...texts) : anyField,
        variant: fc.constantFrom(...LONE_SURROGATES),
        inKey: fc.boolean(),
      })
      .map((r) => ({ t: 'surrogate', ...r })),
    weight: 3,
  });
  if (requiresObject) {
    choices.push({
      arbitrary: fc.constantFrom(...NOT_OBJECTS).map((text) => ({ t: 'notObject', text })),
      weight: 1,
    });
    // Parses (V8's JSON parser does not recurse), stays under the services' 100 kB cap, and is not an object.
    choices.push({
      arbitrary: fc.integer({ min: 1000, max: 45_000 }).map((depth) => ({ t: 'deep', depth })),
      weight: 1,
    });
  }
  if (hasRequired)
    choices.push({
      arbitrary: fc
        .constantFrom(...WRONG_CONTENT_TYPES)
        .map((contentType) => ({ t: 'contentType', contentType })),
      weight: 1,
    });
  return fc.oneof(...choices);
}

/** Poisons every parsing layer refuses whatever the route does with the body. */
function middlewarePoisons(route: RouteSpec): fc.Arbitrary<BodyPoison> {
  const unsafe = route.method !== 'GET';
  return fc.oneof(
    {
      arbitrary: fc.constantFrom(...MALFORMED_JSON).map((text) => ({ t: 'malformed' as const, text })),
      weight: 4,
    },
    {
      arbitrary: fc.record({
        t: fc.constant('oversize' as const),
        level: fc.constantFrom('service' as const, 'service' as const, 'gateway' as const),
        chunked: fc.boolean(),
        lying: fc.boolean(),
      }),
      weight: 1,
    },
    {
      arbitrary: fc
        .constantFrom(...BAD_CHARSETS)
        .map((contentType) => ({ t: 'charset' as const, contentType })),
      weight: 1,
    },
    {
      arbitrary: fc
        .constantFrom('gzip-garbage' as const, 'gzip-bomb' as const, 'unknown' as const)
        .map((encoding) => ({ t: 'encoding' as const, encoding })),
      weight: 1,
    },
    {
      arbitrary: fc
        .nat({ max: 4 })
        .map((index) => ({ t: 'nul' as const, index: -1 - index, inKey: index % 2 === 0 })),
      weight: 1,
    },
    {
      arbitrary: fc
        .constantFrom(...LONE_SURROGATES)
        .map((variant) => ({ t: 'surrogate' as const, index: -1, variant, inKey: false })),
      weight: 1,
    },
    ...(unsafe
      ? [
          {
            arbitrary: fc.constantFrom(...CROSS_SITE).map((c) => ({ t: 'crossSite' as const, ...c })),
            weight: 1,
          },
        ]
      : []),
  );
}

function noiseArb(fields: Field[]): fc.Arbitrary<Noise> {
  const parents = [
    '',
    ...new Set(fields.filter((f) => f.path.includes('.')).map((f) => f.path.split('.')[0]!)),
  ];
  const names = new Set(fields.map((f) => f.path.split('.').pop()));
  const keys = NOISE_KEYS.filter((k) => !names.has(k));
  return fc.oneof(
    {
      arbitrary: fc.record({
        t: fc.constant('extra' as const),
        parent: fc.constantFrom(...parents),
        key: fc.oneof(fc.constantFrom(...keys), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 })),
        value: oddValue,
      }),
      weight: 3,
    },
    {
      arbitrary: fc.record({
        t: fc.constant('proto' as const),
        parent: fc.constantFrom(...parents),
        key: fc.constantFrom('__proto__' as const, 'constructor' as const, 'prototype' as const),
        value: fc.constantFrom<Value>(
          { isAdmin: true, role: 'admin', polluted: 'yes' },
          { prototype: { isAdmin: true } },
          { toString: 'x', valueOf: 1 },
          null,
        ),
      }),
      weight: 2,
    },
    ...(fields.length
      ? [
          {
            arbitrary: fc.record({
              t: fc.constant('maybe' as const),
              index: fc.nat({ max: fields.length - 1 }),
              value: fc.constantFrom(...maybeValues),
            }),
            weight: 2,
          },
        ]
      : []),
    {
      arbitrary: fc.record({
        t: fc.constant('deepExtra' as const),
        depth: fc.integer({ min: 40, max: 4000 }),
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        t: fc.constant('bigExtra' as const),
        size: fc.integer({ min: 1000, max: 60_000 }),
      }),
      weight: 1,
    },
  );
}

function hostileSegment(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS), weight: 6 },
    {
      arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encodeURIComponent),
      weight: 2,
    },
    { arbitrary: fc.uuid().map((u) => u), weight: 1 },
  );
}

/** Query poisons for a route's validated query fields (as query text). */
function queryPoisons(route: RouteSpec, f: Fixtures): { text: string; why: string }[] {
  const out: { text: string; why: string }[] = [];
  const base = route.query?.base?.(f) ?? '';
  const withParam = (name: string, value: string) => {
    const others = base
      .split('&')
      .filter((p) => p && p.split('=')[0] !== name)
      .join('&');
    return [others, `${name}=${value}`].filter(Boolean).join('&');
  };
  for (const field of route.query?.fields ?? []) {
    const name = field.path;
    const bad: string[] = [];
    switch (field.kind) {
      case 'enum':
        bad.push('bogus-value', '%00', `${field.values?.[0] ?? 'x'}&${name}=${field.values?.[1] ?? 'y'}`);
        break;
      case 'quantity':
        bad.push(String((field.min ?? 1) - 1), 'abc', '1.5', '1e308', `1&${name}=2`);
        if (field.maxValue !== undefined && field.maxValue < 1e9) bad.push(String(field.maxValue + 1));
        break;
      case 'bookingDate':
        bad.push('2025-02-30', '0000-00-00', 'not-a-date', '2020-01-02');
        break;
      case 'accountingDate':
        bad.push('2025-02-30', 'not-a-date', '9999-99-99', `2026-01-01&${name}=2026-02-01`);
        break;
      case 'jobRef':
        bad.push('not-a-uuid', '3b241101-e2bb-4255-8caf-4136c566a96');
        break;
      case 'text':
        if (field.max) bad.push('x'.repeat(field.max + 1));
        bad.push(`a&${name}=b`);
        break;
      default:
        break;
    }
    for (const value of bad)
      out.push({ text: withParam(name, value), why: `query ${name}=${value.slice(0, 40)}` });
    if (field.required)
      out.push({ text: withParam(name, '').replace(`${name}=`, ''), why: `query ${name} missing` });
  }
  if (route.path.startsWith('/api/dashboard/reports'))
    out.push({ text: 'startDate=2026-02-01&endDate=2026-01-01', why: 'query startDate after endDate' });
  if (route.path.endsWith('/deliveries')) out.push({ text: 'cursor=garbage', why: 'query cursor=garbage' });
  if (route.path.includes('jobs') && route.query)
    out.push({ text: 'status=new&scheduleStatus=pending', why: 'query status and scheduleStatus' });
  return out;
}

/** The number of cases of a route for one identity, from FUZZ_RUNS (cases per route for its main caller). */
export function caseCount(route: RouteSpec, identity: Identity, runs: number): number {
  const main: Identity = route.access === 'public' ? 'anonymous' : 'admin';
  if (identity === main) return runs;
  const refused =
    (identity === 'anonymous' && route.access !== 'public') ||
    (identity === 'technician' && route.access === 'admin');
  return Math.max(2, Math.ceil(runs / (refused ? 4 : 3)));
}

/** fast-check plan for one request to `route`. */
function planArb(route: RouteSpec, f: Fixtures): fc.Arbitrary<Plan> {
  const body = route.body;
  const params = Object.keys(route.params ?? {});
  const strictParams = params.filter((p) => route.params![p]!.strict);
  const qPoisons = queryPoisons(route, f);

  const pathArb: fc.Arbitrary<Plan['path']> = params.length
    ? fc.oneof(
        { arbitrary: fc.constant(null), weight: 3 },
        {
          arbitrary: fc.record({ param: fc.constantFrom(...params), value: hostileSegment() }),
          weight: 2,
        },
      )
    : fc.constant(null);
  const queryArb: fc.Arbitrary<Plan['query']> = fc.oneof(
    { arbitrary: fc.constant(route.query?.base ? { text: route.query.base(f) } : null), weight: 3 },
    { arbitrary: fc.constantFrom(...HOSTILE_QUERIES).map((text) => ({ text })), weight: 1 },
  );
  const headersArb = fc.oneof(
    { arbitrary: fc.constant({}), weight: 4 },
    { arbitrary: fc.constantFrom(...HEADER_NOISE), weight: 1 },
  );

  let poisonArb: fc.Arbitrary<Plan['poison']>;
  let noise: fc.Arbitrary<Noise[]> = fc.constant([]);
  let getBody: fc.Arbitrary<boolean> = fc.constant(false);
  if (body?.kind === 'json') {
    const poisons = jsonPoisons(route, body.fields, body.requiresObject);
    poisonArb = route.writes
      ? poisons
      : fc.oneof({ arbitrary: fc.constant(null), weight: 1 }, { arbitrary: poisons, weight: 2 });
    noise = fc.array(noiseArb(body.fields), { maxLength: 3 });
  } else if (body?.kind === 'ignored' || body?.kind === 'multipart' || body?.kind === 'signed') {
    // Multipart and signed bodies are planned in buildRequest; here only what every parser refuses.
    poisonArb = fc.oneof(
      { arbitrary: fc.constant(null), weight: 1 },
      { arbitrary: middlewarePoisons(route), weight: 2 },
    );
  } else {
    // GET: hostile queries; now and then a body nobody asked for.
    const q = qPoisons.length
      ? fc.constantFrom(...qPoisons).map((p) => ({ t: 'query' as const, ...p }))
      : fc.constant(null);
    poisonArb = fc.oneof(
      { arbitrary: fc.constant(null), weight: 3 },
      { arbitrary: q, weight: qPoisons.length ? 3 : 0 },
      { arbitrary: middlewarePoisons(route), weight: 1 },
    );
    getBody = fc.boolean();
  }
  return fc
    .record({ path: pathArb, query: queryArb, poison: poisonArb, noise, headers: headersArb, getBody })
    .map((plan) => {
      // A route that reads no body must get a poison the parsers refuse while its path names a real target.
      if (route.writes && body?.kind === 'ignored' && !plan.path && !plan.poison)
        return { ...plan, poison: { t: 'malformed' as const, text: '{' } };
      // A strict parameter that is not hostile keeps writes harmless only through the body's poison.
      if (plan.path && !strictParams.includes(plan.path.param) && route.writes && !plan.poison)
        return { ...plan, path: null, poison: { t: 'malformed' as const, text: '{' } };
      return plan;
    });
}

// --- multipart ---------------------------------------------------------------------------------------------------

interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

export function multipartBody(parts: Part[], boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.contentType) head += `Content-Type: ${p.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(p.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const PNG_MAGIC = Buffer.from('89504e470d0a1a0a', 'hex');
export type PhotoPoison =
  | 'wrongMagic'
  | 'textFile'
  | 'noFiles'
  | 'badType'
  | 'truncated'
  | 'noBoundary'
  | 'json'
  | 'tooBig'
  | 'tooMany'
  | 'hostileFilename';
// 'truncated' is not drawn at random: it has crashed the booking service (fuzz.e2e.test.ts sends it last, on its own).
const PHOTO_POISONS: PhotoPoison[] = [
  'wrongMagic',
  'textFile',
  'noFiles',
  'badType',
  'noBoundary',
  'json',
  'tooBig',
  'tooMany',
  'hostileFilename',
];

export function photoBody(
  poison: PhotoPoison,
  pick: number,
): { body: Buffer; contentType: string; describe: string } {
  const boundary = `----fuzz${pick}`;
  const ct = `multipart/form-data; boundary=${boundary}`;
  const notImage = {
    name: 'photos',
    filename: 'tyre.png',
    contentType: 'image/png',
    data: 'not an image at all',
  };
  const type = { name: 'type', data: 'tyre-condition' };
  switch (poison) {
    case 'wrongMagic':
      return {
        body: multipartBody([type, notImage], boundary),
        contentType: ct,
        describe: 'photo: PNG name, text bytes',
      };
    case 'textFile':
      return {
        body: multipartBody(
          [type, { ...notImage, filename: 'notes.txt', contentType: 'text/plain' }],
          boundary,
        ),
        contentType: ct,
        describe: 'photo: a text file',
      };
    case 'noFiles':
      return { body: multipartBody([type], boundary), contentType: ct, describe: 'photo: no files' };
    case 'badType': {
      const types = ['bogus-kind', 'tyre-condition\u0000', '\u00ff\u00fe', 'x'.repeat(2000), '../etc'];
      return {
        body: multipartBody([{ name: 'type', data: types[pick % types.length]! }, notImage], boundary),
        contentType: ct,
        describe: `photo: type field ${JSON.stringify(types[pick % types.length]!.slice(0, 20))}`,
      };
    }
    case 'truncated': {
      const full = multipartBody([type, notImage], boundary);
      return {
        body: full.subarray(0, full.length - 20),
        contentType: ct,
        describe: 'photo: multipart cut short',
      };
    }
    case 'noBoundary':
      return {
        body: multipartBody([type, notImage], boundary),
        contentType: 'multipart/form-data',
        describe: 'photo: multipart without a boundary',
      };
    case 'json':
      return {
        body: Buffer.from('{"photos":[]}'),
        contentType: 'application/json',
        describe: 'photo: JSON body',
      };
    case 'tooBig':
      return {
        body: multipartBody(
          [type, { ...notImage, data: Buffer.concat([PNG_MAGIC, Buffer.alloc(5 * 1024 * 1024 + 10)]) }],
          boundary,
        ),
        contentType: ct,
        describe: 'photo: PNG bytes over 5 MB',
      };
    case 'tooMany':
      return {
        body: multipartBody([type, ...Array.from({ length: 7 }, () => notImage)], boundary),
        contentType: ct,
        describe: 'photo: 7 files, none an image',
      };
    case 'hostileFilename': {
      const names = [
        '../../etc/passwd.png',
        'a\u0000.png',
        `${'n'.repeat(3000)}.png`,
        '日本語.png',
        '"; x=".png',
      ];
      return {
        body: multipartBody([type, { ...notImage, filename: names[pick % names.length]! }], boundary),
        contentType: ct,
        describe: `photo: filename ${JSON.stringify(names[pick % names.length]!.slice(0, 24))}, text bytes`,
      };
    }
  }
}

// --- building -------------------------------------------------------------------------------------------------------

function hasNulOrLoneSurrogate(value: unknown, depth = 0): boolean {
  // eslint-disable-next-line no-control-regex -- NUL is what this looks for
  const bad = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  if (typeof value === 'string') return bad.test(value);
  if (!value || typeof value !== 'object' || depth > 200) return false;
  return Object.entries(value).some(([k, v]) => bad.test(k) || hasNulOrLoneSurrogate(v, depth + 1));
}

function decodeQuery(q: string): string {
  return q
    .split(/[&=]/)
    .map((p) => {
      try {
        return decodeURIComponent(p.replace(/\+/g, ' '));
      } catch {
        return p;
      }
    })
    .join(' ');
}

const short = (v: unknown) => {
  const text = v === MISSING ? '(missing)' : v instanceof Raw ? v.text : toJsonText(v);
  return text.length > 60 ? `${text.slice(0, 40)}…(${text.length} chars)` : text;
};

/** Builds the request of one plan. */
function buildRequest(
  route: RouteSpec,
  identity: Identity,
  f: Fixtures,
  plan: Plan,
  pick: number,
): FuzzRequest {
  const describe: string[] = [];
  let mustFail = false;
  let preParse = false;
  let crossSite = false;
  let tag: string | undefined;
  const dropHeaders: string[] = [];
  let oversize: FuzzRequest['oversize'];
  let exact: number[] | undefined;
  const gatewayOwn = !route.upstream;
  const headers: Record<string, string> = { ...plan.headers };
  if (Object.keys(plan.headers).length) describe.push(`headers ${JSON.stringify(plan.headers).slice(0, 80)}`);

  // Path.
  let hostilePath = false;
  let strictPath = false;
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (plan.path?.param === name) {
      hostilePath = true;
      if (route.params![name]!.strict) mustFail = strictPath = true;
      describe.push(
        `path {${name}} = ${plan.path.value.length > 60 ? `x×${plan.path.value.length}` : plan.path.value}`,
      );
      return plan.path.value;
    }
    return route.params![name]!.valid(f);
  });

  // Query.
  let query = plan.query?.text ?? '';
  // A GET only carries a body when the plan says so; without one, a body poison is no poison.
  const poison =
    route.method === 'GET' && !plan.getBody && plan.poison && plan.poison.t !== 'query' ? null : plan.poison;
  if (poison?.t === 'query') {
    query = poison.text;
    mustFail = true;
    describe.push(poison.why);
  } else if (plan.query && plan.query.text !== (route.query?.base?.(f) ?? '')) {
    describe.push(`query ${query.length > 80 ? `${query.slice(0, 40)}…(${query.length} chars)` : query}`);
  }
  const queryNul = /%00/i.test(query) || decodeQuery(query).includes('\u0000');
  if (queryNul) preParse = true;

  // Body.
  let body: Buffer | undefined;
  let contentType: string | null | undefined;
  let chunked = false;
  let lyingLength: number | undefined;
  // The webhook reads its raw body up to 1 MB (the signature covers the bytes), not through the JSON parser.
  const cap = gatewayOwn
    ? GATEWAY_OWN_JSON_CAP
    : route.body?.kind === 'signed'
      ? GATEWAY_BODY_CAP
      : SERVICE_JSON_CAP;

  const jsonModel = route.body?.kind === 'json' ? route.body : undefined;
  const fields = jsonModel?.fields ?? [];
  let value: Record<string, unknown> | undefined = jsonModel
    ? clone(jsonModel.base(f))
    : route.method === 'GET'
      ? undefined
      : {};
  if (route.method === 'GET' && plan.getBody && poison && poison.t !== 'query') value = { q: 'fuzz' };

  // Noise first (odd values, extra keys), then the poison, so nothing undoes the poison.
  const noiseWords: string[] = [];
  for (const n of plan.noise) {
    if (!value) break;
    if (n.t === 'extra' || n.t === 'proto') {
      const parent = n.parent ? (getPath(value, n.parent) as Record<string, unknown> | undefined) : value;
      if (parent && typeof parent === 'object' && !Array.isArray(parent)) {
        defineKey(parent, n.key, n.value);
        noiseWords.push(`+${n.parent ? `${n.parent}.` : ''}${JSON.stringify(n.key)}=${short(n.value)}`);
      }
    } else if (n.t === 'maybe') {
      const field = fields[n.index]!;
      setPath(value, field.path, n.value);
      noiseWords.push(`${field.path}=${short(n.value)} (may be valid)`);
    } else if (n.t === 'deepExtra') {
      setPath(value, 'nested', new Raw(`${'['.repeat(n.depth)}${']'.repeat(n.depth)}`));
      noiseWords.push(`+nested: arrays ${n.depth} deep`);
    } else {
      setPath(value, 'padding', 'p'.repeat(n.size));
      noiseWords.push(`+padding: ${n.size} chars`);
    }
  }

  let text: string | undefined;
  if (route.body?.kind === 'multipart' && (!poison || poison.t === 'field')) {
    const photo = photoBody(PHOTO_POISONS[pick % PHOTO_POISONS.length]!, pick);
    body = photo.body;
    contentType = photo.contentType;
    describe.push(photo.describe);
    mustFail = true;
  } else if (route.body?.kind === 'signed' && !poison) {
    const signed = [
      { text: '{"id":"evt_fuzz","type":"payment_intent.succeeded","data":{"object":{}}}', sig: undefined },
      { text: '{"id":"evt_fuzz"}', sig: 't=1,v1=deadbeef' },
      { text: 'not json', sig: 'garbage' },
      { text: '', sig: 't=9999999999,v1=' + '0'.repeat(64) },
    ][pick % 4]!;
    text = signed.text;
    contentType = 'application/json';
    if (signed.sig) headers['stripe-signature'] = signed.sig;
    describe.push(`webhook body ${JSON.stringify(signed.text)} signature ${signed.sig ?? '(none)'}`);
    mustFail = true;
    exact = [400];
  } else if (poison && poison.t !== 'query') {
    mustFail = true;
    switch (poison.t) {
      case 'field': {
        const field = fields[poison.index]!;
        const choices = poisonValues(field);
        const chosen = choices[poison.pick % choices.length]!;
        if (value) setPath(value, field.path, chosen.value);
        tag = chosen.tag;
        describe.push(`${field.path} = ${short(chosen.value)} (${field.kind} must refuse)`);
        break;
      }
      case 'nul':
      case 'surrogate': {
        const bad = poison.t === 'nul' ? 'A\u0000B' : poison.variant;
        const field = poison.index >= 0 ? fields[poison.index] : undefined;
        if (!value) value = {};
        if (poison.inKey || !field) {
          const parent = field?.path.includes('.')
            ? (getPath(value, field.path.split('.')[0]!) as object)
            : value;
          defineKey(
            parent && typeof parent === 'object' ? (parent as Record<string, unknown>) : value,
            `k${bad}`,
            'v',
          );
          describe.push(`key ${JSON.stringify(`k${bad}`)} (${poison.t})`);
        } else {
          const current = getPath(value, field.path);
          setPath(value, field.path, `${typeof current === 'string' ? current : 'x'}${bad}`);
          describe.push(`${field.path} += ${JSON.stringify(bad)} (${poison.t})`);
        }
        preParse = true;
        break;
      }
      case 'malformed':
        text = poison.text;
        contentType = 'application/json';
        preParse = true;
        describe.push(`malformed JSON ${JSON.stringify(poison.text)}`);
        break;
      case 'notObject':
        text = poison.text;
        contentType = 'application/json';
        // The JSON parsers are strict: a bare value is refused before any route (an array is parsed).
        if (!/^[[{]/.test(poison.text)) preParse = true;
        describe.push(`body ${poison.text} (not an object)`);
        break;
      case 'contentType':
        contentType = poison.contentType;
        describe.push(`content-type ${poison.contentType ?? '(none)'} with a JSON body`);
        break;
      case 'charset':
        contentType = poison.contentType;
        preParse = true;
        describe.push(`content-type ${poison.contentType}`);
        break;
      case 'encoding': {
        const json = Buffer.from(toJsonText(value ?? {}));
        contentType = 'application/json';
        preParse = true;
        if (poison.encoding === 'gzip-garbage') {
          headers['content-encoding'] = 'gzip';
          body = Buffer.from('this is not gzip');
        } else if (poison.encoding === 'gzip-bomb') {
          headers['content-encoding'] = 'gzip';
          body = gzipSync(Buffer.from(`{"padding":"${'0'.repeat(3 * 1024 * 1024)}"}`));
          oversize = gatewayOwn ? 'gateway-own' : 'service';
        } else {
          headers['content-encoding'] = 'x-fuzz';
          body = json;
        }
        describe.push(`content-encoding ${poison.encoding}`);
        break;
      }
      case 'oversize': {
        const level = gatewayOwn && poison.level === 'service' ? 'gateway-own' : poison.level;
        const size =
          level === 'gateway' ? GATEWAY_BODY_CAP + 1 : level === 'gateway-own' ? cap + 1 : cap + 1024;
        text = `{"padding":"${'o'.repeat(size - 14)}"}`;
        contentType = 'application/json';
        chunked = poison.chunked && !poison.lying;
        // Not on the upload route: its cap is 30 MB, so a claimed 1 MB is simply awaited.
        if (poison.lying && level === 'gateway' && route.body?.kind !== 'multipart') lyingLength = size;
        oversize = level;
        preParse = true;
        describe.push(
          `body of ${size} bytes${chunked ? ' (chunked)' : ''}${lyingLength ? ' (Content-Length claimed, 2 bytes sent)' : ''}`,
        );
        break;
      }
      case 'deep': {
        const d = poison.depth;
        text = `${'['.repeat(d)}${']'.repeat(d)}`;
        contentType = 'application/json';
        describe.push(`body: arrays ${d} deep`);
        break;
      }
      case 'crossSite':
        crossSite = true;
        if (poison.origin !== null) headers.origin = poison.origin;
        else dropHeaders.push('origin');
        if (poison.referer) headers.referer = poison.referer;
        exact = [403];
        describe.push(
          `cross-site: origin ${poison.origin ?? '(none)'} referer ${poison.referer ?? '(none)'}`,
        );
        break;
    }
  }
  // A body on a GET is odd, not wrong: the server may ignore it (the gateway's own size cap still applies).
  if (route.method === 'GET' && poison && poison.t !== 'query') {
    mustFail = strictPath;
    exact = undefined;
  }
  if (route.writes && !mustFail) {
    // Guard: a write route never gets a request the server may accept.
    throw new Error(`${route.method} ${route.path}: generated a request that could be accepted`);
  }
  if (!body && text === undefined && value !== undefined && (route.method !== 'GET' || plan.getBody)) {
    describe.push(...noiseWords);
    text = toJsonText(value);
    if (contentType === undefined) contentType = 'application/json';
    if (hasNulOrLoneSurrogate(value)) preParse = true;
    if (Buffer.byteLength(text) > cap && contentType?.includes('json')) {
      preParse = true;
      oversize ??= gatewayOwn ? 'gateway-own' : 'service';
    }
  }
  if (text !== undefined && !body) body = Buffer.from(text);
  if (contentType) headers['content-type'] = contentType;
  // Whatever made the body big, the caps decide the answer.
  const upload = route.body?.kind === 'multipart';
  if (body && body.length > GATEWAY_BODY_CAP && !upload) oversize = 'gateway';
  else if (body && body.length > cap && /json/.test(contentType ?? '') && !headers['content-encoding'])
    oversize ??= gatewayOwn ? 'gateway-own' : 'service';
  if (oversize) preParse = true;

  const target = query ? `${path}?${query}` : path;
  return {
    route,
    identity,
    method: route.method,
    target,
    headers,
    ...(body ? { body } : {}),
    ...(chunked ? { chunked } : {}),
    ...(dropHeaders.length ? { dropHeaders } : {}),
    ...(lyingLength ? { lyingLength } : {}),
    describe,
    mustFail,
    preParse,
    hostilePath,
    crossSite,
    ...(oversize ? { oversize } : {}),
    ...(exact ? { exact } : {}),
    ...(queryNul ? { alsoRefusedWith: [400] } : {}),
    ...(tag ? { tag } : {}),
  };
}

/** Deterministic per (seed, route, identity): adding a route does not change the cases of the others. */
export function caseSeed(seed: number, key: string): number {
  let h = seed >>> 0;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x9e3779b1) >>> 0;
  return h;
}

export function generateCases(
  route: RouteSpec,
  identity: Identity,
  f: Fixtures,
  count: number,
  seed: number,
): FuzzRequest[] {
  const arb = fc.tuple(planArb(route, f), fc.nat({ max: 10_000 }));
  return fc
    .sample(arb, { seed: caseSeed(seed, `${route.method} ${route.path} ${identity}`), numRuns: count })
    .map(([plan, pick]) => buildRequest(route, identity, f, plan, pick));
}
