/** Text checks shared by request parsing (no I/O). */

/**
 * True when `value` (a string, or any JSON-like object or array, however nested) holds a string or key with U+0000,
 * which Postgres cannot store in a text column. Depth-limited (JSON bodies are at most 100 kB anyway).
 */
export function hasNulCharacter(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key.includes('\u0000') || hasNulCharacter(inner, depth + 1)) return true;
  }
  return false;
}
