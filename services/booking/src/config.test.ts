import { ConfigError } from '@tyres/service-kit';
import { loadServiceConfig, publicSiteUrl } from './config';

const KEY = { INTERNAL_JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\\nabc\\n-----END PUBLIC KEY-----' };

/** The problems a start with `env` names (none when it starts). */
function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadServiceConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('PUBLIC_SITE_URL (the manage-my-booking links)', () => {
  it('is required in production: booking refuses to start without it', () => {
    const found = problems({ NODE_ENV: 'production' });
    expect(found).toContainEqual(
      expect.stringMatching(/^PUBLIC_SITE_URL: is required when NODE_ENV=production/),
    );
    // SITE_URL (the shell's setting) does not stand in for it in production.
    expect(problems({ NODE_ENV: 'production', SITE_URL: 'https://shop.example' })).toContainEqual(
      expect.stringMatching(/^PUBLIC_SITE_URL: is required/),
    );
  });

  it('in production, set, it is where the links point', () => {
    const env = { NODE_ENV: 'production', PUBLIC_SITE_URL: 'https://tyres.example' };
    expect(problems(env).filter((p) => p.startsWith('PUBLIC_SITE_URL'))).toEqual([]);
  });

  it('elsewhere it falls back to SITE_URL, then the local gateway', () => {
    expect(publicSiteUrl(loadServiceConfig({ ...KEY }))).toBe('http://localhost:8080');
    expect(publicSiteUrl(loadServiceConfig({ ...KEY, SITE_URL: 'https://shop.example' }))).toBe(
      'https://shop.example',
    );
    expect(publicSiteUrl(loadServiceConfig({ ...KEY, PUBLIC_SITE_URL: 'https://tyres.example' }))).toBe(
      'https://tyres.example',
    );
  });
});

describe('TEST_CLOCK', () => {
  it('is refused in production, off by default, header for the end-to-end stack', () => {
    expect(
      problems({ NODE_ENV: 'production', PUBLIC_SITE_URL: 'https://tyres.example', TEST_CLOCK: 'header' }),
    ).toContain('TEST_CLOCK: is for tests only and cannot be enabled when NODE_ENV=production');
    expect(loadServiceConfig({ ...KEY }).TEST_CLOCK).toBe('off');
    expect(loadServiceConfig({ ...KEY, TEST_CLOCK: 'header' }).TEST_CLOCK).toBe('header');
  });
});
