import { generateKeyPairSync } from 'node:crypto';
import { loadServiceConfig } from './config';

const publicKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .publicKey.export({ type: 'spki', format: 'pem' })
  .toString();
const base = { INTERNAL_JWT_PUBLIC_KEY: publicKey, BOOKING_URL: 'http://booking:3001' };
const problem = (env: NodeJS.ProcessEnv) => {
  try {
    loadServiceConfig(env);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

describe('billing configuration: the Stripe webhook secret (issue 14 item 8)', () => {
  it('production refuses to start without STRIPE_WEBHOOK_SECRET, naming it, whatever the payments mode', () => {
    for (const extra of [{}, { PAYMENTS_MODE: 'test' }, { STRIPE_SECRET_KEY: 'sk_live_x' }]) {
      const message = problem({ ...base, ...extra, NODE_ENV: 'production' });
      expect(message).toContain('STRIPE_WEBHOOK_SECRET: is required when NODE_ENV=production');
      // Named once, even when the live-mode rule would name it too.
      expect(message?.match(/STRIPE_WEBHOOK_SECRET/g)).toHaveLength(1);
    }
    // An empty value is "not set" (docker-compose passes VAR= for unset values).
    expect(problem({ ...base, NODE_ENV: 'production', STRIPE_WEBHOOK_SECRET: '' })).toContain(
      'STRIPE_WEBHOOK_SECRET',
    );
    expect(problem({ ...base, NODE_ENV: 'production', STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toBeUndefined();
  });

  it('development and tests start without it (the webhook then answers 400); a live key still needs it', () => {
    expect(problem({ ...base, NODE_ENV: 'development' })).toBeUndefined();
    expect(problem({ ...base, NODE_ENV: 'test' })).toBeUndefined();
    expect(problem({ ...base, NODE_ENV: 'development', STRIPE_SECRET_KEY: 'sk_test_x' })).toContain(
      'STRIPE_WEBHOOK_SECRET: is required with STRIPE_SECRET_KEY',
    );
  });

  it('the secret must look like a Stripe signing secret', () => {
    expect(problem({ ...base, NODE_ENV: 'production', STRIPE_WEBHOOK_SECRET: 'secret' })).toContain(
      'must be a Stripe webhook signing secret',
    );
  });
});
