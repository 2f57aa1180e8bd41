import { Algorithm, hash, verify } from '@node-rs/argon2';

// OWASP minimum for argon2id: m=19 MiB, t=2, p=1.
const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Argon2 is memory-hungry: bound concurrent hashes so a login burst cannot exhaust the pod's memory. */
class Semaphore {
  private waiting: Array<() => void> = [];
  private active = 0;
  constructor(private readonly max: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

const gate = new Semaphore(4);

export function hashPassword(password: string): Promise<string> {
  return gate.run(() => hash(password, OPTIONS));
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return gate.run(async () => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  });
}

let dummyHash: Promise<string> | undefined;
/** Verifying against a throwaway hash when the user does not exist keeps response times from revealing usernames. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hash('not-a-real-password', OPTIONS);
  await verifyPassword(await dummyHash, password);
  return false;
}
