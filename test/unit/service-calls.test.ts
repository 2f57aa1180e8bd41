/**
 * Every network path into the platform's processes is declared once, in deploy/service-calls.json: the calls
 * between processes (caller, callee, the caller's URL variable), the edge proxy reaching the gateway, and
 * Prometheus scraping the services. This test derives from that declaration, and fails on any gap, that:
 * - each caller's src/config.ts refuses to start in production without the variable, naming it (no loopback
 *   default inside a container), and declares no call the file does not list;
 * - docker-compose.yml gives each caller the variable, pointing at the callee's compose service and port;
 * - every rendered k8s tree (`kubectl kustomize` of the base and each overlay) gives each caller's Deployment the
 *   variable, pointing at the callee's Service and port, and its NetworkPolicies allow exactly the declared paths:
 *   each call, the edge → gateway and Prometheus → services, and no other path between the workloads.
 * Ports come from docs/team-conventions.md (front ends: 8080).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..');
const read = (p: string): string => readFileSync(path.join(ROOT, p), 'utf8');

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const objs = (v: unknown): Obj[] => arr(v).filter(isObj);
function at(v: unknown, ...keys: string[]): unknown {
  let cur: unknown = v;
  for (const k of keys) cur = obj(cur)[k];
  return cur;
}

// ---------------------------------------------------------------------------------------------------
// The declaration

interface Call {
  from: string;
  to: string;
  variable: string;
  /** A variable that, when set, makes this call unnecessary (the gateway's STATIC_DIR for the front ends). */
  unless?: string;
  for: string;
}
interface Declaration {
  calls: Call[];
  entry: { namespace: string; to: string };
  monitoring: { namespace: string; scrapes: string[] };
}

const DECLARATION = JSON.parse(read('deploy/service-calls.json')) as Declaration;
const CALLS = DECLARATION.calls;

/** Service ports from the "Ports" table of docs/team-conventions.md. */
const PORTS = new Map<string, number>();
for (const line of read('docs/team-conventions.md').split('\n')) {
  const m = /^\|\s*(gateway|booking|jobs|billing|reporting|notify)\b[^|]*\|\s*(\d+)\s*\|/.exec(line);
  if (m?.[1] && m[2]) PORTS.set(m[1], Number(m[2]));
}
const SERVICES = [...PORTS.keys()];
const FRONTENDS = ['frontend-shell', 'frontend-public', 'frontend-dashboard'];
const WORKLOADS = [...SERVICES, ...FRONTENDS];
const portOf = (workload: string): number =>
  FRONTENDS.includes(workload) ? 8080 : (PORTS.get(workload) ?? NaN);
const urlOf = (workload: string): string => `http://${workload}:${portOf(workload)}`;
const callName = (c: Call): string => `${c.from} → ${c.to} (${c.variable})`;

/** URL variables of a config that are infrastructure or providers, not calls to another process. */
// Connections to infrastructure, and addresses a service writes into messages (the public site's origin in booking's
// "manage my booking" links, notify's review link): not calls between the platform's processes.
const NOT_CALLS = new Set([
  'DATABASE_URL',
  'AMQP_URL',
  'REDIS_URL',
  'SMTP_URL',
  'PUBLIC_SITE_URL',
  'SITE_URL',
  // notify's review link (the business's review page): an address in an email, not a call.
  'REVIEW_URL',
]);

describe('deploy/service-calls.json', () => {
  it('names known workloads and URL variables, each call once', () => {
    const problems: string[] = [];
    expect(SERVICES).toHaveLength(6);
    for (const c of CALLS) {
      if (!SERVICES.includes(c.from)) problems.push(`${callName(c)}: the caller is not a service`);
      if (!WORKLOADS.includes(c.to)) problems.push(`${callName(c)}: the callee is not a workload`);
      if (!/^[A-Z][A-Z0-9_]*_URL$/.test(c.variable)) problems.push(`${callName(c)}: not a *_URL variable`);
      if (!c.for) problems.push(`${callName(c)}: no "for"`);
      if (CALLS.filter((o) => o.from === c.from && o.variable === c.variable).length > 1)
        problems.push(`${callName(c)}: declared twice`);
    }
    if (!SERVICES.includes(DECLARATION.entry.to)) problems.push('entry: not a service');
    for (const s of DECLARATION.monitoring.scrapes)
      if (!SERVICES.includes(s)) problems.push(`monitoring: ${s} is not a service`);
    expect(problems).toEqual([]);
  });

  it("is complete: every URL variable of a service's config and every internal HTTP client is a declared call", () => {
    const problems: string[] = [];
    for (const service of SERVICES) {
      const config = read(`services/${service}/src/config.ts`);
      // The schema's keys (`BOOKING_URL: url.optional()`).
      const variables = new Set(
        [...config.matchAll(/^\s*([A-Z][A-Z0-9_]*_URL)\s*:/gm)].map((m) => String(m[1])),
      );
      for (const v of variables)
        if (!NOT_CALLS.has(v) && !CALLS.some((c) => c.from === service && c.variable === v))
          problems.push(`services/${service}/src/config.ts: ${v} is not declared`);
      // services/<caller>/src/http/<callee>-client.ts is a synchronous call to <callee>.
      const httpDir = path.join(ROOT, 'services', service, 'src', 'http');
      for (const file of existsSync(httpDir) ? readdirSync(httpDir) : []) {
        const callee = /^(.+)-client\.ts$/.exec(file)?.[1];
        if (callee && WORKLOADS.includes(callee) && !CALLS.some((c) => c.from === service && c.to === callee))
          problems.push(`services/${service}/src/http/${file}: ${service} → ${callee} is not declared`);
      }
    }
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------
// The callers' configuration

const compose = obj(parse(read('docker-compose.yml'), { merge: true }));
const composeServices = obj(compose.services);
/** "${X:-d}" -> "d": the value Compose uses when nothing is set. */
const withDefaults = (s: string): string => s.replace(/\$\{[A-Z0-9_]+:?-([^}]*)\}/g, '$1');

const PEM = '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----';
/** Stand-ins for the secrets compose leaves to .env (they are not what this test is about). */
const SECRETS: Record<string, string> = {
  SESSION_SECRET: 'x'.repeat(48),
  INTERNAL_JWT_PRIVATE_KEY: PEM.replaceAll('PUBLIC', 'PRIVATE'),
  INTERNAL_JWT_PUBLIC_KEY: PEM,
  ADMIN_PASSWORD: 'correct-horse-battery',
  // Stripe's webhook signing secret, which a production stack sets (billing verifies every webhook with it).
  STRIPE_WEBHOOK_SECRET: `whsec_${'0'.repeat(32)}`,
  // Interpolated into each service's DATABASE_URL (`${BOOKING_DATABASE_PASSWORD:-}`).
  ...Object.fromEntries(SERVICES.map((s) => [`${s.toUpperCase()}_DATABASE_PASSWORD`, 'f'.repeat(64)])),
};

/** Compose's interpolation with .env holding the stand-ins: "${X:-d}" -> the stand-in of X, else d. */
const interpolate = (s: string): string =>
  s.replace(
    /\$\{([A-Z0-9_]+):?-([^}]*)\}/g,
    (_all, name: string, fallback: string) => SECRETS[name] ?? fallback,
  );

/** The environment compose gives a service (interpolated, secrets filled in, unset values dropped). */
function composeEnv(service: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(at(composeServices[service], 'environment')))) {
    if (v === null || v === undefined) {
      if (SECRETS[k]) env[k] = SECRETS[k];
    } else env[k] = interpolate(String(v));
  }
  return env;
}

type Loader = (env: NodeJS.ProcessEnv) => unknown;
function configLoader(service: string): Loader {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(path.join(ROOT, 'services', service, 'src', 'config.ts')) as Record<string, unknown>;
  const loader = Object.entries(mod).find(
    ([name, v]) => /^load\w*Config$/.test(name) && typeof v === 'function',
  );
  if (!loader) throw new Error(`services/${service}/src/config.ts exports no load…Config function`);
  return loader[1] as Loader;
}

function omit(env: Record<string, string>, ...keys: (string | undefined)[]): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !keys.includes(k)));
}

function loadError(load: Loader, env: Record<string, string>): string | undefined {
  try {
    load(env);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

describe('callers: configuration', () => {
  const callers = [...new Set(CALLS.map((c) => c.from))];

  it.each(callers)(
    '%s starts with the environment docker-compose.yml gives it, and in production not without a declared URL',
    (service) => {
      const problems: string[] = [];
      const load = configLoader(service);
      const env = { ...composeEnv(service), NODE_ENV: 'production' };
      const complete = loadError(load, env);
      if (complete) problems.push(`with compose's environment: ${complete}`);
      for (const c of CALLS.filter((x) => x.from === service)) {
        const without = omit(env, c.variable, c.unless);
        const missing = loadError(load, without);
        if (!missing?.includes(c.variable) || !missing.includes('NODE_ENV=production'))
          problems.push(`${callName(c)}: production starts without ${c.variable} (${missing ?? 'no error'})`);
        if (c.unless) {
          const instead = loadError(load, { ...without, [c.unless]: '/srv/www' });
          if (instead)
            problems.push(`${callName(c)}: ${c.unless} does not replace ${c.variable}: ${instead}`);
        }
        // Off production (npm start, tests) the loopback default still applies.
        const local = loadError(load, { ...without, NODE_ENV: 'development' });
        if (local) problems.push(`${callName(c)}: development needs ${c.variable}: ${local}`);
      }
      expect(problems).toEqual([]);
    },
  );
});

// ---------------------------------------------------------------------------------------------------
// docker-compose.yml

describe('docker-compose.yml', () => {
  it("gives every caller each declared URL, pointing at the callee's service and port", () => {
    const problems: string[] = [];
    for (const c of CALLS) {
      if (!isObj(composeServices[c.to])) problems.push(`${callName(c)}: no compose service ${c.to}`);
      const value = at(composeServices[c.from], 'environment', c.variable);
      if (value === undefined) problems.push(`${callName(c)}: ${c.from} has no ${c.variable}`);
      else if (withDefaults(String(value)) !== urlOf(c.to))
        problems.push(`${callName(c)}: ${c.from} has ${c.variable}=${String(value)}, not ${urlOf(c.to)}`);
    }
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------
// Kubernetes: what `kubectl kustomize` renders

const OVERLAYS = readdirSync(path.join(ROOT, 'k8s', 'overlays'))
  .map((o) => `k8s/overlays/${o}`)
  .filter((d) => existsSync(path.join(ROOT, d, 'kustomization.yaml')));

function render(dir: string): Obj[] {
  const out = execFileSync('kubectl', ['kustomize', dir], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 16 * 1024 * 1024,
  });
  return parseAllDocuments(out)
    .map((d) => d.toJS() as unknown)
    .filter(isObj);
}

const nameOf = (d: Obj): string => String(at(d, 'metadata', 'name'));
const namespaceOf = (d: Obj): string => String(at(d, 'metadata', 'namespace') ?? 'default');
const find = (docs: Obj[], kind: string, name: string): Obj | undefined =>
  docs.find((d) => d.kind === kind && nameOf(d) === name);

/** A label selector (matchLabels + matchExpressions); an empty one selects everything. */
function selects(selector: unknown, labels: Obj): boolean {
  const byLabel = Object.entries(obj(at(selector, 'matchLabels'))).every(([k, v]) => labels[k] === v);
  const byExpression = objs(at(selector, 'matchExpressions')).every((e) => {
    const key = String(e.key);
    if (e.operator === 'In') return arr(e.values).includes(labels[key]);
    if (e.operator === 'NotIn') return !arr(e.values).includes(labels[key]);
    if (e.operator === 'Exists') return key in labels;
    if (e.operator === 'DoesNotExist') return !(key in labels);
    return false;
  });
  return byLabel && byExpression;
}

interface Pod {
  namespace: string;
  labels: Obj;
  container: Obj;
}
/** A source of traffic: a pod of the platform, or any pod of another namespace (the edge, Prometheus). */
type Source = { namespace: string; labels?: Obj };

function podOf(docs: Obj[], workload: string): Pod | undefined {
  const dep = find(docs, 'Deployment', workload);
  const container = objs(at(dep, 'spec', 'template', 'spec', 'containers'))[0];
  if (!dep || !container) return undefined;
  return {
    namespace: namespaceOf(dep),
    labels: obj(at(dep, 'spec', 'template', 'metadata', 'labels')),
    container,
  };
}

/**
 * Whether the NetworkPolicies let `source` open a TCP connection to `port` of `target` (Kubernetes semantics:
 * a pod selected by no Ingress policy takes everything; otherwise some rule of a policy selecting it must match
 * the peer and the port). Pods of another namespace are taken to carry no label we could select on.
 */
function allows(policies: Obj[], source: Source, target: Pod, port: number): boolean {
  const namespaceLabels = { 'kubernetes.io/metadata.name': source.namespace };
  const selecting = policies.filter(
    (p) =>
      namespaceOf(p) === target.namespace &&
      selects(at(p, 'spec', 'podSelector'), target.labels) &&
      (arr(at(p, 'spec', 'policyTypes')).includes('Ingress') || at(p, 'spec', 'policyTypes') === undefined),
  );
  if (selecting.length === 0) return true;
  const portName = objs(target.container.ports).find((p) => p.containerPort === port)?.name;
  const peerMatches = (peer: Obj): boolean => {
    if (isObj(peer.ipBlock)) return false;
    const nsOk = isObj(peer.namespaceSelector)
      ? selects(peer.namespaceSelector, namespaceLabels)
      : source.namespace === target.namespace;
    const podOk = isObj(peer.podSelector)
      ? source.labels !== undefined && selects(peer.podSelector, source.labels)
      : true;
    return nsOk && podOk;
  };
  const portMatches = (p: Obj): boolean =>
    (p.protocol ?? 'TCP') === 'TCP' && (p.port === undefined || p.port === port || p.port === portName);
  return selecting.some((p) =>
    objs(at(p, 'spec', 'ingress')).some(
      (rule) =>
        (arr(rule.from).length === 0 || objs(rule.from).some(peerMatches)) &&
        (arr(rule.ports).length === 0 || objs(rule.ports).some(portMatches)),
    ),
  );
}

/** The value a container sees for `variable`: its env, else an envFrom ConfigMap of the render. */
function envValue(docs: Obj[], container: Obj, variable: string): string | undefined {
  const direct = objs(container.env).find((e) => e.name === variable);
  if (direct) return typeof direct.value === 'string' ? direct.value : undefined;
  for (const ef of objs(container.envFrom)) {
    const cm = find(docs, 'ConfigMap', String(at(ef, 'configMapRef', 'name')));
    const value = at(cm, 'data', variable);
    if (typeof value === 'string') return value;
  }
  return undefined;
}

describe.each(['k8s/base', ...OVERLAYS])('kubectl kustomize %s', (dir) => {
  const docs = render(dir);
  const policies = docs.filter((d) => d.kind === 'NetworkPolicy');

  it("gives every caller's Deployment each declared URL, pointing at the callee's Service and port", () => {
    const problems: string[] = [];
    for (const c of CALLS) {
      const caller = podOf(docs, c.from);
      if (!caller) {
        problems.push(`${callName(c)}: no Deployment ${c.from}`);
        continue;
      }
      const value = envValue(docs, caller.container, c.variable);
      if (value !== urlOf(c.to))
        problems.push(
          `${callName(c)}: Deployment ${c.from} has ${c.variable}=${String(value)}, not ${urlOf(c.to)}`,
        );
      const svc = find(docs, 'Service', c.to);
      if (!objs(at(svc, 'spec', 'ports')).some((p) => p.port === portOf(c.to)))
        problems.push(`${callName(c)}: no Service ${c.to} on port ${portOf(c.to)}`);
    }
    expect(problems).toEqual([]);
  });

  it('NetworkPolicies allow every declared path: each call, the edge → gateway, Prometheus → every service', () => {
    const problems: string[] = [];
    if (policies.length === 0) problems.push('no NetworkPolicy');
    for (const c of CALLS) {
      const caller = podOf(docs, c.from);
      const callee = podOf(docs, c.to);
      if (!caller || !callee) {
        problems.push(`${callName(c)}: no Deployment ${caller ? c.to : c.from}`);
        continue;
      }
      if (!allows(policies, caller, callee, portOf(c.to)))
        problems.push(`${callName(c)}: no NetworkPolicy lets ${c.from} reach ${c.to}:${portOf(c.to)}`);
    }
    const { entry, monitoring } = DECLARATION;
    const gateway = podOf(docs, entry.to);
    if (!gateway || !allows(policies, { namespace: entry.namespace }, gateway, portOf(entry.to)))
      problems.push(`entry: no NetworkPolicy lets namespace ${entry.namespace} reach ${entry.to}`);
    for (const s of monitoring.scrapes) {
      const pod = podOf(docs, s);
      if (!pod || !allows(policies, { namespace: monitoring.namespace }, pod, portOf(s)))
        problems.push(`monitoring: no NetworkPolicy lets namespace ${monitoring.namespace} scrape ${s}`);
    }
    expect(problems).toEqual([]);
  });

  it('NetworkPolicies allow no undeclared path between the workloads, and the edge reaches only its target', () => {
    const problems: string[] = [];
    for (const from of WORKLOADS)
      for (const to of WORKLOADS) {
        const source = podOf(docs, from);
        const target = podOf(docs, to);
        if (!source || !target || from === to) continue;
        const declared = CALLS.some((c) => c.from === from && c.to === to);
        if (!declared && allows(policies, source, target, portOf(to)))
          problems.push(`${from} → ${to}: allowed but not declared in deploy/service-calls.json`);
      }
    for (const to of WORKLOADS.filter((w) => w !== DECLARATION.entry.to)) {
      const target = podOf(docs, to);
      if (target && allows(policies, { namespace: DECLARATION.entry.namespace }, target, portOf(to)))
        problems.push(`edge → ${to}: the edge proxy reaches more than ${DECLARATION.entry.to}`);
    }
    expect(problems).toEqual([]);
  });
});
