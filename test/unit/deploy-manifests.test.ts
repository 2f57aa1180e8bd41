/**
 * Static checks of everything that deploys the platform: the root Dockerfile, docker-compose.yml, k8s/
 * (kustomize components, base and overlays), the front-end nginx configuration and .dockerignore.
 *
 * No Docker engine or cluster is needed:
 * - k8s/ is rendered with `kubectl kustomize` (kubectl must be installed) and the rendered resources of the
 *   base and of every overlay are checked, so removing a probe, a limit or a replacement fails here; every
 *   rendered resource is validated against its schema (kubernetes-models, Gateway API, Prometheus Operator), and
 *   a kind without a schema fails; the edge (Gateway, HTTPRoutes) and the alert rules are checked for behaviour;
 * - the Dockerfile is parsed, and for each image docker-compose.yml builds, its build arguments are applied
 *   and its stages are replayed against the repository: COPY lines take their files from the build context
 *   (after .dockerignore), the Dockerfile's own image-contents.mjs is run to learn which workspaces are
 *   compiled and copied, and the runtime image's file list is checked against what the process needs
 *   (its entry point, every @tyres/* package it imports, the migration command in the gateway image).
 * Ports come from the table in docs/team-conventions.md, the single source of truth. Which process may call which
 * (compose variables, NetworkPolicies) is test/unit/service-calls.test.ts's, from deploy/service-calls.json.
 *
 * Each test collects every problem it finds and compares the list with [], so one run names them all.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..');
const rel = (p: string): string => path.relative(ROOT, p);
const read = (p: string): string => readFileSync(path.join(ROOT, p), 'utf8');

// ---------------------------------------------------------------------------------------------------
// Small typed accessors for parsed YAML (unknown in, narrowed out)

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function obj(v: unknown): Obj {
  return isObj(v) ? v : {};
}
function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
function objs(v: unknown): Obj[] {
  return arr(v).filter(isObj);
}
function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
/** Follow a path of keys through nested objects. */
function at(v: unknown, ...keys: string[]): unknown {
  let cur: unknown = v;
  for (const k of keys) cur = obj(cur)[k];
  return cur;
}

// ---------------------------------------------------------------------------------------------------
// What should be deployed

/** Service ports from the "Ports" table of docs/team-conventions.md. */
function conventionPorts(): Map<string, number> {
  const ports = new Map<string, number>();
  for (const line of read('docs/team-conventions.md').split('\n')) {
    const m = /^\|\s*(gateway|booking|jobs|billing|reporting|notify)\b[^|]*\|\s*(\d+)\s*\|/.exec(line);
    if (m?.[1] && m[2]) ports.set(m[1], Number(m[2]));
  }
  return ports;
}

const PORTS = conventionPorts();
const SERVICES = [...PORTS.keys()];
const FRONTENDS = ['shell', 'public', 'dashboard'];
const FRONTEND_PORT = 8080;
/** Stateless services that must autoscale (reporting may stay at one replica: docs/deployment.md). */
const SCALED = ['gateway', 'booking', 'jobs', 'billing', 'notify'];
const SECRET_NAME = 'tyres-secrets';
/**
 * Database credentials (docs/migrations.md, "Database roles"): each service connects as its own role
 * <service>_app, whose URL is the key DATABASE_URL of the Secret <service>-database; the administrator's URL is in
 * tyres-database-admin, for the migration Job alone.
 */
const DATABASE_ADMIN_SECRET = 'tyres-database-admin';
const DATABASE_KEY = 'DATABASE_URL';
const databaseSecret = (service: string): string => `${service}-database`;
/** The migrator's variable for a service's own URL (scripts/lib/database-roles.mjs, databaseUrlVariable). */
const databaseUrlVariable = (service: string): string => `${service.toUpperCase()}_DATABASE_URL`;
/** A service's app role (scripts/lib/database-roles.mjs, roleNames; no DATABASE_ROLE_PREFIX in the manifests). */
const appRole = (service: string): string => `${service}_app`;
const CONFIG_NAME = 'tyres-config';
/** The migration command, in the gateway image (compose service `migrate`, k8s Job `migrate`). */
const MIGRATE_COMMAND = ['node', '/app/scripts/db-migrate.mjs', 'deploy'];
/**
 * Health endpoints of every service (packages/service-kit): liveness /healthz never looks at another system;
 * readiness /readyz = this process can serve its own requests (its database, not draining). k8s probes and compose
 * healthchecks use exactly these.
 */
const LIVENESS_PATH = '/healthz';
const READINESS_PATH = '/readyz';
/** Where the edge proxy runs (deploy/service-calls.json, `entry`); test/unit/service-calls.test.ts checks the paths. */
const EDGE_NAMESPACE = String(at(JSON.parse(read('deploy/service-calls.json')), 'entry', 'namespace'));

/** A Gateway API / Prometheus duration ("300s", "1m30s", "500ms") in seconds; NaN when it is not one. */
function seconds(v: unknown): number {
  const text = String(v);
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  const parts = [...text.matchAll(/(\d+)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return Number.NaN;
  return parts.reduce((sum, p) => sum + Number(p[1]) * (units[p[2] ?? ''] ?? Number.NaN), 0);
}

function portOf(service: string): number {
  const port = PORTS.get(service);
  if (port === undefined) throw new Error(`no port for ${service} in docs/team-conventions.md`);
  return port;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...walk(full));
    else out.push(full);
  }
  return out;
}

function workspaceDirs(): string[] {
  const patterns = arr(JSON.parse(read('package.json')).workspaces).map(String);
  return patterns.flatMap((p) => {
    if (!p.endsWith('/*')) return existsSync(path.join(ROOT, p, 'package.json')) ? [p] : [];
    const base = p.slice(0, -2);
    return readdirSync(path.join(ROOT, base))
      .map((d) => `${base}/${d}`)
      .filter((d) => existsSync(path.join(ROOT, d, 'package.json')));
  });
}

// ---------------------------------------------------------------------------------------------------
// Kubernetes: the source files, and what `kubectl kustomize` renders from them

const K8S_DIR = path.join(ROOT, 'k8s');
const yamlFiles = existsSync(K8S_DIR) ? walk(K8S_DIR).filter((f) => /\.ya?ml$/.test(f)) : [];
const parseErrors: string[] = [];
const parsedFiles = new Map<string, Obj[]>();
for (const file of yamlFiles) {
  const list: Obj[] = [];
  for (const d of parseAllDocuments(readFileSync(file, 'utf8'), { merge: true })) {
    for (const e of d.errors) parseErrors.push(`${rel(file)}: ${e.message}`);
    const js: unknown = d.toJS();
    if (isObj(js)) list.push(js);
  }
  parsedFiles.set(file, list);
}

const isKustomization = (file: string): boolean => /^kustomization\.ya?ml$/.test(path.basename(file));
const kustomizations = yamlFiles.filter(isKustomization);
const kustomizationOf = (file: string): Obj => obj(parsedFiles.get(file)?.[0]);

const BASE_DIR = 'k8s/base';
const OVERLAY_DIRS = existsSync(path.join(K8S_DIR, 'overlays'))
  ? readdirSync(path.join(K8S_DIR, 'overlays'))
      .map((o) => `k8s/overlays/${o}`)
      .filter((d) => existsSync(path.join(ROOT, d, 'kustomization.yaml')))
  : [];
const RENDERED_DIRS = [BASE_DIR, ...OVERLAY_DIRS];

interface Render {
  dir: string;
  docs: Obj[];
  error?: string;
}

function kustomize(dir: string): Render {
  try {
    const out = execFileSync('kubectl', ['kustomize', dir], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 16 * 1024 * 1024,
    });
    const docs = parseAllDocuments(out)
      .map((d) => d.toJS() as unknown)
      .filter(isObj);
    return { dir, docs };
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    const error =
      e.code === 'ENOENT'
        ? 'kubectl is not installed: these checks render k8s/ with `kubectl kustomize`'
        : String(e.stderr || e.message).trim();
    return { dir, docs: [], error };
  }
}

const renders = new Map(RENDERED_DIRS.map((d) => [d, kustomize(d)]));
const rendered = (dir: string): Obj[] => renders.get(dir)?.docs ?? [];

const kindOf = (d: Obj): string => String(d.kind);
const nameOf = (d: Obj): string => String(at(d, 'metadata', 'name'));
const ofKind = (docs: Obj[], kind: string): Obj[] => docs.filter((d) => kindOf(d) === kind);
const find = (docs: Obj[], kind: string, name: string): Obj | undefined =>
  ofKind(docs, kind).find((d) => nameOf(d) === name);

function podSpec(workload: Obj): Obj {
  return obj(at(workload, 'spec', 'template', 'spec'));
}
function containersOf(workload: Obj): Obj[] {
  return objs(podSpec(workload).containers);
}
/** "registry.example.com/tyres/booking:1.0.0" -> "registry.example.com/tyres/booking" */
const imageName = (image: unknown): string => String(image).replace(/(:[^/:]+)?(@sha256:[0-9a-f]+)?$/, '');
/** An image reference names repository `repo` (e.g. tyres/booking), with or without a registry in front. */
const isImage = (image: unknown, repo: string): boolean =>
  imageName(image) === repo || imageName(image).endsWith(`/${repo}`);

/** Resolve a probe/targetPort (number or port name) against a container's declared ports. */
function resolvePort(ref: unknown, container: Obj): number | undefined {
  const ports = objs(container.ports);
  if (typeof ref === 'number') return ports.some((p) => p.containerPort === ref) ? ref : undefined;
  const named = ports.find((p) => p.name === ref);
  return typeof named?.containerPort === 'number' ? named.containerPort : undefined;
}

/** Kubernetes quantity to a number (cores or bytes) so limits can be compared with requests. */
function quantity(v: unknown): number {
  const s = String(v);
  const m = /^([0-9.]+)(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(s);
  if (!m?.[1]) return Number.NaN;
  const factor: Record<string, number> = {
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
  };
  return Number(m[1]) * (m[2] ? (factor[m[2]] ?? Number.NaN) : 1);
}

function labelsMatch(selector: unknown, labels: unknown): boolean {
  const sel = obj(selector);
  const lab = obj(labels);
  return Object.keys(sel).length > 0 && Object.entries(sel).every(([k, v]) => lab[k] === v);
}

/** Probes, ports, Service, ServiceAccount, resources and hardening of one Deployment. */
function checkWorkload(docs: Obj[], name: string, port: number, problems: string[]): void {
  const dep = find(docs, 'Deployment', name);
  if (!dep) {
    problems.push(`Deployment ${name}: missing`);
    return;
  }
  const pod = podSpec(dep);
  const containers = containersOf(dep);
  const main = containers[0];
  if (!main) {
    problems.push(`Deployment ${name}: no container`);
    return;
  }
  const where = `Deployment ${name}`;

  if (!objs(main.ports).some((p) => p.containerPort === port)) {
    problems.push(`${where}: no containerPort ${port}`);
  }
  for (const [probe, pathExpected] of [
    ['livenessProbe', LIVENESS_PATH],
    ['readinessProbe', READINESS_PATH],
  ] as const) {
    const httpGet = obj(at(main, probe, 'httpGet'));
    if (Object.keys(httpGet).length === 0) {
      problems.push(`${where}: no ${probe} (httpGet)`);
      continue;
    }
    if (httpGet.path !== pathExpected)
      problems.push(`${where}: ${probe} path ${String(httpGet.path)} != ${pathExpected}`);
    const resolved = resolvePort(httpGet.port, main);
    if (resolved !== port)
      problems.push(`${where}: ${probe} port ${String(httpGet.port)} is not containerPort ${port}`);
  }
  const startup = obj(at(main, 'startupProbe', 'httpGet'));
  if (Object.keys(startup).length > 0 && resolvePort(startup.port, main) !== port) {
    problems.push(`${where}: startupProbe port does not match containerPort ${port}`);
  }
  // A startup probe on readiness would restart a pod whose database is slow to come up; it is liveness's.
  if (Object.keys(startup).length > 0 && startup.path !== LIVENESS_PATH)
    problems.push(`${where}: startupProbe path ${String(startup.path)} != ${LIVENESS_PATH}`);

  // Service in front of it
  const svc = find(docs, 'Service', name);
  if (!svc) {
    problems.push(`Service ${name}: missing`);
  } else {
    if (!labelsMatch(at(svc, 'spec', 'selector'), at(dep, 'spec', 'template', 'metadata', 'labels'))) {
      problems.push(`Service ${name}: selector does not select the Deployment's pods`);
    }
    const svcPorts = objs(at(svc, 'spec', 'ports'));
    if (svcPorts.length === 0) problems.push(`Service ${name}: no ports`);
    for (const p of svcPorts) {
      const target = resolvePort(p.targetPort ?? p.port, main);
      if (target !== port)
        problems.push(`Service ${name}: targetPort ${String(p.targetPort)} is not containerPort ${port}`);
    }
  }

  if (
    !labelsMatch(
      at(dep, 'spec', 'selector', 'matchLabels'),
      at(dep, 'spec', 'template', 'metadata', 'labels'),
    )
  ) {
    problems.push(`${where}: selector does not match its pod template labels`);
  }
  for (const t of objs(pod.topologySpreadConstraints)) {
    if (
      !labelsMatch(at(t, 'labelSelector', 'matchLabels'), at(dep, 'spec', 'template', 'metadata', 'labels'))
    )
      problems.push(`${where}: a topologySpreadConstraint selects other pods than its own`);
  }

  // Its own ServiceAccount, and no API token in the pod
  const sa = find(docs, 'ServiceAccount', name);
  if (pod.serviceAccountName !== name) problems.push(`${where}: serviceAccountName is not ${name}`);
  if (!sa) problems.push(`ServiceAccount ${name}: missing`);
  else if (sa.automountServiceAccountToken !== false)
    problems.push(`ServiceAccount ${name}: automountServiceAccountToken is not false`);
  if (pod.automountServiceAccountToken !== false)
    problems.push(`${where}: automountServiceAccountToken is not false`);

  // Resources
  for (const c of containers) {
    for (const res of ['cpu', 'memory']) {
      const req = at(c, 'resources', 'requests', res);
      const lim = at(c, 'resources', 'limits', res);
      if (req === undefined) problems.push(`${where}/${String(c.name)}: no ${res} request`);
      if (lim === undefined) problems.push(`${where}/${String(c.name)}: no ${res} limit`);
      if (req !== undefined && lim !== undefined && !(quantity(lim) >= quantity(req))) {
        problems.push(`${where}/${String(c.name)}: ${res} limit ${String(lim)} below request ${String(req)}`);
      }
    }
  }

  // Security context (pod level and/or container level)
  const podSec = obj(pod.securityContext);
  if (pod.hostNetwork === true || pod.hostPID === true) problems.push(`${where}: uses the host namespaces`);
  for (const c of containers) {
    const cs = obj(c.securityContext);
    const cw = `${where}/${String(c.name)}`;
    const nonRoot = cs.runAsNonRoot ?? podSec.runAsNonRoot;
    if (nonRoot !== true) problems.push(`${cw}: runAsNonRoot is not true`);
    const uid = cs.runAsUser ?? podSec.runAsUser;
    if (uid === 0) problems.push(`${cw}: runAsUser 0`);
    if (cs.allowPrivilegeEscalation !== false) problems.push(`${cw}: allowPrivilegeEscalation is not false`);
    if (cs.readOnlyRootFilesystem !== true) problems.push(`${cw}: readOnlyRootFilesystem is not true`);
    if (cs.privileged === true) problems.push(`${cw}: privileged`);
    if (!arr(at(cs, 'capabilities', 'drop')).includes('ALL'))
      problems.push(`${cw}: capabilities do not drop ALL`);
    const seccomp = at(cs, 'seccompProfile', 'type') ?? at(podSec, 'seccompProfile', 'type');
    if (seccomp !== 'RuntimeDefault') problems.push(`${cw}: seccompProfile is not RuntimeDefault`);
    // A read-only root needs a writable /tmp
    const tmp = objs(c.volumeMounts).find((m) => m.mountPath === '/tmp');
    const vol = tmp && objs(pod.volumes).find((v) => v.name === tmp.name);
    if (!vol || !isObj(vol.emptyDir)) problems.push(`${cw}: no emptyDir mounted at /tmp`);
  }
}

/** The ConfigMap generated from k8s/base/config.env (its name carries a content hash). */
function configMap(docs: Obj[]): Obj | undefined {
  return ofKind(docs, 'ConfigMap').find((c) => nameOf(c).startsWith(`${CONFIG_NAME}-`));
}

const isMigrationJob = (workload: Obj): boolean =>
  kindOf(workload) === 'Job' &&
  containersOf(workload).some((c) => JSON.stringify(c.command) === JSON.stringify(MIGRATE_COMMAND));

/**
 * The Secret and key an environment variable of a workload must come from: a service's DATABASE_URL from its own
 * <service>-database; the migration Job's DATABASE_URL from the administrator's Secret and each
 * <SERVICE>_DATABASE_URL from that service's Secret; anything else from tyres-secrets, under its own name.
 */
function secretFor(workload: Obj, variable: string): { name: string; key: string } {
  const name = nameOf(workload);
  if (kindOf(workload) === 'Deployment' && SERVICES.includes(name) && variable === 'DATABASE_URL')
    return { name: databaseSecret(name), key: DATABASE_KEY };
  if (isMigrationJob(workload)) {
    if (variable === 'DATABASE_URL') return { name: DATABASE_ADMIN_SECRET, key: DATABASE_KEY };
    const service = SERVICES.find((s) => databaseUrlVariable(s) === variable);
    if (service) return { name: databaseSecret(service), key: DATABASE_KEY };
  }
  return { name: SECRET_NAME, key: variable };
}

/**
 * Every secretKeyRef of a pod reads the Secret and key secretFor names (so a service never sees the administrator's
 * or another service's database URL), envFrom takes only the shared Secret and the rendered ConfigMap.
 */
function checkConfigRefs(docs: Obj[], workload: Obj, problems: string[]): void {
  const where = `${kindOf(workload)} ${nameOf(workload)}`;
  const config = configMap(docs);
  for (const c of containersOf(workload)) {
    for (const e of objs(c.env)) {
      const ref = obj(at(e, 'valueFrom', 'secretKeyRef'));
      const expected = secretFor(workload, String(e.name));
      if (Object.keys(ref).length > 0 && (ref.name !== expected.name || ref.key !== expected.key)) {
        problems.push(
          `${where}: env ${String(e.name)} reads ${String(ref.name)}/${String(ref.key)}, not ${expected.name}/${expected.key}`,
        );
      }
      // Credentials never appear as literal values in a manifest.
      const credential = /SECRET|PASSWORD|PRIVATE_KEY|TOKEN|DATABASE_URL|AMQP_URL|REDIS_URL/.test(
        String(e.name),
      );
      if (typeof e.value === 'string' && credential) {
        problems.push(`${where}: ${String(e.name)} is a literal value; it belongs in ${SECRET_NAME}`);
      }
    }
    for (const ef of objs(c.envFrom)) {
      const cm = str(at(ef, 'configMapRef', 'name'));
      const sec = str(at(ef, 'secretRef', 'name'));
      if (cm !== undefined && (!config || cm !== nameOf(config)))
        problems.push(`${where}: envFrom ConfigMap ${cm}, not the generated ${CONFIG_NAME}`);
      if (sec !== undefined && sec !== SECRET_NAME)
        problems.push(`${where}: envFrom Secret ${sec}, not ${SECRET_NAME}`);
    }
  }
}

/** Placeholders of k8s/components that a missing replacement would leave in the output. */
function placeholders(docs: Obj[]): string[] {
  const found: string[] = [];
  const visit = (v: unknown, where: string): void => {
    if (Array.isArray(v)) v.forEach((x, i) => visit(x, `${where}[${i}]`));
    else if (isObj(v)) Object.entries(v).forEach(([k, x]) => visit(x, `${where}.${k}`));
    else if (/\bworkload\b/.test(String(v)) || /^--max-old-space-size=0$/.test(String(v)))
      found.push(`${where} = ${String(v)}`);
  };
  for (const d of docs) visit(d, `${kindOf(d)} ${nameOf(d)}`);
  for (const d of ofKind(docs, 'Deployment'))
    for (const c of containersOf(d))
      for (const p of objs(c.ports))
        if (p.containerPort === 0) found.push(`Deployment ${nameOf(d)}: containerPort 0`);
  for (const h of ofKind(docs, 'HorizontalPodAutoscaler'))
    if (at(h, 'spec', 'maxReplicas') === 0) found.push(`HPA ${nameOf(h)}: maxReplicas 0`);
  return found;
}

/** Runs test/unit/support/validate-k8s.mjs (the schema packages are ES modules, which jest cannot load). */
function validateAgainstSchemas(docs: Obj[]): { validated: number; problems: string[] } {
  const out = execFileSync(process.execPath, [path.join(__dirname, 'support', 'validate-k8s.mjs')], {
    cwd: ROOT,
    input: JSON.stringify(docs),
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(out) as { validated: number; problems: string[] };
}

/** A label selector (matchLabels + matchExpressions) against a set of labels. */
function selects(selector: unknown, labels: unknown): boolean {
  const lab = obj(labels);
  const byLabel = Object.entries(obj(at(selector, 'matchLabels'))).every(([k, v]) => lab[k] === v);
  const byExpression = objs(at(selector, 'matchExpressions')).every((e) => {
    const key = String(e.key);
    const values = arr(e.values);
    if (e.operator === 'In') return values.includes(lab[key]);
    if (e.operator === 'NotIn') return !values.includes(lab[key]);
    if (e.operator === 'Exists') return key in lab;
    if (e.operator === 'DoesNotExist') return !(key in lab);
    return false;
  });
  return byLabel && byExpression;
}

/** Source files (services and packages, no tests or generated code). */
const sourceFiles = (): string[] =>
  ['packages', 'services'].flatMap((top) =>
    readdirSync(path.join(ROOT, top))
      .map((d) => path.join(ROOT, top, d, 'src'))
      .filter((d) => existsSync(d))
      .flatMap((d) => walk(d))
      .filter(
        (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes(`${path.sep}generated${path.sep}`),
      ),
  );

/** Metric names the code registers with prom-client, plus Prometheus' own `up`. */
function exportedMetrics(): Set<string> {
  const names = new Set(['up']);
  for (const file of sourceFiles()) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('prom-client')) continue;
    for (const m of text.matchAll(/\bname:\s*'([a-z_:][a-z0-9_:]*)'/g)) if (m[1]) names.add(m[1]);
  }
  return names;
}

/** Names of the readiness checks, which are the `dependency` label values of dependency_up. */
function readinessCheckNames(): Set<string> {
  const names = new Set<string>();
  const runtime = read('packages/service-kit/src/runtime.ts');
  const block = /const readiness[^=]*=\s*\{([\s\S]*?)\n {2}\};/.exec(runtime)?.[1] ?? '';
  for (const m of block.matchAll(/^\s+(\w+):/gm)) if (m[1]) names.add(m[1]);
  for (const file of sourceFiles())
    for (const m of readFileSync(file, 'utf8').matchAll(/\breadiness\.(\w+)\s*=/g)) if (m[1]) names.add(m[1]);
  return names;
}

/** The values a `dependency="x"` / `dependency=~"a|b"` matcher of a PromQL expression selects among `known`. */
function dependencyMatches(expr: string, known: Set<string>): string[] {
  return [...expr.matchAll(/\bdependency\s*(=~|=)\s*"([^"]*)"/g)].flatMap((m) =>
    m[1] === '=~' ? [...known].filter((k) => new RegExp(`^(?:${m[2] ?? ''})$`).test(k)) : [m[2] ?? ''],
  );
}

describe('k8s sources', () => {
  it('parse: every YAML file under k8s/ is valid (multi-document), every resource has apiVersion/kind/name', () => {
    expect(yamlFiles.length).toBeGreaterThan(0);
    expect(parseErrors).toEqual([]);
    const problems: string[] = [];
    for (const [file, docs] of parsedFiles) {
      if (isKustomization(file)) continue;
      for (const d of docs) {
        if (
          typeof d.apiVersion !== 'string' ||
          typeof d.kind !== 'string' ||
          !str(at(d, 'metadata', 'name'))
        ) {
          problems.push(`${rel(file)}: a document without apiVersion/kind/metadata.name`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('ports: docs/team-conventions.md lists the six services', () => {
    expect([...PORTS.keys()].sort()).toEqual([
      'billing',
      'booking',
      'gateway',
      'jobs',
      'notify',
      'reporting',
    ]);
  });

  it('kustomizations and components: every listed file exists and every manifest beside them is used; examples and Secrets stay out', () => {
    expect(kustomizations.some((k) => k.includes(`${path.sep}overlays${path.sep}`))).toBe(true);
    expect(kustomizations.some((k) => kustomizationOf(k).kind === 'Component')).toBe(true);
    const problems: string[] = [];
    for (const kfile of kustomizations) {
      const dir = path.dirname(kfile);
      const k = kustomizationOf(kfile);
      if (k.kind !== 'Kustomization' && k.kind !== 'Component')
        problems.push(`${rel(kfile)}: kind is neither Kustomization nor Component`);
      const listed = new Set<string>();
      for (const r of [...arr(k.resources), ...arr(k.components)]) {
        const target = path.resolve(dir, String(r));
        listed.add(target);
        if (!existsSync(target)) {
          problems.push(`${rel(kfile)}: ${String(r)} does not exist`);
        } else if (statSync(target).isDirectory() && !existsSync(path.join(target, 'kustomization.yaml'))) {
          problems.push(`${rel(kfile)}: directory ${String(r)} has no kustomization.yaml`);
        } else if (statSync(target).isFile()) {
          for (const d of parsedFiles.get(target) ?? []) {
            if (d.kind === 'Secret') problems.push(`${rel(kfile)}: ${String(r)} commits a Secret`);
          }
        }
      }
      for (const gen of [...objs(k.configMapGenerator), ...objs(k.secretGenerator)]) {
        for (const f of [...arr(gen.envs), ...arr(gen.files)].map(String)) {
          const file = path.resolve(dir, f.includes('=') ? f.slice(f.indexOf('=') + 1) : f);
          if (!existsSync(file))
            problems.push(`${rel(kfile)}: generator ${String(gen.name)} reads missing ${f}`);
        }
      }
      for (const p of objs(k.patches)) {
        if (typeof p.path === 'string' && !existsSync(path.resolve(dir, p.path))) {
          problems.push(`${rel(kfile)}: patch ${p.path} does not exist`);
        }
      }
      // Every manifest beside a kustomization is used by it, except examples, which must not be.
      for (const file of yamlFiles.filter((f) => path.dirname(f) === dir && !isKustomization(f))) {
        const isExample = /\.example\.ya?ml$/.test(file);
        if (isExample && listed.has(file))
          problems.push(`${rel(kfile)}: lists the example ${path.basename(file)}`);
        if (!isExample && !listed.has(file))
          problems.push(`${rel(kfile)}: does not list ${path.basename(file)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('secret.example.yaml lists exactly the Secrets and keys the workloads read; each database Secret connects as its service role', () => {
    const problems: string[] = [];
    const example = new Map<string, Obj>();
    for (const d of parsedFiles.get(path.join(K8S_DIR, 'base', 'secret.example.yaml')) ?? [])
      if (d.kind === 'Secret') example.set(nameOf(d), obj(d.stringData));
    const readKeys = new Map<string, Set<string>>();
    for (const d of rendered(BASE_DIR))
      for (const c of containersOf(d))
        for (const e of objs(c.env)) {
          const ref = obj(at(e, 'valueFrom', 'secretKeyRef'));
          if (typeof ref.name !== 'string') continue;
          readKeys.set(ref.name, (readKeys.get(ref.name) ?? new Set()).add(String(ref.key)));
        }
    for (const [name, keys] of readKeys) {
      const data = example.get(name);
      if (!data) problems.push(`secret.example.yaml: no Secret ${name}`);
      else for (const k of keys) if (!(k in data)) problems.push(`secret.example.yaml: ${name} lacks ${k}`);
    }
    for (const [name, data] of example) {
      const keys = readKeys.get(name);
      if (!keys) problems.push(`secret.example.yaml: Secret ${name} is read by no workload`);
      else
        for (const k of Object.keys(data))
          if (!keys.has(k)) problems.push(`secret.example.yaml: ${name}/${k} is read by no workload`);
    }
    // One Secret per service, plus the administrator's: seven database Secrets.
    for (const name of [DATABASE_ADMIN_SECRET, ...SERVICES.map(databaseSecret)])
      if (!example.has(name)) problems.push(`secret.example.yaml: no Secret ${name}`);
    for (const service of SERVICES) {
      const url = str(example.get(databaseSecret(service))?.[DATABASE_KEY]) ?? '';
      const user = URL.canParse(url) ? new URL(url).username : undefined;
      if (user !== appRole(service))
        problems.push(
          `secret.example.yaml: ${databaseSecret(service)} connects as ${user}, not ${appRole(service)}`,
        );
    }
    expect(problems).toEqual([]);
  });

  it('each workload folder of the base instantiates the shared components with only its values and patches', () => {
    const problems: string[] = [];
    const expected = [
      ...SERVICES.map((s) => ({ name: s, component: 'node-service' })),
      ...FRONTENDS.map((f) => ({ name: `frontend-${f}`, component: 'static-site' })),
    ];
    const baseResources = arr(kustomizationOf(path.join(ROOT, BASE_DIR, 'kustomization.yaml')).resources);
    for (const { name, component } of expected) {
      const dir = path.join(ROOT, BASE_DIR, name);
      const where = `${BASE_DIR}/${name}`;
      if (!baseResources.includes(name))
        problems.push(`${BASE_DIR}/kustomization.yaml: does not list ${name}`);
      if (!existsSync(path.join(dir, 'kustomization.yaml'))) {
        problems.push(`${where}: no kustomization.yaml`);
        continue;
      }
      const k = kustomizationOf(path.join(dir, 'kustomization.yaml'));
      if (!arr(k.components).includes(`../../components/${component}`))
        problems.push(`${where}: does not use k8s/components/${component}`);
      // The folder declares no Kubernetes resource of its own: only the local values the components read.
      for (const r of arr(k.resources).map(String)) {
        for (const d of parsedFiles.get(path.join(dir, r)) ?? []) {
          if (d.kind !== 'Values')
            problems.push(`${where}/${r}: declares a ${String(d.kind)}; use the components`);
          else {
            if (nameOf(d) !== name) problems.push(`${where}/${r}: Values named ${nameOf(d)}, not ${name}`);
            if (at(d, 'metadata', 'annotations', 'config.kubernetes.io/local-config') !== 'true')
              problems.push(`${where}/${r}: Values without config.kubernetes.io/local-config: 'true'`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe.each(RENDERED_DIRS)('k8s rendered: kubectl kustomize %s', (dir) => {
  const docs = rendered(dir);
  const isOverlay = dir !== BASE_DIR;

  it('renders, without duplicates, local values or leftover placeholders', () => {
    expect(renders.get(dir)?.error).toBeUndefined();
    expect(docs.length).toBeGreaterThan(0);
    const problems: string[] = [];
    const ids = docs.map((d) => `${kindOf(d)}/${nameOf(d)}`);
    for (const id of new Set(ids)) if (ids.filter((x) => x === id).length > 1) problems.push(`${id}: twice`);
    for (const d of docs) {
      if (typeof d.apiVersion !== 'string' || !str(at(d, 'metadata', 'name')))
        problems.push(`${kindOf(d)}: no apiVersion or name`);
      if (d.kind === 'Values') problems.push(`Values ${nameOf(d)}: rendered (it must be local-config)`);
      if (d.kind === 'Secret')
        problems.push(`Secret ${nameOf(d)}: rendered (Secrets are created out of band)`);
    }
    problems.push(...placeholders(docs));
    expect(problems).toEqual([]);
  });

  it('services: probes on the declared port, Service targetPort, own ServiceAccount, resources, non-root hardening', () => {
    const problems: string[] = [];
    for (const service of SERVICES) checkWorkload(docs, service, portOf(service), problems);
    expect(problems).toEqual([]);
  });

  it('front ends: probes on 8080, Service targetPort, own ServiceAccount, resources, non-root hardening', () => {
    const problems: string[] = [];
    for (const fe of FRONTENDS) checkWorkload(docs, `frontend-${fe}`, FRONTEND_PORT, problems);
    expect(problems).toEqual([]);
  });

  it('services: PORT env, image, Service port, metrics port, config from the ConfigMap and secrets from the Secret', () => {
    const problems: string[] = [];
    if (!configMap(docs)) problems.push(`ConfigMap ${CONFIG_NAME}-<hash>: not rendered`);
    for (const service of SERVICES) {
      const port = portOf(service);
      const dep = find(docs, 'Deployment', service);
      const main = dep ? containersOf(dep)[0] : undefined;
      if (!dep || !main) continue; // reported by the probe test
      const env = objs(main.env);
      if (env.find((e) => e.name === 'PORT')?.value !== String(port))
        problems.push(`Deployment ${service}: PORT env is not "${port}"`);
      if (!isImage(main.image, `tyres/${service}`))
        problems.push(`Deployment ${service}: image ${String(main.image)} is not tyres/${service}`);
      if (!objs(at(find(docs, 'Service', service), 'spec', 'ports')).some((p) => p.port === port))
        problems.push(`Service ${service}: does not listen on ${port}`);
      if (at(dep, 'spec', 'template', 'metadata', 'annotations', 'prometheus.io/port') !== String(port))
        problems.push(`Deployment ${service}: prometheus.io/port is not "${port}"`);
      if (!objs(main.envFrom).some((ef) => at(ef, 'configMapRef', 'name') === nameOf(configMap(docs) ?? {})))
        problems.push(`Deployment ${service}: no envFrom ConfigMap ${CONFIG_NAME}`);
      const needed = ['DATABASE_URL', 'AMQP_URL', 'REDIS_URL', 'INTERNAL_JWT_PUBLIC_KEY'];
      if (service === 'gateway') needed.push('SESSION_SECRET', 'INTERNAL_JWT_PRIVATE_KEY', 'ADMIN_PASSWORD');
      // Production billing refuses to start without the webhook's signing secret.
      if (service === 'billing') needed.push('STRIPE_WEBHOOK_SECRET');
      // Required keys are never `optional`: a missing one keeps the pod from starting, naming the key.
      for (const key of needed) {
        const { name: secret, key: secretKey } = secretFor(dep, key);
        const fromSecret =
          env.some(
            (e) =>
              e.name === key &&
              at(e, 'valueFrom', 'secretKeyRef', 'name') === secret &&
              at(e, 'valueFrom', 'secretKeyRef', 'key') === secretKey &&
              at(e, 'valueFrom', 'secretKeyRef', 'optional') !== true,
          ) ||
          (secret === SECRET_NAME &&
            !env.some((e) => e.name === key) &&
            objs(main.envFrom).some((ef) => at(ef, 'secretRef', 'name') === SECRET_NAME));
        if (!fromSecret)
          problems.push(`Deployment ${service}: ${key} not from ${secret}/${secretKey} (required)`);
      }
      const names = env.map((e) => String(e.name));
      for (const n of new Set(names))
        if (names.filter((x) => x === n).length > 1) problems.push(`Deployment ${service}: env ${n} twice`);
    }
    for (const fe of FRONTENDS) {
      const c = containersOf(find(docs, 'Deployment', `frontend-${fe}`) ?? {})[0];
      if (c && !isImage(c.image, `tyres/frontend-${fe}`))
        problems.push(`Deployment frontend-${fe}: image ${String(c.image)} is not tyres/frontend-${fe}`);
    }
    for (const d of docs.filter((x) => ['Deployment', 'Job'].includes(kindOf(x))))
      checkConfigRefs(docs, d, problems);
    expect(problems).toEqual([]);
  });

  it('config: every *_URL of the ConfigMap points at an existing Service and port', () => {
    const data = obj(configMap(docs)?.data);
    const problems: string[] = [];
    const expected = [
      ...SERVICES.filter((s) => s !== 'gateway').map((s) => `${s.toUpperCase()}_URL`),
      'SHELL_URL',
      'PUBLIC_REMOTE_URL',
      'DASHBOARD_REMOTE_URL',
    ];
    for (const key of expected) if (!(key in data)) problems.push(`${CONFIG_NAME}: ${key} missing`);
    for (const [key, value] of Object.entries(data)) {
      if (!key.endsWith('_URL')) continue;
      const m = /^http:\/\/([a-z0-9-]+):(\d+)\/?$/.exec(String(value));
      if (!m?.[1]) {
        problems.push(`${CONFIG_NAME}: ${key}=${String(value)} is not http://<service>:<port>`);
        continue;
      }
      const svc = find(docs, 'Service', m[1]);
      if (!svc || !objs(at(svc, 'spec', 'ports')).some((p) => p.port === Number(m[2]))) {
        problems.push(`${CONFIG_NAME}: ${key}=${String(value)} matches no Service port`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('autoscaling: every HPA targets an existing Deployment; the stateless services scale and have a PDB', () => {
    const problems: string[] = [];
    const hpas = ofKind(docs, 'HorizontalPodAutoscaler');
    for (const hpa of hpas) {
      const where = `HPA ${nameOf(hpa)}`;
      if (hpa.apiVersion !== 'autoscaling/v2') problems.push(`${where}: apiVersion is not autoscaling/v2`);
      const ref = obj(at(hpa, 'spec', 'scaleTargetRef'));
      const dep = ref.kind === 'Deployment' ? find(docs, 'Deployment', String(ref.name)) : undefined;
      if (!dep || ref.apiVersion !== 'apps/v1') {
        problems.push(
          `${where}: scaleTargetRef ${String(ref.kind)} ${String(ref.name)} is not an existing apps/v1 Deployment`,
        );
        continue;
      }
      if (at(dep, 'spec', 'replicas') !== undefined) {
        problems.push(
          `${where}: Deployment ${String(ref.name)} sets spec.replicas, which fights the HPA on every apply`,
        );
      }
      const min = Number(at(hpa, 'spec', 'minReplicas') ?? 1);
      const max = Number(at(hpa, 'spec', 'maxReplicas'));
      if (!(min >= 2 && max > min)) problems.push(`${where}: minReplicas ${min} / maxReplicas ${max}`);
      const cpu = objs(at(hpa, 'spec', 'metrics')).some(
        (m) => m.type === 'Resource' && at(m, 'resource', 'name') === 'cpu',
      );
      if (!cpu) problems.push(`${where}: no CPU metric`);
      const pdb = ofKind(docs, 'PodDisruptionBudget').find((p) =>
        labelsMatch(
          at(p, 'spec', 'selector', 'matchLabels'),
          at(dep, 'spec', 'template', 'metadata', 'labels'),
        ),
      );
      if (!pdb) problems.push(`${where}: no PodDisruptionBudget for Deployment ${String(ref.name)}`);
      else if (Number(at(pdb, 'spec', 'minAvailable') ?? 0) >= min) {
        problems.push(`PDB ${nameOf(pdb)}: minAvailable must stay below minReplicas ${min} or drains block`);
      }
    }
    const targets = hpas.map((h) => String(at(h, 'spec', 'scaleTargetRef', 'name')));
    for (const s of SCALED)
      if (!targets.includes(s)) problems.push(`Deployment ${s}: no HorizontalPodAutoscaler`);
    // A PDB with minAvailable >= the replicas of a Deployment without an HPA would block every node drain.
    for (const pdb of ofKind(docs, 'PodDisruptionBudget')) {
      const dep = ofKind(docs, 'Deployment').find((d) =>
        labelsMatch(
          at(pdb, 'spec', 'selector', 'matchLabels'),
          at(d, 'spec', 'template', 'metadata', 'labels'),
        ),
      );
      if (!dep) problems.push(`PDB ${nameOf(pdb)}: selects no Deployment`);
      else if (
        !targets.includes(nameOf(dep)) &&
        Number(at(pdb, 'spec', 'minAvailable')) >= Number(at(dep, 'spec', 'replicas') ?? 1)
      )
        problems.push(`PDB ${nameOf(pdb)}: minAvailable is not below Deployment ${nameOf(dep)}'s replicas`);
    }
    expect(problems).toEqual([]);
  });

  it('edge: Gateway API (no Ingress); https terminates TLS, http only redirects, every route reaches the gateway Service; WebSocket without a deadline', () => {
    const problems: string[] = [];
    for (const i of ofKind(docs, 'Ingress'))
      problems.push(`Ingress ${nameOf(i)}: ingress-nginx is retired; route with an HTTPRoute`);
    const gateways = ofKind(docs, 'Gateway');
    const routes = ofKind(docs, 'HTTPRoute');
    if (gateways.length === 0) problems.push('no Gateway');
    if (routes.length === 0) problems.push('no HTTPRoute');
    for (const g of [...gateways, ...routes])
      if (g.apiVersion !== 'gateway.networking.k8s.io/v1')
        problems.push(`${kindOf(g)} ${nameOf(g)}: apiVersion is not gateway.networking.k8s.io/v1`);
    const listenersOf = (g: Obj): Obj[] => objs(at(g, 'spec', 'listeners'));
    for (const g of gateways)
      for (const l of listenersOf(g)) {
        const where = `Gateway ${nameOf(g)} listener ${String(l.name)}`;
        if (l.protocol === 'HTTPS') {
          if ((at(l, 'tls', 'mode') ?? 'Terminate') !== 'Terminate')
            problems.push(`${where}: TLS not terminated`);
          if (objs(at(l, 'tls', 'certificateRefs')).length === 0) problems.push(`${where}: no certificate`);
        } else if (l.protocol !== 'HTTP') problems.push(`${where}: protocol ${String(l.protocol)}`);
        if (at(l, 'allowedRoutes', 'namespaces', 'from') !== 'Same')
          problems.push(`${where}: accepts routes from other namespaces`);
      }

    const gatewayPorts = objs(at(find(docs, 'Service', 'gateway'), 'spec', 'ports')).map((p) => p.port);
    /** The listeners a route attaches to (all of a Gateway's when the parentRef names no section). */
    const attached = (r: Obj): Obj[] =>
      objs(at(r, 'spec', 'parentRefs')).flatMap((ref) => {
        const g =
          (ref.kind ?? 'Gateway') === 'Gateway' ? find(gateways, 'Gateway', String(ref.name)) : undefined;
        const ls = g
          ? listenersOf(g).filter((l) => ref.sectionName === undefined || l.name === ref.sectionName)
          : [];
        if (ls.length === 0)
          problems.push(
            `HTTPRoute ${nameOf(r)}: parentRef ${JSON.stringify(ref)} matches no Gateway listener`,
          );
        return ls;
      });
    const httpsRules: Obj[] = [];
    let redirects = false;
    for (const r of routes) {
      const listeners = attached(r);
      const plain = listeners.some((l) => l.protocol === 'HTTP');
      if (plain && listeners.some((l) => l.protocol === 'HTTPS'))
        problems.push(`HTTPRoute ${nameOf(r)}: attached to http and https listeners at once`);
      for (const rule of objs(at(r, 'spec', 'rules'))) {
        for (const b of objs(rule.backendRefs)) {
          if ((b.kind ?? 'Service') !== 'Service' || (b.group ?? '') !== '' || b.name !== 'gateway')
            problems.push(`HTTPRoute ${nameOf(r)}: backend ${String(b.name)} is not the gateway Service`);
          if (!gatewayPorts.includes(b.port))
            problems.push(
              `HTTPRoute ${nameOf(r)}: backend port ${String(b.port)} is not a gateway Service port`,
            );
        }
        if (plain) {
          const toHttps = objs(rule.filters).some(
            (f) => f.type === 'RequestRedirect' && at(f, 'requestRedirect', 'scheme') === 'https',
          );
          if (!toHttps || objs(rule.backendRefs).length > 0)
            problems.push(`HTTPRoute ${nameOf(r)}: serves plain http instead of redirecting to https`);
          else redirects = true;
        } else httpsRules.push(rule);
      }
    }
    if (gateways.some((g) => listenersOf(g).some((l) => l.protocol === 'HTTP')) && !redirects)
      problems.push('no http → https redirect');

    // The routing table on https: everything to the gateway, the WebSocket on its own rule.
    const ruleFor = (prefix: string): Obj | undefined =>
      httpsRules.find((rule) =>
        objs(rule.matches).some(
          (m) => at(m, 'path', 'type') === 'PathPrefix' && at(m, 'path', 'value') === prefix,
        ),
      );
    const catchAll = ruleFor('/');
    const ws = ruleFor('/ws/notifications');
    if (!catchAll) problems.push('no PathPrefix / rule on https');
    else {
      // A slow 30 MiB photo upload may take the gateway's whole receive window (Node's requestTimeout, 300 s).
      const request = at(catchAll, 'timeouts', 'request');
      if (request === undefined || !(seconds(request) === 0 || seconds(request) >= 300))
        problems.push(`/: request timeout ${String(request)} (unset = the implementation's, Envoy's 15 s)`);
    }
    if (!ws) problems.push('no PathPrefix /ws/notifications rule on https');
    else if (at(ws, 'timeouts', 'request') === undefined || seconds(at(ws, 'timeouts', 'request')) !== 0)
      problems.push(
        '/ws/notifications: a request timeout would cut open dashboard sockets (set request: 0s)',
      );

    if (isOverlay) {
      // Real hosts: one TLS listener each, the routes serve exactly them, and the gateway accepts their origins.
      const tlsHosts = gateways.flatMap((g) =>
        listenersOf(g)
          .filter((l) => l.protocol === 'HTTPS')
          .map((l) => l.hostname),
      );
      if (tlsHosts.some((h) => typeof h !== 'string')) problems.push('an HTTPS listener without a hostname');
      const routeHosts = routes
        .filter((r) => attached(r).some((l) => l.protocol === 'HTTPS'))
        .flatMap((r) => arr(at(r, 'spec', 'hostnames')));
      if (JSON.stringify([...new Set(routeHosts)].sort()) !== JSON.stringify([...new Set(tlsHosts)].sort()))
        problems.push(
          `HTTPRoute hostnames ${routeHosts.join(', ')} are not the TLS hosts ${tlsHosts.join(', ')}`,
        );
      const origins = String(obj(configMap(docs)?.data).ALLOWED_ORIGINS ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
      const expectedOrigins = [...new Set(tlsHosts)].map((h) => `https://${String(h)}`);
      if (JSON.stringify([...origins].sort()) !== JSON.stringify(expectedOrigins.sort()))
        problems.push(`ALLOWED_ORIGINS ${origins.join(',')} is not ${expectedOrigins.join(',')}`);
    }
    expect(problems).toEqual([]);
  });

  it('schemas: every rendered resource validates against the Kubernetes, Gateway API or Prometheus Operator schema; no kind goes unchecked', () => {
    const result = validateAgainstSchemas(docs);
    expect(result.problems).toEqual([]);
    expect(result.validated).toBe(docs.length);
  });

  it('monitoring: a PodMonitor scrapes every service; alerts on dependency_up (database, broker, Redis), 5xx rate, with metrics the code exports', () => {
    const problems: string[] = [];
    const monitors = ofKind(docs, 'PodMonitor');
    for (const service of SERVICES) {
      const dep = find(docs, 'Deployment', service);
      const main = dep ? containersOf(dep)[0] : undefined;
      if (!dep || !main) continue; // reported by the probe test
      const labels = at(dep, 'spec', 'template', 'metadata', 'labels');
      const scraped = monitors.some(
        (m) =>
          selects(at(m, 'spec', 'selector'), labels) &&
          objs(at(m, 'spec', 'podMetricsEndpoints')).some(
            (e) => resolvePort(e.port, main) === portOf(service) && e.path === '/metrics',
          ),
      );
      if (!scraped) problems.push(`${service}: no PodMonitor scrapes /metrics on port ${portOf(service)}`);
    }

    const alerts = ofKind(docs, 'PrometheusRule').flatMap((r) =>
      objs(at(r, 'spec', 'groups')).flatMap((g) =>
        objs(g.rules).filter((rule) => typeof rule.alert === 'string'),
      ),
    );
    const metrics = exportedMetrics();
    const checks = readinessCheckNames();
    for (const a of alerts) {
      const where = `alert ${String(a.alert)}`;
      const expr = String(a.expr ?? '');
      if (!['critical', 'warning'].includes(String(at(a, 'labels', 'severity'))))
        problems.push(`${where}: severity is not critical or warning`);
      if (!str(at(a, 'annotations', 'summary')) || !str(at(a, 'annotations', 'description')))
        problems.push(`${where}: no summary or description`);
      for (const m of expr.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{/g)) {
        const name = String(m[1]).replace(/_(count|sum|bucket)$/, '');
        if (!metrics.has(name) && !metrics.has(String(m[1])))
          problems.push(`${where}: metric ${String(m[1])} is not exported by any service`);
      }
      for (const m of expr.matchAll(/\bdependency\s*(=~|=)\s*"([^"]*)"/g))
        for (const value of String(m[2]).split('|'))
          if (!checks.has(value)) problems.push(`${where}: no readiness check is named ${value}`);
    }
    // One alert per dependency, held for minutes (a restart's blip is not an alert).
    for (const dependency of ['database', 'broker', 'redis']) {
      const a = alerts.find(
        (rule) =>
          String(rule.expr).includes('dependency_up') &&
          dependencyMatches(String(rule.expr), checks).includes(dependency),
      );
      if (!a) problems.push(`no alert on dependency_up for ${dependency}`);
      else if (!(seconds(a.for) >= 60))
        problems.push(`alert ${String(a.alert)}: for ${String(a.for)} (< 1m)`);
    }
    if (!alerts.some((a) => /http_request_duration_seconds_count\{[^}]*status=~"5/.test(String(a.expr))))
      problems.push('no alert on the 5xx rate (http_request_duration_seconds_count{status=~"5.."})');
    expect(problems).toEqual([]);
  });

  it("migration Job: gateway image, the migration command, the administrator's and every service's database URL, production, hardened, never restarted in place", () => {
    const problems: string[] = [];
    const job = ofKind(docs, 'Job').find(isMigrationJob);
    if (!job) {
      problems.push(`no Job running ${JSON.stringify(MIGRATE_COMMAND)}`);
    } else {
      const c = containersOf(job)[0] ?? {};
      if (!isImage(c.image, 'tyres/gateway')) problems.push('migration Job: image is not tyres/gateway');
      if (podSpec(job).restartPolicy !== 'Never') problems.push('migration Job: restartPolicy is not Never');
      // The administrator's URL, and each service's own: the migrator sets each app role's password from it.
      const fromSecret = (variable: string, secret: string): boolean =>
        objs(c.env).some(
          (e) =>
            e.name === variable &&
            at(e, 'valueFrom', 'secretKeyRef', 'name') === secret &&
            at(e, 'valueFrom', 'secretKeyRef', 'key') === DATABASE_KEY &&
            at(e, 'valueFrom', 'secretKeyRef', 'optional') !== true,
        );
      if (!fromSecret('DATABASE_URL', DATABASE_ADMIN_SECRET))
        problems.push(`migration Job: DATABASE_URL not from ${DATABASE_ADMIN_SECRET}`);
      for (const service of SERVICES)
        if (!fromSecret(databaseUrlVariable(service), databaseSecret(service)))
          problems.push(
            `migration Job: ${databaseUrlVariable(service)} not from ${databaseSecret(service)} (required)`,
          );
      // With NODE_ENV=production the migrator refuses to run without every service's password.
      if (objs(c.env).find((e) => e.name === 'NODE_ENV')?.value !== 'production')
        problems.push('migration Job: NODE_ENV is not production');
      const cs = obj(c.securityContext);
      const ps = obj(podSpec(job).securityContext);
      if ((cs.runAsNonRoot ?? ps.runAsNonRoot) !== true)
        problems.push('migration Job: runAsNonRoot is not true');
      if (cs.allowPrivilegeEscalation !== false)
        problems.push('migration Job: allowPrivilegeEscalation is not false');
      if (cs.readOnlyRootFilesystem !== true)
        problems.push('migration Job: readOnlyRootFilesystem is not true');
      if (at(c, 'resources', 'limits', 'memory') === undefined)
        problems.push('migration Job: no memory limit');
    }
    expect(problems).toEqual([]);
  });

  it('network policy: ingress is denied by default and the gateway is the only pod the edge proxy reaches', () => {
    const problems: string[] = [];
    const policies = ofKind(docs, 'NetworkPolicy');
    const denyAll = policies.find(
      (p) =>
        Object.keys(obj(at(p, 'spec', 'podSelector'))).length === 0 &&
        arr(at(p, 'spec', 'ingress')).length === 0,
    );
    if (!denyAll || !arr(at(denyAll, 'spec', 'policyTypes')).includes('Ingress'))
      problems.push('no default-deny ingress policy');
    for (const p of policies) {
      const fromEdge = objs(at(p, 'spec', 'ingress')).some((rule) =>
        objs(rule.from).some(
          (f) => at(f, 'namespaceSelector', 'matchLabels', 'kubernetes.io/metadata.name') === EDGE_NAMESPACE,
        ),
      );
      if (fromEdge && at(p, 'spec', 'podSelector', 'matchLabels', 'app.kubernetes.io/name') !== 'gateway') {
        problems.push(
          `NetworkPolicy ${nameOf(p)}: lets the edge proxy reach something other than the gateway`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  if (isOverlay)
    it('overlay: pins every image, and its patches and image overrides match base resources', () => {
      const problems: string[] = [];
      const base = rendered(BASE_DIR);
      const k = kustomizationOf(path.join(ROOT, dir, 'kustomization.yaml'));
      for (const p of objs(k.patches)) {
        const kind = str(at(p, 'target', 'kind'));
        const name = str(at(p, 'target', 'name'));
        if (kind && name && !find(base, kind, name))
          problems.push(`${dir}: patch targets missing ${kind} ${name}`);
      }
      const baseImages = base.flatMap((d) => containersOf(d).map((c) => imageName(c.image).split(':')[0]));
      for (const img of objs(k.images)) {
        if (!baseImages.includes(String(img.name)))
          problems.push(`${dir}: image override ${String(img.name)} matches no container`);
      }
      for (const d of docs)
        for (const c of containersOf(d))
          if (/:local$/.test(String(c.image)) || !String(c.image).includes('/tyres/'))
            problems.push(
              `${kindOf(d)} ${nameOf(d)}: image ${String(c.image)} is not pinned to a registry and tag`,
            );
      expect(problems).toEqual([]);
    });
});

// ---------------------------------------------------------------------------------------------------
// The Dockerfile: parsed, then replayed per image against the build context

interface Instruction {
  keyword: string;
  args: string;
  /** Bodies of the instruction's here-documents (COPY <<'EOF' /path ...). */
  heredocs: string[];
}
interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}
interface Dockerfile {
  globalArgs: Map<string, string | undefined>;
  stages: Stage[];
}

/** Instructions (comments dropped, line continuations joined, here-documents attached), split into stages. */
function parseDockerfile(text: string): Dockerfile {
  const lines = text.split('\n');
  const instructions: Instruction[] = [];
  let i = 0;
  while (i < lines.length) {
    if (/^\s*(#.*)?$/.test(lines[i] ?? '')) {
      i++;
      continue;
    }
    let logical = '';
    while (i < lines.length) {
      const raw = (lines[i++] ?? '').replace(/\s+$/, '');
      if (/^\s*#/.test(raw)) continue; // a comment inside a continuation
      if (!raw.endsWith('\\')) {
        logical += raw;
        break;
      }
      logical += `${raw.slice(0, -1)} `;
    }
    const m = /^\s*(\S+)\s*(.*)$/.exec(logical);
    if (!m?.[1]) continue;
    const keyword = m[1].toUpperCase();
    const args = (m[2] ?? '').trim();
    const heredocs: string[] = [];
    if (['RUN', 'COPY', 'ADD'].includes(keyword)) {
      for (const h of args.matchAll(/<<(-?)(['"]?)([A-Za-z_]\w*)\2/g)) {
        const body: string[] = [];
        while (i < lines.length && (h[1] ? lines[i]?.trim() : lines[i]) !== h[3]) body.push(lines[i++] ?? '');
        i++;
        heredocs.push(`${body.join('\n')}\n`);
      }
    }
    instructions.push({ keyword, args, heredocs });
  }
  const globalArgs = new Map<string, string | undefined>();
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const f = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?/i.exec(ins.args);
      stages.push({ name: f?.[2] ?? String(stages.length), from: f?.[1] ?? '', instructions: [] });
    } else if (stages.length === 0) {
      if (ins.keyword === 'ARG') for (const [k, v] of argDecls(ins.args)) globalArgs.set(k, v);
    } else {
      stages[stages.length - 1]?.instructions.push(ins);
    }
  }
  return { globalArgs, stages };
}

/** "A=1 B" -> [["A", "1"], ["B", undefined]] */
function argDecls(args: string): [string, string | undefined][] {
  return args
    .split(/\s+/)
    .filter(Boolean)
    .map((d) => {
      const eq = d.indexOf('=');
      return eq < 0 ? [d, undefined] : [d.slice(0, eq), d.slice(eq + 1).replace(/^(['"])(.*)\1$/, '$2')];
    });
}

/** ${VAR} / $VAR -> value, for the variables that are known; other text (shell variables) is left as is. */
function substitute(text: string, vars: Map<string, string>): string {
  return text.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (whole, a?: string, b?: string) => vars.get(a ?? b ?? '') ?? whole,
  );
}

/** .dockerignore as a predicate on repo-relative paths (a path is out if it or a parent folder matches). */
function dockerignore(): (relPath: string) => boolean {
  const patterns = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((p) => {
      // Docker's matching: `*` and `?` stay within one path segment, `**` spans any number of them.
      const segments = p.replace(/^\/+|\/+$/g, '').split('/');
      const re = segments
        .map((seg, i) => {
          const last = i === segments.length - 1;
          if (seg === '**') return last ? '.*' : '(?:[^/]+/)*';
          const part = seg
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '[^/]*')
            .replace(/\?/g, '[^/]');
          return last ? part : `${part}/`;
        })
        .join('');
      return new RegExp(`^${re}$`);
    });
  return (relPath) => {
    const parts = relPath.split('/');
    for (let n = 1; n <= parts.length; n++) {
      const prefix = parts.slice(0, n).join('/');
      if (patterns.some((re) => re.test(prefix))) return true;
    }
    return false;
  };
}

/** Every file of the build context: the repository minus .dockerignore. */
function buildContext(): string[] {
  const ignored = dockerignore();
  const out: string[] = [];
  const visit = (dir: string): void => {
    for (const name of readdirSync(path.join(ROOT, dir))) {
      const relPath = dir ? `${dir}/${name}` : name;
      if (ignored(relPath)) continue;
      const full = path.join(ROOT, relPath);
      if (statSync(full).isDirectory()) visit(relPath);
      else out.push(relPath);
    }
  };
  visit('');
  return out;
}

const globRegex = (glob: string): RegExp =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]')}$`,
  );

/** A file of an image under construction: where its content comes from. */
type Origin = { context: string } | { text: string } | { built: string };

interface StageState {
  files: Map<string, Origin>;
  env: Map<string, string>;
  workdir: string;
  user?: string;
  expose: number[];
  healthcheck?: string;
  cmd?: string;
  /** npm ci runs: their flags and the --workspace list. */
  npmCi: { args: string; workspaces: string[] }[];
  /** Output of image-contents.mjs per mode, as the RUN lines used it. */
  contents: Map<string, string[]>;
}

interface Simulation {
  stages: Map<string, StageState>;
  problems: string[];
}

const CONTEXT = buildContext();
const CONTEXT_SET = new Set(CONTEXT);
const DOCKERFILE = existsSync(path.join(ROOT, 'Dockerfile'))
  ? parseDockerfile(read('Dockerfile'))
  : undefined;

/** The stages `target` needs (FROM parents and COPY --from sources), in file order. */
function neededStages(df: Dockerfile, target: string): Stage[] {
  const needed = new Set<string>();
  const visit = (name: string): void => {
    const stage = df.stages.find((s) => s.name === name);
    if (!stage || needed.has(name)) return;
    needed.add(name);
    visit(stage.from);
    for (const ins of stage.instructions) {
      const from = /--from=(\S+)/.exec(ins.args)?.[1];
      if (ins.keyword === 'COPY' && from) visit(from);
    }
  };
  visit(target);
  return df.stages.filter((s) => needed.has(s.name));
}

/** Run the Dockerfile's image-contents.mjs (a here-document) against the repository. */
function runContentsScript(source: string, mode: string, env: Map<string, string>): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'image-contents-'));
  try {
    const file = path.join(dir, 'image-contents.mjs');
    writeFileSync(file, source);
    const out = execFileSync(process.execPath, [file, mode], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ...Object.fromEntries(env) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return out.split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What `tsc -b <workspace>` writes: <outDir>/**.js for every .ts/.tsx under <rootDir> in the stage. */
function compile(state: StageState, workspace: string, problems: string[]): void {
  const tsconfigPath = `/app/${workspace}/tsconfig.json`;
  const origin = state.files.get(tsconfigPath);
  if (!origin || !('context' in origin)) {
    problems.push(`tsc -b ${workspace}: no tsconfig.json in the build stage`);
    return;
  }
  const options = obj(obj(JSON.parse(read(origin.context))).compilerOptions);
  const rootDir = `/app/${workspace}/${String(options.rootDir ?? 'src')}/`;
  const outDir = `/app/${workspace}/${String(options.outDir ?? '')}/`;
  if (options.outDir === undefined) problems.push(`${workspace}/tsconfig.json: no outDir`);
  let emitted = 0;
  for (const file of [...state.files.keys()]) {
    if (!file.startsWith(rootDir) || !/\.tsx?$/.test(file) || file.endsWith('.d.ts')) continue;
    state.files.set(outDir + file.slice(rootDir.length).replace(/\.tsx?$/, '.js'), { built: file });
    emitted++;
  }
  if (emitted === 0) problems.push(`tsc -b ${workspace}: no sources under ${rootDir} in the build stage`);
}

/** Replay the stages `target` needs with these build arguments: files, image settings, problems. */
function simulate(df: Dockerfile, target: string, buildArgs: Record<string, string>): Simulation {
  const stages = new Map<string, StageState>();
  const problems: string[] = [];
  const globals = new Map<string, string>();
  for (const [k, v] of df.globalArgs) {
    const value = buildArgs[k] ?? v;
    if (value !== undefined) globals.set(k, value);
  }
  for (const stage of neededStages(df, target)) {
    const fromName = substitute(stage.from, globals);
    const parent = stages.get(fromName);
    const state: StageState = parent
      ? {
          ...parent,
          files: new Map(parent.files),
          env: new Map(parent.env),
          expose: [...parent.expose],
          npmCi: [],
          contents: new Map(),
        }
      : { files: new Map(), env: new Map(), workdir: '/', expose: [], npmCi: [], contents: new Map() };
    const args = new Map<string, string>();
    const vars = (): Map<string, string> => new Map([...args, ...state.env]);
    const where = `stage ${stage.name}`;
    for (const ins of stage.instructions) {
      const text = substitute(ins.args, vars());
      switch (ins.keyword) {
        case 'ARG':
          for (const [k, def] of argDecls(ins.args)) {
            const value = buildArgs[k] ?? def ?? (df.globalArgs.has(k) ? globals.get(k) : undefined);
            if (value !== undefined) args.set(k, value);
            else args.delete(k);
          }
          break;
        case 'ENV':
          for (const m of text.matchAll(/(\w+)=("[^"]*"|\S*)/g))
            state.env.set(m[1] ?? '', (m[2] ?? '').replace(/^"|"$/g, ''));
          break;
        case 'WORKDIR':
          state.workdir = path.posix.resolve(state.workdir, text);
          break;
        case 'USER':
          state.user = text;
          break;
        case 'EXPOSE':
          state.expose.push(...text.split(/\s+/).map((p) => Number(p.split('/')[0])));
          break;
        case 'HEALTHCHECK':
          state.healthcheck = ins.args;
          break;
        case 'CMD':
          state.cmd = ins.args;
          break;
        case 'COPY': {
          const tokens = text.split(/\s+/).filter(Boolean);
          const flags = tokens.filter((t) => t.startsWith('--'));
          const operands = tokens.filter((t) => !t.startsWith('--'));
          const dest = operands.pop() ?? '';
          const destAbs = path.posix.resolve(state.workdir, dest);
          if (ins.heredocs.length > 0) {
            state.files.set(destAbs, { text: ins.heredocs[0] ?? '' });
            break;
          }
          const fromStage = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
          const parents = flags.includes('--parents');
          for (const src of operands) {
            let copied = 0;
            const put = (target2: string, origin: Origin): void => {
              state.files.set(target2, origin);
              copied++;
            };
            if (fromStage !== undefined) {
              const source = stages.get(fromStage);
              const srcAbs = path.posix.resolve('/', src);
              for (const [file, origin] of source?.files ?? []) {
                if (file === srcAbs)
                  put(dest.endsWith('/') ? `${destAbs}/${path.posix.basename(file)}` : destAbs, origin);
                else if (file.startsWith(`${srcAbs.replace(/\/$/, '')}/`))
                  put(path.posix.join(destAbs, file.slice(srcAbs.replace(/\/$/, '').length)), origin);
              }
            } else if (/[*?]/.test(src) || parents) {
              const re = globRegex(src.replace(/^\.\//, ''));
              for (const file of CONTEXT)
                if (re.test(file))
                  put(
                    parents
                      ? path.posix.join(destAbs, file)
                      : path.posix.join(destAbs, path.posix.basename(file)),
                    {
                      context: file,
                    },
                  );
              if (copied === 0 && !/[*?]/.test(src))
                problems.push(`${where}: COPY ${src}: not in the build context`);
              continue;
            } else {
              const srcRel = src.replace(/^\.\/?/, '').replace(/\/$/, '');
              if (CONTEXT_SET.has(srcRel))
                put(dest.endsWith('/') ? `${destAbs}/${path.posix.basename(srcRel)}` : destAbs, {
                  context: srcRel,
                });
              else
                for (const file of CONTEXT)
                  if (file.startsWith(`${srcRel}/`))
                    put(path.posix.join(destAbs, file.slice(srcRel.length + 1)), { context: file });
            }
            if (copied === 0)
              problems.push(
                `${where}: COPY ${fromStage ? `--from=${fromStage} ` : ''}${src}: nothing to copy`,
              );
          }
          break;
        }
        case 'RUN': {
          // Shell variables set from image-contents.mjs:  name="$(node /opt/image-contents.mjs <mode>)"
          const shellVars = new Map<string, string[]>();
          for (const m of text.matchAll(/(\w+)="\$\(node (\S+) (\w+)\)"/g)) {
            const script = state.files.get(m[2] ?? '');
            if (!script || !('text' in script)) {
              problems.push(`${where}: RUN uses ${m[2]}, which the stage does not have`);
              continue;
            }
            try {
              const lines = runContentsScript(script.text, m[3] ?? '', vars());
              shellVars.set(m[1] ?? '', lines);
              state.contents.set(m[3] ?? '', lines);
            } catch (err) {
              problems.push(
                `${where}: ${m[2]} ${m[3]} fails: ${String((err as { stderr?: string }).stderr ?? err).trim()}`,
              );
            }
          }
          if (/\bnpm ci\b/.test(text)) {
            const ws = /--workspace=%s '\s+\$(\w+)/.exec(text)?.[1];
            state.npmCi.push({ args: text, workspaces: ws ? (shellVars.get(ws) ?? []) : [] });
          }
          // A front end's webpack build writes <front end>/dist (output.path in frontends/platform/webpack).
          const webpack = /npm run build --workspace "?(frontends\/[\w-]+)"?/.exec(text)?.[1];
          if (webpack) state.files.set(`/app/${webpack}/dist/(webpack output)`, { built: webpack });
          const tsc = /tsc -b \$(\w+)/.exec(text)?.[1];
          if (tsc) for (const ws of shellVars.get(tsc) ?? []) compile(state, ws, problems);
          const cp = /cp -R --parents \$(\w+) (\S+)/.exec(text);
          if (cp?.[1] && cp[2]) {
            const destDir = path.posix.resolve(state.workdir, cp[2]);
            for (const p of shellVars.get(cp[1]) ?? []) {
              const srcAbs = path.posix.resolve(state.workdir, p);
              const matches = [...state.files].filter(([f]) => f === srcAbs || f.startsWith(`${srcAbs}/`));
              if (matches.length === 0)
                problems.push(`${where}: cp ${p}: not in the build stage (the build fails)`);
              for (const [f, origin] of matches)
                state.files.set(path.posix.join(destDir, path.posix.relative(state.workdir, f)), origin);
            }
          }
          break;
        }
        default:
          break;
      }
    }
    stages.set(stage.name, state);
  }
  return { stages, problems };
}

/** `@tyres/<name>` packages a workspace's source imports (tests excluded). */
function tyresImports(workspace: string): Set<string> {
  const names = new Set<string>();
  const src = path.join(ROOT, workspace, 'src');
  if (!existsSync(src)) return names;
  for (const file of walk(src)) {
    if (!/\.(ts|tsx|mts|js|mjs)$/.test(file) || /\.test\.|\.d\.ts$/.test(file)) continue;
    for (const m of readFileSync(file, 'utf8').matchAll(
      /(?:from\s+|import\(\s*|require\(\s*)['"](@tyres\/[a-z0-9-]+)/g,
    ))
      if (m[1]) names.add(m[1]);
  }
  return names;
}

/** Relative imports of a plain-Node script, recursively: every file `node <entry>` loads from the repo. */
function scriptClosure(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry) || !existsSync(path.join(ROOT, entry))) return seen;
  seen.add(entry);
  for (const m of read(entry).matchAll(/(?:from\s+|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g))
    scriptClosure(path.posix.normalize(path.posix.join(path.posix.dirname(entry), m[1] ?? '')), seen);
  return seen;
}

/** The image compose builds as `name`: checks its Dockerfile target and build arguments, returns the arguments. */
function composeBuildArgs(
  name: string,
  target: string,
  expected: Record<string, string>,
  problems: string[],
): Record<string, string> {
  const build = obj(at(composeServices[name], 'build'));
  if (build.target !== target)
    problems.push(`docker-compose.yml ${name}: build target ${String(build.target)} is not "${target}"`);
  const args = Object.fromEntries(Object.entries(obj(build.args)).map(([k, v]) => [k, String(v)]));
  for (const [k, v] of Object.entries(expected))
    if (args[k] !== v)
      problems.push(`docker-compose.yml ${name}: build arg ${k} is ${String(args[k])}, not ${v}`);
  return args;
}

function exec(json: string | undefined): unknown {
  try {
    return JSON.parse(json ?? '');
  } catch {
    return undefined;
  }
}

/** Checks every runtime stage shares: non-root USER, EXPOSE, healthcheck, exec forms that are valid JSON. */
function checkRuntime(state: StageState | undefined, port: number, where: string, problems: string[]): void {
  if (!state) {
    problems.push(`${where}: no runtime stage`);
    return;
  }
  if (!state.user) problems.push(`${where}: final stage sets no USER`);
  else if (/^(root|0)(:|$)/.test(state.user)) problems.push(`${where}: final USER is root`);
  if (!state.expose.includes(port))
    problems.push(`${where}: EXPOSE ${state.expose.join(',') || 'nothing'} != ${port}`);
  const health = state.healthcheck ?? '';
  if (!/\/healthz/.test(health) || /^NONE/i.test(health))
    problems.push(`${where}: no HEALTHCHECK on /healthz`);
  const healthPort = health.includes('process.env.PORT')
    ? state.env.get('PORT')
    : /127\.0\.0\.1:(\d+)/.exec(health)?.[1];
  if (healthPort !== String(port))
    problems.push(`${where}: HEALTHCHECK probes port ${String(healthPort)}, not ${port}`);
  // An exec form that is not valid JSON silently becomes a shell command: reject it.
  for (const [name, form] of [
    ['HEALTHCHECK', health.replace(/^(--\S+\s+)*CMD\s+/, '')],
    ['CMD', state.cmd ?? ''],
  ]) {
    if (form?.startsWith('[') && exec(form) === undefined)
      problems.push(`${where}: ${name} exec form is not valid JSON`);
  }
}

describe('Dockerfile', () => {
  const df = DOCKERFILE;

  it('one Dockerfile at the root, and none per service or front end', () => {
    expect(df).toBeDefined();
    const copies = [
      ...SERVICES.map((s) => `services/${s}/Dockerfile`),
      ...FRONTENDS.map((f) => `frontends/${f}/Dockerfile`),
    ];
    expect(copies.filter((f) => existsSync(path.join(ROOT, f)))).toEqual([]);
  });

  it('npm ci sees the lockfile and every workspace package.json; installs run without scripts', () => {
    const problems: string[] = [];
    if (!df) return;
    const sim = simulate(df, 'deps', {});
    problems.push(...sim.problems);
    const deps = sim.stages.get('deps');
    for (const f of ['package.json', 'package-lock.json', ...workspaceDirs().map((w) => `${w}/package.json`)])
      if (!deps?.files.has(`/app/${f}`)) problems.push(`deps: npm ci runs without ${f}`);
    if (!deps?.npmCi.some((n) => /--ignore-scripts/.test(n.args)))
      problems.push('deps: no npm ci --ignore-scripts');
    expect(problems).toEqual([]);
  });

  it.each(SERVICES)(
    'service image %s: multi-stage, non-root, EXPOSE = port, healthcheck, node dist/main.js, every file it needs',
    (service) => {
      const problems: string[] = [];
      if (!df) return;
      const port = portOf(service);
      const args = composeBuildArgs(service, 'service', { SERVICE: service, PORT: String(port) }, problems);
      const sim = simulate(df, 'service', args);
      problems.push(...sim.problems);
      const runtime = sim.stages.get('service');
      const where = `image ${service}`;
      checkRuntime(runtime, port, where, problems);
      if (!runtime) {
        expect(problems).toEqual([]);
        return;
      }
      const chain = neededStages(df, 'service');
      if (chain.length < 2) problems.push(`${where}: not multi-stage`);
      if (runtime.env.get('NODE_ENV') !== 'production')
        problems.push(`${where}: runtime without NODE_ENV=production`);
      if (runtime.env.get('PORT') !== String(port)) problems.push(`${where}: ENV PORT is not ${port}`);

      // The runtime's own FROM chain never ran a full (dev) install: its node_modules come from prod-deps.
      let stage = df.stages.find((s) => s.name === 'service');
      while (stage) {
        for (const ins of stage.instructions)
          if (ins.keyword === 'RUN' && /\bnpm ci\b/.test(ins.args) && !/--omit=dev/.test(ins.args))
            problems.push(`${where}: the runtime stage's base ${stage.name} runs a full npm ci`);
        const from = stage.from;
        stage = df.stages.find((s) => s.name === from);
      }
      const prod = sim.stages.get('prod-deps')?.npmCi ?? [];
      if (!prod.some((n) => /--omit=dev/.test(n.args) && /--ignore-scripts/.test(n.args)))
        problems.push(`${where}: production dependencies not installed with --omit=dev --ignore-scripts`);
      if (
        !chain.some((s) =>
          s.instructions.some(
            (i) => i.keyword === 'RUN' && i.args.includes('node scripts/prisma-generate.mjs'),
          ),
        )
      )
        problems.push(`${where}: no Prisma generate`);

      // The process: `node dist/main.js` in /app/services/<name>.
      const cmd = exec(runtime.cmd);
      if (JSON.stringify(cmd) !== JSON.stringify(['node', 'dist/main.js']))
        problems.push(`${where}: CMD ${String(runtime.cmd)} is not ["node","dist/main.js"] (exec form)`);
      if (runtime.workdir !== `/app/services/${service}`)
        problems.push(`${where}: WORKDIR ${runtime.workdir} is not /app/services/${service}`);
      const files = runtime.files;
      const entry = path.posix.resolve(runtime.workdir, 'dist/main.js');
      if (!files.has(entry)) problems.push(`${where}: ${entry} is not in the image`);

      // Every @tyres/* package the code imports (transitively) is declared, installed and compiled in.
      const folders = new Map(
        workspaceDirs().map((w) => [String(JSON.parse(read(`${w}/package.json`)).name), w]),
      );
      const prodWorkspaces = new Set(prod.flatMap((n) => n.workspaces));
      const visit = (workspace: string, seen: Set<string>): void => {
        if (seen.has(workspace)) return;
        seen.add(workspace);
        if (!prodWorkspaces.has(workspace))
          problems.push(`${where}: production install leaves out ${workspace}`);
        const declared = obj(JSON.parse(read(`${workspace}/package.json`)).dependencies);
        for (const name of tyresImports(workspace)) {
          const dir = folders.get(name);
          if (!dir) {
            problems.push(`${where}: ${workspace} imports ${name}, which is no workspace`);
            continue;
          }
          if (!(name in declared))
            problems.push(`${where}: ${workspace} imports ${name} without declaring it in package.json`);
          const main = String(JSON.parse(read(`${dir}/package.json`)).main ?? 'index.js');
          for (const f of [`/app/${dir}/package.json`, `/app/${dir}/${main}`])
            if (!files.has(f))
              problems.push(`${where}: ${f} (for ${name}, imported by ${workspace}) is not in the image`);
          visit(dir, seen);
        }
      };
      visit(`services/${service}`, new Set());

      // No sources, no tests, no front ends' code in a service image.
      for (const f of files.keys())
        if (
          /^\/app\/[^/]+\/[^/]+\/(src|test)\//.test(f) ||
          /^\/app\/frontends\/[^/]+\/(?!package\.json$)/.test(f)
        ) {
          problems.push(`${where}: ships ${f}`);
          break;
        }

      // The gateway image is also the migration image.
      const migrator = (df.globalArgs.get('MIGRATOR') ?? '') === service;
      const migrateScript = MIGRATE_COMMAND[1] ?? '';
      if (migrator) {
        for (const f of scriptClosure(path.posix.relative('/app', migrateScript)))
          if (!files.has(`/app/${f}`)) problems.push(`${where}: migration command needs /app/${f}`);
        if (!files.has('/app/packages/prisma-tools/dist/index.js'))
          problems.push(`${where}: prisma-tools dist missing`);
        if ([...files.keys()].some((f) => f.startsWith('/app/packages/prisma-tools/src/')))
          problems.push(`${where}: prisma-tools src/ in the image (bin/load.mjs would try tsx)`);
        for (const s of readdirSync(path.join(ROOT, 'services'))) {
          for (const f of CONTEXT.filter((c) => c.startsWith(`services/${s}/prisma/`)))
            if (!files.has(`/app/${f}`)) problems.push(`${where}: migrations need /app/${f}`);
        }
      } else if (files.has(migrateScript)) {
        problems.push(
          `${where}: carries the migration command (only the ${String(df.globalArgs.get('MIGRATOR'))} image does)`,
        );
      }
      expect(problems).toEqual([]);
    },
  );

  it.each(FRONTENDS)(
    'front-end image %s: webpack build with every shared source, nginx-unprivileged on 8080, non-root, healthcheck, its nginx config',
    (fe) => {
      const problems: string[] = [];
      if (!df) return;
      const args = composeBuildArgs(`frontend-${fe}`, 'frontend', { FRONTEND: fe }, problems);
      const sim = simulate(df, 'frontend', args);
      problems.push(...sim.problems);
      const where = `image frontend-${fe}`;
      const runtime = sim.stages.get('frontend');
      checkRuntime(runtime, FRONTEND_PORT, where, problems);
      const runtimeStage = df.stages.find((s) => s.name === 'frontend');
      const base = substitute(
        runtimeStage?.from ?? '',
        new Map([...df.globalArgs].map(([k, v]) => [k, v ?? ''])),
      );
      if (!/nginx-unprivileged/.test(base))
        problems.push(`${where}: runtime is not nginx-unprivileged (${base})`);
      const files = runtime?.files ?? new Map<string, Origin>();
      const origin = (f: string): string | undefined => {
        const o = files.get(f);
        return o && 'context' in o ? o.context : undefined;
      };
      if (origin('/etc/nginx/nginx.conf') !== 'frontends/nginx.conf')
        problems.push(`${where}: does not install frontends/nginx.conf`);
      if (origin('/etc/nginx/conf.d/default.conf') !== `frontends/${fe}/nginx.conf`)
        problems.push(`${where}: does not install frontends/${fe}/nginx.conf`);

      // The build: npm run build of this front end, with every workspace source webpack aliases.
      const buildStage = df.stages.find((s) => s.name === 'frontend-build');
      const build = sim.stages.get('frontend-build');
      const runs = (buildStage?.instructions ?? [])
        .filter((i) => i.keyword === 'RUN')
        .map((i) => substitute(i.args, new Map([['FRONTEND', fe]])));
      if (
        !runs.some(
          (r) =>
            r.includes(`npm run build --workspace "frontends/${fe}"`) ||
            r.includes(`npm run build --workspace frontends/${fe}`),
        )
      )
        problems.push(`${where}: does not build frontends/${fe}`);
      const copiesDist = (runtimeStage?.instructions ?? []).some(
        (i) =>
          i.keyword === 'COPY' &&
          substitute(i.args, new Map([['FRONTEND', fe]])).includes(
            `--from=frontend-build /app/frontends/${fe}/dist /srv/www`,
          ),
      );
      if (!copiesDist) problems.push(`${where}: does not serve the built frontends/${fe}/dist from /srv/www`);
      const webpackFiles = CONTEXT.filter((f) =>
        /^frontends\/[^/]+\/(webpack[^/]*\.js|webpack\/[^/]+\.js)$/.test(f),
      );
      const sourceDirs = new Set<string>();
      for (const f of webpackFiles)
        for (const m of read(f).matchAll(/path\.resolve\(__dirname,\s*'([^']+)'\)/g)) {
          const target2 = path.posix.normalize(path.posix.join(path.posix.dirname(f), m[1] ?? ''));
          if (target2.startsWith('packages/')) sourceDirs.add(target2);
        }
      if (sourceDirs.size === 0) problems.push('frontends: found no webpack alias of a workspace source');
      if (!/path: path\.join\(dir, 'dist'\)/.test(read('frontends/platform/webpack/common.js')))
        problems.push('frontends/platform/webpack/common.js: webpack no longer writes <front end>/dist');
      for (const dir of [...sourceDirs, `frontends/${fe}`, 'frontends/platform']) {
        const needed = CONTEXT.filter((c) => c.startsWith(`${dir}/`));
        const missing = needed.filter((c) => !build?.files.has(`/app/${c}`));
        if (needed.length === 0 || missing.length > 0)
          problems.push(`${where}: the build stage lacks ${dir}/ (${missing.length || 'all'} files)`);
      }
      expect(problems).toEqual([]);
    },
  );

  it('nginx: read-only-root friendly, cache policy, security headers, shell SPA fallback, remotes under their prefix', () => {
    const problems: string[] = [];
    /** Config text without comments (a comment mentioning add_header is not an add_header). */
    const nginx = (file: string): string =>
      read(file)
        .split('\n')
        .map((l) => l.replace(/(^|\s)#.*$/, ''))
        .join('\n');
    const main = nginx('frontends/nginx.conf');
    if (!/^\s*pid\s+\/tmp\//m.test(main)) problems.push('frontends/nginx.conf: pid not in /tmp');
    for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
      if (!new RegExp(`${t}_temp_path\\s+/tmp/`).test(main))
        problems.push(`frontends/nginx.conf: ${t}_temp_path not in /tmp`);
    }
    for (const h of [
      'X-Content-Type-Options',
      'X-Frame-Options',
      'Referrer-Policy',
      'Permissions-Policy',
      'Cache-Control',
    ]) {
      if (!new RegExp(`add_header\\s+${h}\\b`).test(main))
        problems.push(`frontends/nginx.conf: no ${h} header`);
    }
    const noCache = main
      .split('\n')
      .filter((l) => /"no-cache"/.test(l))
      .join('\n');
    for (const f of ['remoteEntry', 'mf-manifest', 'html'])
      if (!noCache.includes(f)) problems.push(`frontends/nginx.conf: ${f} is not no-cache`);
    if (!/max-age=31536000,\s*immutable/.test(main))
      problems.push('frontends/nginx.conf: no long cache for hashed assets');

    for (const fe of FRONTENDS) {
      const file = `frontends/${fe}/nginx.conf`;
      const conf = nginx(file);
      if (!/listen\s+8080\b/.test(conf)) problems.push(`${file}: does not listen on 8080`);
      if (/add_header/.test(conf))
        problems.push(`${file}: add_header here would drop the inherited security headers`);
      if (!/location\s*=\s*\/healthz/.test(conf)) problems.push(`${file}: no /healthz`);
      if (!/location\s*=\s*\/readyz/.test(conf)) problems.push(`${file}: no /readyz`);
      // The shell serves prerendered pages first, then falls back to the neutral app.html (index.html is
      // the prerendered landing page, so it must not answer unknown routes).
      const spa = /try_files[^;]*\/(?:index|app)\.html\s*;/.test(conf);
      if (fe === 'shell' && !/try_files\s+\$uri\s+\$uri\/index\.html\s+\/app\.html\s*;/.test(conf))
        problems.push(`${file}: no prerendered-page lookup with SPA fallback to /app.html`);
      if (fe !== 'shell') {
        if (spa) problems.push(`${file}: a remote must 404 unknown files, not answer index.html`);
        if (!conf.includes(`/remotes/${fe}`)) problems.push(`${file}: not served under /remotes/${fe}/`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('.dockerignore keeps host artefacts and secrets out of the build context', () => {
    const lines = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['**/node_modules', '**/dist', '.env', '.git']) expect(lines).toContain(entry);
    const leaked = CONTEXT.filter(
      (f) => /(^|\/)(node_modules|dist)\//.test(f) || /^\.env($|\.)/.test(f) || f.startsWith('.git/'),
    );
    expect(leaked).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------
// docker-compose.yml

const composeText = existsSync(path.join(ROOT, 'docker-compose.yml')) ? read('docker-compose.yml') : '';
const compose = obj(parse(composeText, { merge: true }));
const composeServices = obj(compose.services);

/** "${X:-d}" -> "d": the value Compose uses when nothing is set. */
const withDefaults = (s: string): string => s.replace(/\$\{[A-Z0-9_]+:?-([^}]*)\}/g, '$1');

function publishedPorts(service: Obj): { host: number; container: number }[] {
  return arr(service.ports).map((p) => {
    if (isObj(p)) return { host: Number(p.published), container: Number(p.target) };
    const parts = withDefaults(String(p)).split(':');
    return { container: Number(parts[parts.length - 1]), host: Number(parts[parts.length - 2]) };
  });
}

function healthcheckText(service: Obj): string {
  const test = at(service, 'healthcheck', 'test');
  return Array.isArray(test) ? test.map(String).join(' ') : String(test ?? '');
}

describe('docker-compose.yml', () => {
  it('parses and has infra with healthchecks and volumes (redis noeviction)', () => {
    const problems: string[] = [];
    const images: Record<string, RegExp> = {
      postgres: /^postgres:16/,
      rabbitmq: /^rabbitmq:3[.-].*management/,
      redis: /^redis:7/,
    };
    for (const [name, image] of Object.entries(images)) {
      const s = obj(composeServices[name]);
      if (!image.test(String(s.image))) problems.push(`${name}: image ${String(s.image)}`);
      if (healthcheckText(s) === '' || at(s, 'healthcheck', 'disable') === true)
        problems.push(`${name}: no healthcheck`);
      if (arr(s.volumes).length === 0) problems.push(`${name}: no volume (data lost on re-create)`);
      if (s.depends_on !== undefined) problems.push(`${name}: infra must start on its own`);
    }
    const redisCommand = JSON.stringify(obj(composeServices.redis).command ?? '');
    if (!/maxmemory-policy.*noeviction/.test(redisCommand))
      problems.push('redis: not started with --maxmemory-policy noeviction');
    expect(problems).toEqual([]);
  });

  it('interpolates without secrets, so `docker compose up -d postgres rabbitmq redis` works with no .env', () => {
    // ${VAR:?msg} / ${VAR?msg} are evaluated for the whole file, whatever services are selected.
    const required = composeText
      .split('\n')
      .filter((l) => !l.trim().startsWith('#') && /\$\{[A-Za-z0-9_]+:?\?/.test(l));
    expect(required).toEqual([]);
  });

  it('runs the migrations once, from the gateway image, before every service', () => {
    const problems: string[] = [];
    const migrate = obj(composeServices.migrate);
    const gateway = obj(composeServices.gateway);
    if (JSON.stringify(migrate.command) !== JSON.stringify(MIGRATE_COMMAND))
      problems.push(`migrate: command is not ${JSON.stringify(MIGRATE_COMMAND)}`);
    if (migrate.image !== gateway.image) problems.push('migrate: not the gateway image');
    if (migrate.build !== undefined && JSON.stringify(migrate.build) !== JSON.stringify(gateway.build))
      problems.push('migrate: built differently from the gateway');
    if (String(migrate.restart ?? 'no') !== 'no') problems.push('migrate: must not restart (one-shot)');
    if (at(migrate, 'depends_on', 'postgres', 'condition') !== 'service_healthy')
      problems.push('migrate: does not wait for postgres');
    expect(problems).toEqual([]);
  });

  it("database: each service connects as its own role with its own password variable; migrate alone gets the administrator, with every service's URL", () => {
    const problems: string[] = [];
    const example = existsSync(path.join(ROOT, '.env.example')) ? read('.env.example') : '';
    const postgresEnv = obj(at(composeServices.postgres, 'environment'));
    const database = String(postgresEnv.POSTGRES_DB);
    const migrateEnv = obj(at(composeServices.migrate, 'environment'));
    const admin = String(migrateEnv.DATABASE_URL ?? '');
    const adminUrl = URL.canParse(withDefaults(admin)) ? new URL(withDefaults(admin)) : undefined;
    if (
      adminUrl?.username !== String(postgresEnv.POSTGRES_USER) ||
      adminUrl.host !== 'postgres:5432' ||
      adminUrl.pathname !== `/${database}`
    )
      problems.push(`migrate: DATABASE_URL ${admin} is not the administrator of postgres:5432/${database}`);
    // With NODE_ENV=production the migrator refuses to run without every service's password.
    if (migrateEnv.NODE_ENV !== 'production') problems.push('migrate: NODE_ENV is not production');
    for (const service of SERVICES) {
      const password = `${service.toUpperCase()}_DATABASE_PASSWORD`;
      // The password comes from .env, never a default: without it migrate stops naming the service's URL.
      const expected = `postgresql://${appRole(service)}:\${${password}:-}@postgres:5432/${database}`;
      const own = at(composeServices[service], 'environment', 'DATABASE_URL');
      if (own !== expected) problems.push(`${service}: DATABASE_URL ${String(own)} is not ${expected}`);
      if (migrateEnv[databaseUrlVariable(service)] !== expected)
        problems.push(`migrate: ${databaseUrlVariable(service)} is not ${expected}`);
      if (!new RegExp(`^${password}=$`, 'm').test(example))
        problems.push(`.env.example: ${password}= missing`);
    }
    const expectedMigrateUrls = new Set(['DATABASE_URL', ...SERVICES.map(databaseUrlVariable)]);
    for (const [name, s] of Object.entries(composeServices)) {
      for (const [key, value] of Object.entries(obj(obj(s).environment))) {
        if (!/^postgres(ql)?:/.test(String(value))) continue;
        // Only the migrator holds more than one database credential; a service has its own URL only.
        const allowed = name === 'migrate' ? expectedMigrateUrls.has(key) : key === 'DATABASE_URL';
        if (!allowed) problems.push(`${name}: ${key} is a database URL it must not have`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every service: built from the root Dockerfile, PORT, healthcheck on its port, waits for infra and migrations', () => {
    const problems: string[] = [];
    for (const service of SERVICES) {
      const s = obj(composeServices[service]);
      const port = portOf(service);
      if (Object.keys(s).length === 0) {
        problems.push(`${service}: missing`);
        continue;
      }
      if ((at(s, 'build', 'dockerfile') ?? 'Dockerfile') !== 'Dockerfile')
        problems.push(`${service}: build.dockerfile`);
      if (at(s, 'build', 'context') !== '.') problems.push(`${service}: build context is not the repo root`);
      if (s.image !== `tyres/${service}:\${TAG:-local}`)
        problems.push(`${service}: image is not tyres/${service}`);
      if (String(at(s, 'environment', 'PORT')) !== String(port))
        problems.push(`${service}: PORT is not ${port}`);
      // Healthy in compose = ready in Kubernetes: the process can serve its own requests (docs/deployment.md).
      if (!healthcheckText(s).includes(`127.0.0.1:${port}${READINESS_PATH}`))
        problems.push(`${service}: healthcheck does not probe ${READINESS_PATH} on port ${port}`);
      const deps = obj(s.depends_on);
      if (at(deps, 'migrate', 'condition') !== 'service_completed_successfully') {
        problems.push(`${service}: does not wait for migrate (service_completed_successfully)`);
      }
      for (const infra of ['postgres', 'rabbitmq', 'redis']) {
        if (at(deps, infra, 'condition') !== 'service_healthy')
          problems.push(`${service}: does not wait for healthy ${infra}`);
      }
      for (const key of ['DATABASE_URL', 'AMQP_URL', 'REDIS_URL', 'INTERNAL_JWT_PUBLIC_KEY', 'LOG_LEVEL']) {
        if (!(key in obj(s.environment))) problems.push(`${service}: no ${key}`);
      }
      const published = publishedPorts(s);
      if (service === 'gateway') {
        if (!published.some((p) => p.container === port && p.host === 8080))
          problems.push('gateway: not published on 8080');
      } else if (published.length > 0) {
        problems.push(`${service}: publishes a port (the gateway is the only entry)`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('front ends: built from the root Dockerfile, healthchecks on 8080, not published; the gateway proxies to them', () => {
    const problems: string[] = [];
    const gatewayEnv = obj(at(composeServices.gateway, 'environment'));
    const urlVar: Record<string, string> = {
      shell: 'SHELL_URL',
      public: 'PUBLIC_REMOTE_URL',
      dashboard: 'DASHBOARD_REMOTE_URL',
    };
    for (const fe of FRONTENDS) {
      const name = `frontend-${fe}`;
      const s = obj(composeServices[name]);
      if ((at(s, 'build', 'dockerfile') ?? 'Dockerfile') !== 'Dockerfile')
        problems.push(`${name}: build.dockerfile`);
      if (at(s, 'build', 'context') !== '.') problems.push(`${name}: build context is not the repo root`);
      if (!healthcheckText(s).includes(`127.0.0.1:${FRONTEND_PORT}/`))
        problems.push(`${name}: no healthcheck on ${FRONTEND_PORT}`);
      if (publishedPorts(s).length > 0) problems.push(`${name}: publishes a port`);
      const v = urlVar[fe] ?? '';
      if (gatewayEnv[v] !== `http://${name}:${FRONTEND_PORT}`)
        problems.push(`gateway: ${v} is not http://${name}:${FRONTEND_PORT}`);
      if (at(composeServices.gateway, 'depends_on', name, 'condition') !== 'service_healthy') {
        problems.push(`gateway: does not wait for ${name}`);
      }
    }
    for (const service of SERVICES.filter((s) => s !== 'gateway')) {
      const v = `${service.toUpperCase()}_URL`;
      if (gatewayEnv[v] !== `http://${service}:${portOf(service)}`)
        problems.push(`gateway: ${v} is not http://${service}:${portOf(service)}`);
    }
    expect(problems).toEqual([]);
  });

  it('.env.example lists every variable compose reads from .env (to set, or as a commented default)', () => {
    const example = existsSync(path.join(ROOT, '.env.example')) ? read('.env.example') : '';
    const listed = (name: string): boolean => new RegExp(`^(# )?${name}=`, 'm').test(example);
    const fromEnv = new Set<string>();
    for (const line of composeText.split('\n').filter((l) => !l.trim().startsWith('#')))
      for (const m of line.matchAll(/\$\{([A-Z0-9_]+)/g)) fromEnv.add(String(m[1]));
    // `KEY:` without a value: compose passes the variable of its environment / .env.
    for (const s of Object.values(composeServices))
      for (const [key, value] of Object.entries(obj(obj(s).environment)))
        if (value === null) fromEnv.add(key);
    expect([...fromEnv].filter((name) => !listed(name)).sort()).toEqual([]);
  });

  it('secrets are never written in the file: they come from the environment / .env, and .env.example lists them', () => {
    const problems: string[] = [];
    const example = existsSync(path.join(ROOT, '.env.example')) ? read('.env.example') : '';
    for (const [name, s] of Object.entries(composeServices)) {
      for (const [key, value] of Object.entries(obj(obj(s).environment))) {
        if (!/SECRET|PASSWORD|PRIVATE_KEY|PUBLIC_KEY|TOKEN/.test(key) || /^POSTGRES_|^RABBITMQ_/.test(key))
          continue;
        if (value !== null && !/^\$\{[A-Z0-9_]+\}$/.test(String(value)))
          problems.push(`${name}: ${key} has a literal value`);
        if (!new RegExp(`^${key}=`, 'm').test(example)) problems.push(`.env.example: ${key} missing`);
      }
    }
    for (const key of [
      'SESSION_SECRET',
      'INTERNAL_JWT_PRIVATE_KEY',
      'INTERNAL_JWT_PUBLIC_KEY',
      'ADMIN_PASSWORD',
    ]) {
      if (!(key in obj(at(composeServices.gateway, 'environment'))))
        problems.push(`gateway: ${key} not passed`);
    }
    expect(problems).toEqual([]);
  });
});
