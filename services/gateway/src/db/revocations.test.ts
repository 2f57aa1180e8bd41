import type { Redis } from 'ioredis';
import pino from 'pino';
import type { Db } from './client';
import { Revocations } from './revocations';

/** Just the Redis commands Revocations uses, in memory; `down` makes every command fail like a lost connection. */
function fakeRedis() {
  const data = new Map<string, string>();
  const state = { down: false, writesFail: false };
  const fail = () => Promise.reject(new Error("Stream isn't writeable"));
  const redis = {
    mget: (...keys: string[]) =>
      state.down ? fail() : Promise.resolve(keys.map((k) => data.get(k) ?? null)),
    set: (key: string, value: string) => {
      if (state.down || state.writesFail) return fail();
      data.set(key, value);
      return Promise.resolve('OK');
    },
    // The warm-up script (revocations.ts WARM_SCRIPT), same semantics.
    eval: (_script: string, numKeys: number, ...rest: string[]) => {
      if (state.down) return fail();
      const keys = rest.slice(0, numKeys);
      const args = rest.slice(numKeys);
      if (data.get(keys[0]!) !== args[0]) return Promise.resolve(0);
      for (let i = 2; i < keys.length; i++) data.set(keys[i]!, '1');
      data.set(keys[1]!, args[1]!);
      data.delete(keys[0]!);
      return Promise.resolve(1);
    },
    multi: () => {
      const queued: Array<[string, string]> = [];
      const chain = {
        set: (key: string, value: string) => {
          queued.push([key, value]);
          return chain;
        },
        exec: () => {
          if (state.down) return fail();
          for (const [k, v] of queued) data.set(k, v);
          return Promise.resolve(queued.map(() => [null, 'OK']));
        },
      };
      return chain;
    },
  };
  return { redis: redis as unknown as Redis, data, state };
}

function fakeDb() {
  const rows = new Map<string, { jti: string; userId: string; expiresAt: Date }>();
  const reads = { count: 0 };
  const revokedSession = {
    createMany: ({ data }: { data: Array<{ jti: string; userId: string; expiresAt: Date }> }) => {
      for (const row of data) if (!rows.has(row.jti)) rows.set(row.jti, row);
      return Promise.resolve({ count: data.length });
    },
    findUnique: ({ where }: { where: { jti: string } }) => {
      reads.count++;
      return Promise.resolve(rows.has(where.jti) ? { jti: where.jti } : null);
    },
    findMany: () => Promise.resolve([...rows.values()].filter((r) => r.expiresAt.getTime() > Date.now())),
    deleteMany: ({ where }: { where: { expiresAt: { lt: Date } } }) => {
      let count = 0;
      for (const [jti, r] of rows)
        if (r.expiresAt < where.expiresAt.lt) {
          rows.delete(jti);
          count++;
        }
      return Promise.resolve({ count });
    },
  };
  return { db: { revokedSession } as unknown as Db, rows, reads };
}

const inAnHour = () => new Date(Date.now() + 3600_000);
const setup = () => {
  const r = fakeRedis();
  const d = fakeDb();
  return { ...r, ...d, revocations: new Revocations(d.db, r.redis, 'p:', pino({ level: 'silent' })) };
};

describe('Revocations', () => {
  it('answers from Redis alone once the cache is warm', async () => {
    const { revocations, reads } = setup();
    await revocations.revoke({ jti: 'gone', userId: 'u', expiresAt: inAnHour() });
    await revocations.warm();
    reads.count = 0;
    expect(await revocations.isRevoked('gone')).toBe(true);
    expect(await revocations.isRevoked('live')).toBe(false);
    expect(reads.count).toBe(0);
  });

  it('after Redis lost everything, asks Postgres (nothing comes back to life) and rebuilds the cache', async () => {
    const { revocations, data, reads } = setup();
    await revocations.revoke({ jti: 'gone', userId: 'u', expiresAt: inAnHour() });
    await revocations.warm();
    data.clear(); // restarted empty
    expect(await revocations.isRevoked('gone')).toBe(true);
    expect(await revocations.isRevoked('live')).toBe(false);
    expect(reads.count).toBeGreaterThan(0);
    await revocations.warm();
    expect(data.get('p:gateway:session:revoked:gone')).toBe('1');
  });

  it('with Redis down, records in Postgres and checks there; a missed write is replayed before Redis is trusted', async () => {
    const { revocations, state, data } = setup();
    await revocations.warm();
    state.down = true;
    await revocations.revoke({ jti: 'during', userId: 'u', expiresAt: inAnHour() });
    expect(await revocations.isRevoked('during')).toBe(true);
    state.down = false; // back with its old data: marker present, revocation missing
    expect(data.has('p:gateway:session:revoked:during')).toBe(false);
    expect(await revocations.isRevoked('during')).toBe(true);
    await revocations.repair();
    expect(data.get('p:gateway:session:revoked:during')).toBe('1');
    expect(await revocations.isRevoked('during')).toBe(true);
  });

  it('a Redis restart while the cache is being rebuilt leaves it unmarked, so Postgres is still asked', async () => {
    const { revocations, data, db, reads } = setup();
    await revocations.revoke({ jti: 'early', userId: 'u', expiresAt: inAnHour() });
    const revokedSession = db.revokedSession as unknown as { findMany: () => Promise<unknown[]> };
    const read = revokedSession.findMany;
    revokedSession.findMany = async () => {
      const rows = await read();
      // Redis restarts empty between the read and the write; a logout lands meanwhile (Postgres, then Redis).
      data.clear();
      await revocations.revoke({ jti: 'meanwhile', userId: 'u', expiresAt: inAnHour() });
      data.clear();
      return rows;
    };
    await expect(revocations.warm()).rejects.toThrow(/Redis restarted/);
    expect(data.has('p:gateway:session:revocations-warm')).toBe(false);
    revokedSession.findMany = read;
    reads.count = 0;
    expect(await revocations.isRevoked('meanwhile')).toBe(true);
    expect(reads.count).toBeGreaterThan(0);
  });

  it('refuses to say revoked when Postgres cannot record it', async () => {
    const { revocations, db } = setup();
    (db.revokedSession as unknown as { createMany: () => Promise<never> }).createMany = () =>
      Promise.reject(new Error('Connection terminated'));
    await expect(revocations.revoke({ jti: 'x', userId: 'u', expiresAt: inAnHour() })).rejects.toThrow();
  });

  it('purges revocations of tokens that have expired', async () => {
    const { revocations, rows } = setup();
    await revocations.revoke({ jti: 'old', userId: 'u', expiresAt: new Date(Date.now() - 1000) });
    await revocations.revoke({ jti: 'new', userId: 'u', expiresAt: inAnHour() });
    expect(await revocations.purgeExpired()).toBe(1);
    expect([...rows.keys()]).toEqual(['new']);
  });
});
