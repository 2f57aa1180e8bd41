// Preloaded into every service by `npm run bench:scale` (node --require): counts the statements this process sends
// to Postgres (pg's Client#query: Prisma's driver adapter, pg pools and plain clients all end there) and writes the
// count to $BENCH_QUERY_COUNT_DIR/<pid> twice a second, so the bench can say how many round trips a booking costs
// in each service. Costs an increment per statement; nothing else changes.
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.BENCH_QUERY_COUNT_DIR;
if (dir) {
  let count = 0;
  try {
    const pg = require(require.resolve('pg', { paths: [process.cwd()] }));
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function countedQuery(...args) {
      count += 1;
      return query.apply(this, args);
    };
  } catch {
    // no pg here: nothing to count
  }
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, String(process.pid));
  const write = () => {
    try {
      fs.writeFileSync(file, String(count));
    } catch {
      // the bench removed the directory: it is over
    }
  };
  setInterval(write, 500).unref();
  process.on('exit', write);
}
