/**
 * Static checks of everything that deploys the platform: k8s/ (kustomize base + overlays),
 * docker-compose.yml, the Dockerfiles, the front-end nginx configuration and .dockerignore.
 *
 * No Docker engine or cluster is needed: the files are parsed and their content is asserted, so
 * removing a probe, a healthcheck, a USER line or a resource limit fails here. Ports come from the
 * table in docs/team-conventions.md, the single source of truth.
 *
 * Each test collects every problem it finds and compares the list with [], so one run names them all.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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
const CONFIG_NAME = 'tyres-config';

function portOf(service: string): number {
  const port = PORTS.get(service);
  if (port === undefined) throw new Error(`no port for ${service} in docs/team-conventions.md`);
  return port;
}

// ---------------------------------------------------------------------------------------------------
// Kubernetes manifests

interface K8sDoc {
  file: string;
  doc: Obj;
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

const K8S_DIR = path.join(ROOT, 'k8s');
const yamlFiles = existsSync(K8S_DIR) ? walk(K8S_DIR).filter((f) => /\.ya?ml$/.test(f)) : [];
const parseErrors: string[] = [];
const parsedFiles = new Map<string, Obj[]>();
for (const file of yamlFiles) {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'), { merge: true });
  const list: Obj[] = [];
  for (const d of Array.isArray(docs) ? docs : [docs]) {
    for (const e of d.errors) parseErrors.push(`${rel(file)}: ${e.message}`);
    const js: unknown = d.toJS();
    if (isObj(js)) list.push(js);
  }
  parsedFiles.set(file, list);
}

const isKustomization = (file: string): boolean => /^kustomization\.ya?ml$/.test(path.basename(file));
const kustomizations = yamlFiles.filter(isKustomization);

/** Resource files a kustomization pulls in, followed through directory resources. */
function resourceFilesOf(kustomizationFile: string, seen = new Set<string>()): string[] {
  if (seen.has(kustomizationFile)) return [];
  seen.add(kustomizationFile);
  const dir = path.dirname(kustomizationFile);
  const k = obj(parsedFiles.get(kustomizationFile)?.[0]);
  const files: string[] = [];
  for (const entry of arr(k.resources)) {
    const target = path.resolve(dir, String(entry));
    if (existsSync(target) && statSync(target).isDirectory()) {
      const nested = ['kustomization.yaml', 'kustomization.yml']
        .map((n) => path.join(target, n))
        .find(existsSync);
      if (nested) files.push(...resourceFilesOf(nested, seen));
    } else {
      files.push(target);
    }
  }
  return files;
}

const BASE_KUSTOMIZATION = path.join(K8S_DIR, 'base', 'kustomization.yaml');
const baseDocs: K8sDoc[] = resourceFilesOf(BASE_KUSTOMIZATION).flatMap((file) =>
  (parsedFiles.get(file) ?? []).map((doc) => ({ file: rel(file), doc })),
);

const kindOf = (d: Obj): string => String(d.kind);
const nameOf = (d: Obj): string => String(at(d, 'metadata', 'name'));
const ofKind = (kind: string): Obj[] => baseDocs.map((d) => d.doc).filter((d) => kindOf(d) === kind);
const find = (kind: string, name: string): Obj | undefined => ofKind(kind).find((d) => nameOf(d) === name);

function podSpec(workload: Obj): Obj {
  return obj(at(workload, 'spec', 'template', 'spec'));
}
function containersOf(workload: Obj): Obj[] {
  return objs(podSpec(workload).containers);
}

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

/** Probes, ports, Service, resources and hardening of one Deployment. */
function checkWorkload(name: string, port: number, problems: string[]): void {
  const dep = find('Deployment', name);
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
    ['livenessProbe', '/healthz'],
    ['readinessProbe', '/readyz'],
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

  // Service in front of it
  const svc = find('Service', name);
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

/** Every secretKeyRef/secretRef/configMapRef of a pod points at the shared Secret / ConfigMap. */
function checkConfigRefs(workload: Obj, problems: string[]): void {
  const where = `${kindOf(workload)} ${nameOf(workload)}`;
  for (const c of containersOf(workload)) {
    for (const e of objs(c.env)) {
      const ref = obj(at(e, 'valueFrom', 'secretKeyRef'));
      if (Object.keys(ref).length > 0 && ref.name !== SECRET_NAME) {
        problems.push(`${where}: env ${String(e.name)} reads Secret ${String(ref.name)}, not ${SECRET_NAME}`);
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
      if (cm !== undefined && cm !== CONFIG_NAME)
        problems.push(`${where}: envFrom ConfigMap ${cm}, not ${CONFIG_NAME}`);
      if (sec !== undefined && sec !== SECRET_NAME)
        problems.push(`${where}: envFrom Secret ${sec}, not ${SECRET_NAME}`);
    }
  }
}

describe('k8s manifests', () => {
  it('parse: every YAML file under k8s/ is valid (multi-document)', () => {
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

  it('kustomizations: every listed resource, generator file and patch exists; examples and Secrets stay out', () => {
    expect(existsSync(BASE_KUSTOMIZATION)).toBe(true);
    expect(kustomizations.some((k) => k.includes(`${path.sep}overlays${path.sep}`))).toBe(true);
    const problems: string[] = [];
    for (const kfile of kustomizations) {
      const dir = path.dirname(kfile);
      const k = obj(parsedFiles.get(kfile)?.[0]);
      if (k.kind !== 'Kustomization') problems.push(`${rel(kfile)}: kind is not Kustomization`);
      const listed = new Set<string>();
      for (const r of arr(k.resources)) {
        const target = path.resolve(dir, String(r));
        listed.add(target);
        if (!existsSync(target)) {
          problems.push(`${rel(kfile)}: resource ${String(r)} does not exist`);
        } else if (statSync(target).isDirectory() && !existsSync(path.join(target, 'kustomization.yaml'))) {
          problems.push(`${rel(kfile)}: resource directory ${String(r)} has no kustomization.yaml`);
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

  it('kustomizations: overlay patches target resources that exist in the base', () => {
    const problems: string[] = [];
    for (const kfile of kustomizations.filter((k) => k !== BASE_KUSTOMIZATION)) {
      const k = obj(parsedFiles.get(kfile)?.[0]);
      for (const p of objs(k.patches)) {
        const kind = str(at(p, 'target', 'kind'));
        const name = str(at(p, 'target', 'name'));
        if (kind && name && !find(kind, name))
          problems.push(`${rel(kfile)}: patch targets missing ${kind} ${name}`);
      }
      for (const img of objs(k.images)) {
        const name = String(img.name);
        const used = baseDocs.some((d) =>
          [...containersOf(d.doc), ...objs(at(d.doc, 'spec', 'template', 'spec', 'initContainers'))].some(
            (c) => String(c.image).split(':')[0] === name,
          ),
        );
        if (!used) problems.push(`${rel(kfile)}: image override ${name} matches no container`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('services: probes on the declared port, Service targetPort, resources, non-root hardening', () => {
    const problems: string[] = [];
    for (const service of SERVICES) checkWorkload(service, portOf(service), problems);
    expect(problems).toEqual([]);
  });

  it('front ends: probes on 8080, Service targetPort, resources, non-root hardening', () => {
    const problems: string[] = [];
    for (const fe of FRONTENDS) checkWorkload(`frontend-${fe}`, FRONTEND_PORT, problems);
    expect(problems).toEqual([]);
  });

  it('services: PORT env, image, config from the ConfigMap and secrets from the Secret', () => {
    const problems: string[] = [];
    const base = obj(parsedFiles.get(BASE_KUSTOMIZATION)?.[0]);
    const generated = objs(base.configMapGenerator).some((g) => g.name === CONFIG_NAME);
    if (!generated && !find('ConfigMap', CONFIG_NAME))
      problems.push(`ConfigMap ${CONFIG_NAME}: not defined in the base`);
    for (const service of SERVICES) {
      const dep = find('Deployment', service);
      const main = dep ? containersOf(dep)[0] : undefined;
      if (!dep || !main) continue; // reported by the probe test
      const env = objs(main.env);
      const portEnv = env.find((e) => e.name === 'PORT');
      if (portEnv?.value !== String(portOf(service)))
        problems.push(`Deployment ${service}: PORT env is not "${portOf(service)}"`);
      if (String(main.image).split(':')[0] !== `tyres/${service}`)
        problems.push(`Deployment ${service}: image is not tyres/${service}`);
      if (!objs(main.envFrom).some((ef) => at(ef, 'configMapRef', 'name') === CONFIG_NAME)) {
        problems.push(`Deployment ${service}: no envFrom ConfigMap ${CONFIG_NAME}`);
      }
      const fromSecret = (key: string): boolean =>
        env.some((e) => e.name === key && at(e, 'valueFrom', 'secretKeyRef', 'name') === SECRET_NAME) ||
        objs(main.envFrom).some((ef) => at(ef, 'secretRef', 'name') === SECRET_NAME);
      const needed = ['DATABASE_URL', 'AMQP_URL', 'REDIS_URL', 'INTERNAL_JWT_PUBLIC_KEY'];
      if (service === 'gateway') needed.push('SESSION_SECRET', 'INTERNAL_JWT_PRIVATE_KEY', 'ADMIN_PASSWORD');
      for (const key of needed)
        if (!fromSecret(key)) problems.push(`Deployment ${service}: ${key} not from ${SECRET_NAME}`);
    }
    for (const d of baseDocs.map((x) => x.doc).filter((d) => ['Deployment', 'Job'].includes(kindOf(d)))) {
      checkConfigRefs(d, problems);
    }
    expect(problems).toEqual([]);
  });

  it('config: every *_URL of the ConfigMap points at an existing Service and port', () => {
    const base = obj(parsedFiles.get(BASE_KUSTOMIZATION)?.[0]);
    const gen = objs(base.configMapGenerator).find((g) => g.name === CONFIG_NAME);
    const entries = new Map<string, string>();
    for (const f of arr(gen?.envs).map(String)) {
      for (const line of readFileSync(path.join(K8S_DIR, 'base', f), 'utf8').split('\n')) {
        const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
        if (m?.[1]) entries.set(m[1], m[2] ?? '');
      }
    }
    for (const lit of arr(gen?.literals).map(String))
      entries.set(lit.split('=')[0] ?? '', lit.slice(lit.indexOf('=') + 1));
    const problems: string[] = [];
    const expected = [
      ...SERVICES.filter((s) => s !== 'gateway').map((s) => `${s.toUpperCase()}_URL`),
      'SHELL_URL',
      'PUBLIC_REMOTE_URL',
      'DASHBOARD_REMOTE_URL',
    ];
    for (const key of expected) if (!entries.has(key)) problems.push(`${CONFIG_NAME}: ${key} missing`);
    for (const [key, value] of entries) {
      if (!key.endsWith('_URL')) continue;
      const m = /^http:\/\/([a-z0-9-]+):(\d+)\/?$/.exec(value);
      if (!m?.[1]) {
        problems.push(`${CONFIG_NAME}: ${key}=${value} is not http://<service>:<port>`);
        continue;
      }
      const svc = find('Service', m[1]);
      if (!svc || !objs(at(svc, 'spec', 'ports')).some((p) => p.port === Number(m[2]))) {
        problems.push(`${CONFIG_NAME}: ${key}=${value} matches no Service port`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('autoscaling: every HPA targets an existing Deployment; the stateless services scale and have a PDB', () => {
    const problems: string[] = [];
    const hpas = ofKind('HorizontalPodAutoscaler');
    for (const hpa of hpas) {
      const where = `HPA ${nameOf(hpa)}`;
      if (hpa.apiVersion !== 'autoscaling/v2') problems.push(`${where}: apiVersion is not autoscaling/v2`);
      const ref = obj(at(hpa, 'spec', 'scaleTargetRef'));
      const dep = ref.kind === 'Deployment' ? find('Deployment', String(ref.name)) : undefined;
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
      const pdb = ofKind('PodDisruptionBudget').find((p) =>
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
    expect(problems).toEqual([]);
  });

  it('ingress: networking.k8s.io/v1, everything (including overlays) goes to the gateway Service, WebSocket path kept open', () => {
    const problems: string[] = [];
    const gateway = find('Service', 'gateway');
    const gatewayPorts = objs(at(gateway, 'spec', 'ports'));
    const ingresses = ofKind('Ingress');
    if (ingresses.length === 0) problems.push('no Ingress in the base');

    // Every backend anywhere under k8s/ (base resources and overlay patches, parsed from their text)
    const backends: { where: string; backend: Obj }[] = [];
    const collect = (v: unknown, where: string): void => {
      if (Array.isArray(v)) v.forEach((x) => collect(x, where));
      else if (isObj(v)) {
        if (isObj(v.backend)) backends.push({ where, backend: v.backend });
        if (isObj(v.defaultBackend)) backends.push({ where, backend: v.defaultBackend });
        Object.values(v).forEach((x) => collect(x, where));
      }
    };
    ingresses.forEach((i) => collect(i, `Ingress ${nameOf(i)}`));
    for (const kfile of kustomizations) {
      for (const p of objs(obj(parsedFiles.get(kfile)?.[0]).patches)) {
        if (typeof p.patch === 'string') collect(parse(p.patch), `${rel(kfile)} patch`);
      }
    }
    for (const { where, backend } of backends) {
      const name = at(backend, 'service', 'name');
      const port = obj(at(backend, 'service', 'port'));
      if (name !== 'gateway') problems.push(`${where}: backend ${String(name)} is not the gateway Service`);
      const ok = gatewayPorts.some((p) =>
        port.name !== undefined ? p.name === port.name : p.port === port.number,
      );
      if (!ok) problems.push(`${where}: backend port ${JSON.stringify(port)} is not a gateway Service port`);
    }
    const paths = ingresses.flatMap((i) =>
      objs(at(i, 'spec', 'rules')).flatMap((r) =>
        objs(at(r, 'http', 'paths')).map((p) => ({ ingress: i, path: p })),
      ),
    );
    for (const i of ingresses)
      if (i.apiVersion !== 'networking.k8s.io/v1') problems.push(`Ingress ${nameOf(i)}: old apiVersion`);
    if (!paths.some((p) => p.path.path === '/' && p.path.pathType === 'Prefix'))
      problems.push('no catch-all / Prefix path');
    const ws = paths.find((p) => p.path.path === '/ws/notifications');
    if (!ws) problems.push('no /ws/notifications path');
    else {
      const timeout = Number(
        obj(at(ws.ingress, 'metadata', 'annotations'))['nginx.ingress.kubernetes.io/proxy-read-timeout'],
      );
      if (!(timeout >= 3600))
        problems.push('/ws/notifications: proxy-read-timeout below 3600 s (idle sockets get cut)');
    }
    expect(problems).toEqual([]);
  });

  it('migration Job: gateway image, db-migrate deploy, DATABASE_URL from the Secret, hardened, never restarted in place', () => {
    const problems: string[] = [];
    const jobs = ofKind('Job');
    const job = jobs.find((j) =>
      containersOf(j).some(
        (c) => JSON.stringify(c.command) === JSON.stringify(['node', 'scripts/db-migrate.mjs', 'deploy']),
      ),
    );
    if (!job) {
      problems.push('no Job running ["node","scripts/db-migrate.mjs","deploy"]');
    } else {
      const c = containersOf(job)[0] ?? {};
      if (String(c.image).split(':')[0] !== 'tyres/gateway')
        problems.push('migration Job: image is not tyres/gateway');
      if (podSpec(job).restartPolicy !== 'Never') problems.push('migration Job: restartPolicy is not Never');
      if (
        !objs(c.env).some(
          (e) => e.name === 'DATABASE_URL' && at(e, 'valueFrom', 'secretKeyRef', 'name') === SECRET_NAME,
        )
      ) {
        problems.push(`migration Job: DATABASE_URL not from ${SECRET_NAME}`);
      }
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

  it('network policy: ingress is denied by default and the gateway is the only pod the ingress controller reaches', () => {
    const problems: string[] = [];
    const policies = ofKind('NetworkPolicy');
    const denyAll = policies.find(
      (p) =>
        Object.keys(obj(at(p, 'spec', 'podSelector'))).length === 0 &&
        arr(at(p, 'spec', 'ingress')).length === 0,
    );
    if (!denyAll || !arr(at(denyAll, 'spec', 'policyTypes')).includes('Ingress'))
      problems.push('no default-deny ingress policy');
    for (const p of policies) {
      const fromOtherNamespace = objs(at(p, 'spec', 'ingress')).some((rule) =>
        objs(rule.from).some(
          (f) =>
            isObj(f.namespaceSelector) &&
            String(at(f, 'namespaceSelector', 'matchLabels', 'kubernetes.io/metadata.name')).includes(
              'ingress',
            ),
        ),
      );
      if (
        fromOtherNamespace &&
        at(p, 'spec', 'podSelector', 'matchLabels', 'app.kubernetes.io/name') !== 'gateway'
      ) {
        problems.push(
          `NetworkPolicy ${nameOf(p)}: lets the ingress controller reach something other than the gateway`,
        );
      }
    }
    expect(problems).toEqual([]);
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
    if (JSON.stringify(migrate.command) !== JSON.stringify(['node', 'scripts/db-migrate.mjs', 'deploy'])) {
      problems.push('migrate: command is not ["node","scripts/db-migrate.mjs","deploy"]');
    }
    if (migrate.image !== gateway.image) problems.push('migrate: not the gateway image');
    if (
      at(migrate, 'build', 'dockerfile') !== undefined &&
      at(migrate, 'build', 'dockerfile') !== 'services/gateway/Dockerfile'
    ) {
      problems.push('migrate: built from another Dockerfile than the gateway');
    }
    if (String(migrate.restart ?? 'no') !== 'no') problems.push('migrate: must not restart (one-shot)');
    if (at(migrate, 'depends_on', 'postgres', 'condition') !== 'service_healthy')
      problems.push('migrate: does not wait for postgres');
    expect(problems).toEqual([]);
  });

  it('every service: built from its Dockerfile, PORT, healthcheck on its port, waits for infra and migrations', () => {
    const problems: string[] = [];
    for (const service of SERVICES) {
      const s = obj(composeServices[service]);
      const port = portOf(service);
      if (Object.keys(s).length === 0) {
        problems.push(`${service}: missing`);
        continue;
      }
      if (at(s, 'build', 'dockerfile') !== `services/${service}/Dockerfile`)
        problems.push(`${service}: build.dockerfile`);
      if (at(s, 'build', 'context') !== '.') problems.push(`${service}: build context is not the repo root`);
      if (String(at(s, 'environment', 'PORT')) !== String(port))
        problems.push(`${service}: PORT is not ${port}`);
      if (!healthcheckText(s).includes(`127.0.0.1:${port}/`))
        problems.push(`${service}: healthcheck does not probe port ${port}`);
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

  it('front ends: built from their Dockerfiles, healthchecks on 8080, not published; the gateway proxies to them', () => {
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
      if (at(s, 'build', 'dockerfile') !== `frontends/${fe}/Dockerfile`)
        problems.push(`${name}: build.dockerfile`);
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

// ---------------------------------------------------------------------------------------------------
// Dockerfiles, nginx, .dockerignore

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile -> stages of instructions (comments dropped, line continuations joined). */
function dockerStages(text: string): Instruction[][] {
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    if (/^\s*#/.test(raw)) continue;
    const line = raw.replace(/\s+$/, '');
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    current += line;
    if (current.trim() !== '') logical.push(current.trim());
    current = '';
  }
  if (current.trim() !== '') logical.push(current.trim());
  const stages: Instruction[][] = [];
  for (const l of logical) {
    const m = /^(\S+)\s*(.*)$/.exec(l);
    if (!m?.[1]) continue;
    const ins = { keyword: m[1].toUpperCase(), args: m[2] ?? '' };
    if (ins.keyword === 'FROM') stages.push([]);
    stages[stages.length - 1]?.push(ins);
  }
  return stages;
}

function workspaceDirs(): string[] {
  const patterns = arr(JSON.parse(read('package.json')).workspaces).map(String);
  return patterns.flatMap((p) => {
    const base = p.replace(/\/\*$/, '');
    return readdirSync(path.join(ROOT, base))
      .map((d) => `${base}/${d}`)
      .filter((d) => existsSync(path.join(ROOT, d, 'package.json')));
  });
}

function checkRuntimeStage(file: string, port: number, problems: string[]): Instruction[] {
  if (!existsSync(path.join(ROOT, file))) {
    problems.push(`${file}: missing`);
    return [];
  }
  const stages = dockerStages(read(file));
  const last = stages[stages.length - 1] ?? [];
  const all = (k: string): Instruction[] => last.filter((i) => i.keyword === k);
  if (stages.length < 2) problems.push(`${file}: not multi-stage`);
  const users = all('USER');
  const user = users[users.length - 1]?.args.trim();
  if (!user) problems.push(`${file}: final stage sets no USER`);
  else if (/^(root|0)(:|$)/.test(user)) problems.push(`${file}: final USER is root`);
  const exposed = all('EXPOSE').flatMap((i) => i.args.split(/\s+/).map((p) => Number(p.split('/')[0])));
  if (!exposed.includes(port)) problems.push(`${file}: EXPOSE ${exposed.join(',') || 'nothing'} != ${port}`);
  const health = all('HEALTHCHECK')[0]?.args ?? '';
  if (!/\/healthz/.test(health) || /^NONE/i.test(health))
    problems.push(`${file}: no HEALTHCHECK on /healthz`);
  if (!health.includes(String(port))) problems.push(`${file}: HEALTHCHECK does not use port ${port}`);
  // An exec form that is not valid JSON silently becomes a shell command: reject it.
  for (const ins of last.filter((i) => ['CMD', 'ENTRYPOINT', 'HEALTHCHECK'].includes(i.keyword))) {
    const json = ins.args.replace(/^(--\S+\s+)*(CMD\s+)?/, '');
    if (json.startsWith('[')) {
      try {
        JSON.parse(json);
      } catch {
        problems.push(`${file}: ${ins.keyword} exec form is not valid JSON`);
      }
    }
  }
  return last;
}

describe('Dockerfiles', () => {
  it('every service image: multi-stage, non-root, EXPOSE = port, /healthz healthcheck, node dist/main.js', () => {
    const problems: string[] = [];
    const workspaces = workspaceDirs();
    for (const service of SERVICES) {
      const file = `services/${service}/Dockerfile`;
      const port = portOf(service);
      const last = checkRuntimeStage(file, port, problems);
      if (last.length === 0) continue;
      const text = dockerStages(read(file)).flat();
      const cmd = last.filter((i) => i.keyword === 'CMD').pop()?.args ?? '';
      let parsed: unknown;
      try {
        parsed = JSON.parse(cmd);
      } catch {
        parsed = undefined;
      }
      if (JSON.stringify(parsed) !== JSON.stringify(['node', `services/${service}/dist/main.js`])) {
        problems.push(`${file}: CMD is not ["node","services/${service}/dist/main.js"] (exec form)`);
      }
      if (!last.some((i) => i.keyword === 'ENV' && /NODE_ENV=production/.test(i.args)))
        problems.push(`${file}: runtime without NODE_ENV=production`);
      const runs = text.filter((i) => i.keyword === 'RUN').map((i) => i.args);
      if (!runs.some((r) => /npm ci\b.*--ignore-scripts/.test(r)))
        problems.push(`${file}: no npm ci --ignore-scripts`);
      if (!runs.some((r) => r.includes('node scripts/prisma-generate.mjs')))
        problems.push(`${file}: no Prisma generate`);
      if (!runs.some((r) => new RegExp(`tsc -b .*services/${service}\\b`).test(r)))
        problems.push(`${file}: no tsc -b services/${service}`);
      if (!runs.some((r) => /npm (ci|prune)\b.*--omit=dev/.test(r)))
        problems.push(`${file}: runtime dependencies not pruned (--omit=dev)`);
      // npm ci needs every workspace's package.json next to the lockfile
      const copies = text.filter((i) => i.keyword === 'COPY').map((i) => i.args);
      for (const ws of workspaces) {
        if (!copies.some((c) => c.split(/\s+/).includes(`${ws}/package.json`)))
          problems.push(`${file}: does not copy ${ws}/package.json`);
      }
      if (!copies.some((c) => /package-lock\.json/.test(c)))
        problems.push(`${file}: does not copy package-lock.json`);
      if (service === 'gateway') {
        const lastCopies = last.filter((i) => i.keyword === 'COPY').map((i) => i.args);
        if (!lastCopies.some((c) => /\bscripts\b/.test(c)))
          problems.push(`${file}: runtime lacks scripts/ (migration image)`);
        if (!lastCopies.some((c) => c.includes('packages/prisma-tools/dist')))
          problems.push(`${file}: runtime lacks prisma-tools (migration image)`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every front-end image: webpack build, nginx-unprivileged on 8080, non-root, healthcheck, its nginx config', () => {
    const problems: string[] = [];
    for (const fe of FRONTENDS) {
      const file = `frontends/${fe}/Dockerfile`;
      const last = checkRuntimeStage(file, FRONTEND_PORT, problems);
      if (last.length === 0) continue;
      const stages = dockerStages(read(file));
      const from = last[0]?.args ?? '';
      const argDefaults = read(file).match(/^ARG\s+NGINX_IMAGE=(\S+)/m)?.[1] ?? '';
      if (!/nginx-unprivileged/.test(from) && !/nginx-unprivileged/.test(argDefaults))
        problems.push(`${file}: runtime is not nginx-unprivileged`);
      const runs = stages
        .flat()
        .filter((i) => i.keyword === 'RUN')
        .map((i) => i.args);
      if (!runs.some((r) => new RegExp(`npm run build --workspace frontends/${fe}\\b`).test(r)))
        problems.push(`${file}: does not build frontends/${fe}`);
      const copies = last.filter((i) => i.keyword === 'COPY').map((i) => i.args);
      if (!copies.some((c) => c.includes(`frontends/${fe}/nginx.conf`)))
        problems.push(`${file}: does not install frontends/${fe}/nginx.conf`);
      if (!copies.some((c) => c.includes('frontends/nginx.conf /etc/nginx/nginx.conf')))
        problems.push(`${file}: does not install frontends/nginx.conf`);
      if (!copies.some((c) => c.includes(`/app/frontends/${fe}/dist`)))
        problems.push(`${file}: does not copy the built dist`);
    }
    expect(problems).toEqual([]);
  });

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
  });
});
