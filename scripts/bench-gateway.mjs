#!/usr/bin/env node
// `npm run bench:gateway`: the same request straight to the booking service and through the gateway
// (autocannon, 50 connections, 10 s each). Budget: gateway throughput >= 70% of direct, added p99 < 5 ms.
import autocannon from 'autocannon';
import { checkInfra, run, stackEnv, startServices, stopServices, waitForHealthy } from './lib/stack.mjs';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);

/** Next Monday-to-Friday date in Perth, so the booking service answers a real slot list. */
function nextBusinessDay() {
  const perthNow = new Date(Date.now() + 8 * 3600_000);
  for (let i = 1; i < 8; i++) {
    const d = new Date(perthNow.getTime() + i * 86_400_000);
    const day = d.getUTCDay();
    if (day !== 0 && day !== 6) return d.toISOString().slice(0, 10);
  }
  throw new Error('unreachable');
}

const PATH = process.env.BENCH_PATH ?? `/api/time-slots?date=${nextBusinessDay()}`;

function measure(url) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, pipelining: 1 }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

async function main() {
  const env = stackEnv(process.env, {
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/tyres_bench',
    EVENT_PREFIX: 'bench.',
    REDIS_PREFIX: 'bench:',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    GATEWAY_PORT: 18080,
    PORT_OFFSET: 10000,
  });
  if (!(await checkInfra(env))) process.exit(1);
  await run('npm', ['run', 'prisma:generate'], { env });
  await run('npx', ['tsc', '-b', 'services/gateway', 'services/booking'], { env });
  await run(process.execPath, ['scripts/db-migrate.mjs', 'deploy', 'gateway', 'booking'], { env });

  const procs = startServices(env, { quiet: true, only: ['booking', 'gateway'] });
  try {
    await waitForHealthy(procs);
    const booking = procs.find((p) => p.name === 'booking');
    const gateway = procs.find((p) => p.name === 'gateway');
    const directUrl = `http://127.0.0.1:${booking.port}${PATH}`;
    const viaUrl = `http://127.0.0.1:${gateway.port}${PATH}`;
    const probe = await fetch(viaUrl);
    console.log(`Request: GET ${PATH} → ${probe.status} through the gateway`);

    await measure(viaUrl); // warm-up (JIT, keep-alive pools), result discarded
    const direct = await measure(directUrl);
    const via = await measure(viaUrl);

    const row = (name, r) =>
      `${name.padEnd(16)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   non-2xx ${r.non2xx}   errors ${r.errors}`;
    console.log(`\n${CONNECTIONS} connections, ${DURATION} s each`);
    console.log(row('direct', direct));
    console.log(row('through gateway', via));
    for (const [name, r] of [['direct', direct], ['through gateway', via]])
      if (r.non2xx) console.log(`${name} status codes: ${JSON.stringify(r.statusCodeStats)}`);
    const ratio = via.requests.average / direct.requests.average;
    const addedP99 = via.latency.p99 - direct.latency.p99;
    console.log(`\nthroughput ratio ${(ratio * 100).toFixed(1)}% (budget ≥ 70%)`);
    console.log(`added p99 latency ${addedP99} ms (budget < 5 ms)`);
    const within = ratio >= 0.7 && addedP99 < 5;
    console.log(within ? 'within budget' : 'OVER BUDGET');
  } finally {
    await stopServices(procs);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
