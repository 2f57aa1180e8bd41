/** Error codes callers (and the CLIs) can branch on. */
export type PrismaToolsErrorCode =
  | 'INVALID_OPTIONS'
  | 'DB_UNREACHABLE'
  | 'DB_MISSING'
  | 'DB_AUTH'
  | 'DB_PRIVILEGES'
  | 'CHECKSUM_MISMATCH'
  | 'FAILED_MIGRATION'
  | 'MIGRATION_FAILED'
  | 'SHADOW_DATABASE'
  | 'ENGINE_ERROR'
  | 'ENGINE_PANIC';

export class PrismaToolsError extends Error {
  override readonly name = 'PrismaToolsError';
  readonly code: PrismaToolsErrorCode;

  constructor(code: PrismaToolsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isPrismaToolsError(error: unknown): error is PrismaToolsError {
  return (
    error instanceof Error &&
    error.name === 'PrismaToolsError' &&
    typeof (error as PrismaToolsError).code === 'string'
  );
}
