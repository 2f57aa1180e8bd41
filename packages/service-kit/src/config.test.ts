import { z } from 'zod';
import { baseEnvSchema, ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  const schema = baseEnvSchema.extend({ PORT: z.coerce.number().int(), SECRET: z.string().min(8) });

  it('applies defaults and coerces values', () => {
    const cfg = loadConfig(schema, { PORT: '3001', SECRET: 'long-enough' });
    expect(cfg.PORT).toBe(3001);
    expect(cfg.DATABASE_URL).toBe('postgresql://postgres@127.0.0.1:5432/tyres');
    expect(cfg.LOG_LEVEL).toBe('info');
  });

  it('names every missing or bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig(schema, { PORT: 'abc', SECRET: 'short', AMQP_URL: 'not a url' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('PORT');
    expect(message).toContain('SECRET');
    expect(message).toContain('AMQP_URL');
    expect((error as ConfigError).problems).toHaveLength(3);
  });

  it('treats empty strings as unset', () => {
    expect(() => loadConfig(schema, { PORT: '1', SECRET: '' })).toThrow(/SECRET is required but not set/);
  });
});
