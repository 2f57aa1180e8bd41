import { loadConfig, serviceEnvSchema } from '@tyres/service-kit';
import type { z } from 'zod';

export const configSchema = serviceEnvSchema(3004);
export type Config = z.output<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);
