import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';

import { ServiceAdapterFactory } from './adapter';
import { PrismaToolsError } from './errors';

export type { SchemaEngine };

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined };

type SchemaEngineClass = typeof SchemaEngine;

interface PanicRegistry {
  set_message(message: string): void;
}
const globalWithRegistry = globalThis as typeof globalThis & { PRISMA_WASM_PANIC_REGISTRY?: PanicRegistry };

/** The bits of the WebAssembly global we use (lib ES2023 + @types/node 20 do not declare it). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: Record<string, object>): Promise<{ exports: Record<string, unknown> }>;
  RuntimeError: new (...args: never[]) => Error;
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let lastPanic: string | undefined;
let poisoned = false;
let loading: Promise<SchemaEngineClass> | undefined;

/**
 * Loads Prisma's Wasm schema engine once per process. The package's own entry imports the `.wasm` file as an ES
 * module, which Node only allows behind `--experimental-wasm-modules`; instead we import the wasm-bindgen glue
 * (`schema_engine_bg.js`, plain ESM) and instantiate the `.wasm` ourselves, as Prisma's CLI does. No Node flags.
 * Works from CommonJS (dynamic import) on Node 20.
 */
export function loadSchemaEngine(): Promise<SchemaEngineClass> {
  loading ??= (async () => {
    // The glue reports Rust panics through this global; without it a panic surfaces as "reading 'set_message'".
    const previous = globalWithRegistry.PRISMA_WASM_PANIC_REGISTRY;
    globalWithRegistry.PRISMA_WASM_PANIC_REGISTRY = {
      set_message(message: string) {
        lastPanic = message;
        previous?.set_message(message);
      },
    };
    const glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmPath = path.join(
      path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
      'schema_engine_bg.wasm',
    );
    const wasmModule = await Wasm.compile(await readFile(wasmPath));
    // The engine races queries against setTimeout timers it never clears (the glue imports no clearTimeout):
    // unref them, or every process using the engine would stay alive ~10 s after its last command.
    const imports: Record<string, unknown> = { ...glue };
    for (const [name, fn] of Object.entries(glue)) {
      if (name.startsWith('__wbg_setTimeout_') && typeof fn === 'function') {
        imports[name] = (...args: unknown[]) => {
          const timer = (fn as (...a: unknown[]) => unknown)(...args);
          (timer as { unref?: () => void } | undefined)?.unref?.();
          return timer;
        };
      }
    }
    const instance = await Wasm.instantiate(wasmModule, { './schema_engine_bg.js': imports });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue.SchemaEngine;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** The engine's error messages end with a Rust span trace ("   0: schema_engine_wasm::…"); keep the human part. */
export function cleanEngineMessage(message: string): string {
  const lines = message.split('\n');
  const traceStart = lines.findIndex((line) => /^\s+\d+: [\w:]+/.test(line));
  const kept = (traceStart >= 0 ? lines.slice(0, traceStart) : lines).join('\n').trim();
  return (
    kept
      .split('\n')
      .filter((line) => line.trim() !== 'external connector error')
      .join('\n')
      .replace(/\n{2,}/g, '\n')
      .trim() || message.trim()
  );
}

export interface EngineSession {
  engine: SchemaEngine;
  factory: ServiceAdapterFactory;
  /** Runs one engine command, turning its errors into PrismaToolsError. */
  run<T>(command: string, fn: (engine: SchemaEngine) => Promise<T>): Promise<T>;
}

export interface EngineOptions {
  databaseUrl: string;
  schema: string;
  /** Role the migrations run as (see connectionConfig); the URL's user when absent. */
  role?: string;
  /** [path, content] of every Prisma schema file; gives the engine the datasource's `schemas` (namespaces). */
  datamodels: [string, string][];
  logger: Logger;
}

function toToolsError(command: string, error: unknown, factory: ServiceAdapterFactory): Error {
  if (factory.lastError instanceof PrismaToolsError) return factory.lastError;
  if (error instanceof Wasm.RuntimeError) {
    poisoned = true;
    return new PrismaToolsError(
      'ENGINE_PANIC',
      `Prisma's schema engine panicked during ${command}: ${lastPanic ?? error.message}`,
      {
        cause: error,
      },
    );
  }
  if (error instanceof PrismaToolsError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const js = factory.lastError instanceof Error ? ` (${factory.lastError.message})` : '';
  return new PrismaToolsError('ENGINE_ERROR', `${command} failed: ${cleanEngineMessage(message)}${js}`, {
    cause: error,
  });
}

function forwardEngineLog(logger: Logger) {
  const debug = Boolean(process.env.PRISMA_TOOLS_DEBUG);
  return (line: string) => {
    if (debug) process.stderr.write(`[schema-engine] ${line}\n`);
    try {
      const entry = JSON.parse(line) as { level?: string; fields?: { message?: string } };
      if ((entry.level === 'WARN' || entry.level === 'ERROR') && entry.fields?.message)
        logger.warn(entry.fields.message);
    } catch {
      /* not JSON: ignore */
    }
  };
}

/** Starts an engine on a fresh adapter factory, runs `fn`, then frees the engine and closes every connection. */
export async function withEngine<T>(
  options: EngineOptions,
  fn: (session: EngineSession) => Promise<T>,
): Promise<T> {
  if (poisoned) {
    throw new PrismaToolsError(
      'ENGINE_PANIC',
      "Prisma's schema engine panicked earlier in this process; restart the process.",
    );
  }
  const SchemaEngineClass = await loadSchemaEngine();
  const factory = new ServiceAdapterFactory({
    databaseUrl: options.databaseUrl,
    schema: options.schema,
    role: options.role,
  });
  const bound = bindMigrationAwareSqlAdapterFactory(factory);
  let engine: SchemaEngine | undefined;
  try {
    try {
      engine = await SchemaEngineClass.new(
        { datamodels: options.datamodels },
        forwardEngineLog(options.logger),
        bound,
      );
    } catch (error) {
      throw toToolsError('connect', error, factory);
    }
    const started = engine;
    const session: EngineSession = {
      engine: started,
      factory,
      async run(command, commandFn) {
        factory.lastError = undefined;
        try {
          return await commandFn(started);
        } catch (error) {
          throw toToolsError(command, error, factory);
        }
      },
    };
    return await fn(session);
  } finally {
    if (engine && !poisoned) engine.free();
    await factory.close();
  }
}
