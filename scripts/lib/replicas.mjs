// Two replicas of every service and of the gateway behind HAProxy, as host processes (scripts/start-replicas.mjs,
// scripts/bench-scale.mjs). Reuses stack.mjs: the same environment, secrets and database roles; each replica is
// startServices() with its own port offset, while every <SERVICE>_URL the services see (stackEnv's) is the load
// balancer's port for that service, so a gateway reaches both replicas of booking, jobs, ... through HAProxy.
//
// Ports, from the stack's GATEWAY_PORT (G) and PORT_OFFSET (O); service base ports 3001-3005 (stack.mjs):
//   HAProxy      G (gateways), 3001+O ... 3005+O (services), G+9 (statistics page, CSV at /;csv)
//   replica 1    G+10, 3001+O+10 ...
//   replica 2    G+20, 3001+O+20 ...
//
// Why HAProxy: one Debian package, one generated file, and it has what a replica set needs: active health checks
// on /readyz, passive failover (a replica that refuses connections is marked down after one error and the request
// is re-dispatched to the other), WebSocket upgrades without extra configuration, leastconn for long-lived sockets,
// and a statistics page that shows the traffic each replica got.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { ROOT, SERVICES, startServices, stopServices, waitForHealthy } from './stack.mjs';

export const REPLICAS = 2;
const REPLICA_STEP = 10;

/** The HAProxy binary, or null; `apt-get install -y haproxy` on Debian/Ubuntu. */
export function findHaproxy() {
  const result = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
  return result.status === 0 ? 'haproxy' : null;
}

export const HAPROXY_INSTALL =
  'sudo apt-get install -y haproxy   (Debian/Ubuntu; macOS: brew install haproxy)';

/** Ports of the load balancer and of each replica. */
export function replicaLayout(env) {
  const gatewayPort = Number(env.GATEWAY_PORT ?? 8080);
  const offset = Number(env.PORT_OFFSET ?? 0);
  return {
    statsPort: gatewayPort + 9,
    services: SERVICES.map((s) => {
      const lbPort = s.name === 'gateway' ? gatewayPort : s.port + offset;
      return {
        name: s.name,
        lbPort,
        replicaPorts: Array.from({ length: REPLICAS }, (_, r) => lbPort + REPLICA_STEP * (r + 1)),
      };
    }),
  };
}

/** The environment replica r (0-based) of every service is started with: the same, but its own ports. */
export function replicaEnv(env, r) {
  return {
    ...env,
    PORT_OFFSET: String(Number(env.PORT_OFFSET ?? 0) + REPLICA_STEP * (r + 1)),
    GATEWAY_PORT: String(Number(env.GATEWAY_PORT ?? 8080) + REPLICA_STEP * (r + 1)),
  };
}

/** haproxy.cfg for the layout: one frontend and one backend (both replicas) per service. */
// HAPROXY_CHECK_INTER_MS: the /readyz check interval of a healthy replica (default 2000; it was 1000, the old
// behaviour). A failing or recovering replica is checked every 500 ms (fastinter) whatever this is, and a killed one
// is still taken out at its first refused connection, so only the first check after a replica hangs comes later.
export function haproxyConfig(layout, { checkInterMs = Number(process.env.HAPROXY_CHECK_INTER_MS) || 2000 } = {}) {
  const lines = [
    'global',
    // Each connection needs two descriptors (client and server side): 8,000 stays under a 20,000 descriptor limit.
    '  maxconn 8000',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // A WebSocket, once upgraded, is a tunnel: the dashboard pings every 30 s.
    '  timeout tunnel 1h',
    '  timeout http-keep-alive 10s',
    // Passive failover: a connection refused or reset by a replica marks it down at once (observe layer4) and the
    // request goes to the other replica (redispatch). Only connection failures are retried: a POST that reached a
    // replica which then died is not sent twice (the client sees a 502 and may retry with its Idempotency-Key).
    '  option redispatch 1',
    '  retries 3',
    '  retry-on conn-failure',
    // Active checks: /readyz every 2 s (HAPROXY_CHECK_INTER_MS; every check of 12 idle replicas cost each a few
    // dependency pings, and the services now cache readiness for 1 s), each allowed 2 s (a replica starved of CPU answers late but is alive;
    // with the default of `inter` both replicas of a service were marked down at once under load, and every
    // request got HAProxy's own 503); down after 3 failures, back after 2 successes. A killed replica is still
    // taken out at its first refused connection (observe layer4).
    '  timeout check 2s',
    `  default-server check inter ${Math.round(checkInterMs)}ms fastinter 500ms downinter 1s fall 3 rise 2 observe layer4 error-limit 1 on-error mark-down`,
    '',
    'frontend stats',
    `  bind 127.0.0.1:${layout.statsPort}`,
    '  stats enable',
    '  stats uri /',
    '  stats refresh 5s',
    '',
  ];
  for (const s of layout.services) {
    lines.push(
      `frontend ${s.name}`,
      `  bind 127.0.0.1:${s.lbPort}`,
      `  default_backend ${s.name}`,
      '',
      `backend ${s.name}`,
      // Long-lived sockets (dashboards on the gateway and notify) are spread by open connections, not by requests.
      `  balance ${s.name === 'gateway' || s.name === 'notify' ? 'leastconn' : 'roundrobin'}`,
      '  option httpchk GET /readyz',
      '  http-check expect status 200',
      ...s.replicaPorts.map((port, r) => `  server ${s.name}-${r + 1} 127.0.0.1:${port}`),
      '',
    );
  }
  return lines.join('\n');
}

/** Per-server figures from the HAProxy statistics CSV: requests/sessions total, current sessions, status. */
export async function haproxyStats(statsPort) {
  const res = await fetch(`http://127.0.0.1:${statsPort}/;csv`);
  const [header, ...rows] = (await res.text()).trim().split('\n');
  const keys = header.replace(/^# /, '').split(',');
  return rows
    .map((line) => Object.fromEntries(line.split(',').map((v, i) => [keys[i], v])))
    .filter((r) => r.svname !== 'FRONTEND' && r.svname !== 'BACKEND' && r.pxname !== 'stats')
    .map((r) => ({
      backend: r.pxname,
      server: r.svname,
      status: r.status,
      sessions: Number(r.stot),
      current: Number(r.scur),
      http: { '2xx': Number(r.hrsp_2xx), '4xx': Number(r.hrsp_4xx), '5xx': Number(r.hrsp_5xx) },
    }));
}

/**
 * Starts HAProxy and two replicas of every service and of the gateway. Returns handles to stop everything, and to
 * kill (SIGKILL) and restart one replica. `onExit(name, r, code, signal)` hears replicas that exit on their own.
 */
export async function startReplicas(env, { quiet = false, onExit } = {}) {
  const haproxy = findHaproxy();
  if (!haproxy) throw new Error(`HAProxy is not installed: ${HAPROXY_INSTALL}`);
  const layout = replicaLayout(env);
  const dir = path.join(ROOT, '.run');
  fs.mkdirSync(dir, { recursive: true });
  const configFile = path.join(dir, `haproxy-${env.GATEWAY_PORT}.cfg`);
  fs.writeFileSync(configFile, haproxyConfig(layout));
  const check = spawnSync(haproxy, ['-c', '-q', '-f', configFile], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy rejected ${configFile}:\n${check.stderr}${check.stdout}`);

  // -db: stay in the foreground, so it is this script's child and stops with it.
  const lb = spawn(haproxy, ['-db', '-f', configFile], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let lbOutput = '';
  for (const stream of [lb.stdout, lb.stderr])
    stream.on('data', (chunk) => {
      lbOutput = (lbOutput + chunk).slice(-4000);
      if (!quiet) process.stdout.write(`haproxy  │ ${chunk}`);
    });
  const lbExited = new Promise((resolve) => lb.once('exit', resolve));

  /** procs[name][r]: the running child of replica r of a service. */
  const procs = Object.fromEntries(layout.services.map((s) => [s.name, []]));
  let stopping = false;
  const launch = (name, r) => {
    const [proc] = startServices(replicaEnv(env, r), { quiet, only: [name] });
    proc.replica = r + 1;
    procs[name][r] = proc;
    proc.child.on('exit', (code, signal) => {
      if (!stopping && procs[name][r] === proc && !proc.killedOnPurpose) onExit?.(name, r, code, signal);
    });
    return proc;
  };

  // Services before gateways (a gateway's readiness may depend on them), each replica pair together.
  const all = () => Object.values(procs).flat();
  try {
    for (const s of layout.services) for (let r = 0; r < REPLICAS; r++) launch(s.name, r);
    await waitForHealthy(all(), 120_000);
    const up = waitForBackendsUp(layout.statsPort, 30_000).then(() => 'up');
    if ((await Promise.race([up, lbExited])) !== 'up') throw new Error(`HAProxy exited:\n${lbOutput}`);
  } catch (err) {
    stopping = true;
    await stopServices(all());
    lb.kill('SIGTERM');
    throw err;
  }

  return {
    layout,
    configFile,
    url: `http://127.0.0.1:${layout.services.find((s) => s.name === 'gateway').lbPort}`,
    statsUrl: `http://127.0.0.1:${layout.statsPort}/`,
    procs,
    haproxy: lb,
    stats: () => haproxyStats(layout.statsPort),
    /** SIGKILL replica r (0-based) of a service: no shutdown hooks, as a crash or an OOM kill. */
    kill(name, r) {
      const proc = procs[name][r];
      proc.killedOnPurpose = true;
      proc.child.kill('SIGKILL');
      return new Promise((resolve) => {
        if (proc.child.exitCode !== null || proc.child.signalCode !== null) return resolve();
        proc.child.once('exit', () => resolve());
      });
    },
    /** Starts replica r of a service again and waits until it is ready. */
    async restart(name, r) {
      const proc = launch(name, r);
      await waitForHealthy([proc], 120_000);
      return proc;
    },
    async stop() {
      stopping = true;
      await stopServices(all());
      await new Promise((resolve) => {
        if (lb.exitCode !== null || lb.signalCode !== null) return resolve();
        lb.once('exit', resolve);
        lb.kill('SIGTERM');
      });
    },
  };
}

/** Waits until HAProxy's health checks see every replica up (they start DOWN until `rise` checks pass). */
async function waitForBackendsUp(statsPort, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const rows = await haproxyStats(statsPort);
      if (rows.length > 0 && rows.every((r) => r.status === 'UP')) return;
      if (Date.now() > deadline)
        throw new Error(
          `HAProxy still sees replicas down: ${rows
            .filter((r) => r.status !== 'UP')
            .map((r) => `${r.server} ${r.status}`)
            .join(', ')}`,
        );
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
