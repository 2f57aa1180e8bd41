/** Tyre sizes as customers type them and as the catalogue stores them ("205/55R16"). */

const TYRE_SIZE = /^(\d{3})\s*[/\s-]\s*(\d{2})\s*(?:Z?R|[/\s-])\s*(\d{2})$/i;

/** A size over 50 characters is not read at all (it is no size anybody typed). */
export const MAX_TYRE_SIZE_LENGTH = 50;

/**
 * Normalises what customers type or the form sends ("205/55R16", "205/55 R16", "205 55 16", "205/55/16",
 * "205/55ZR16") to "205/55R16"; undefined when it is not a metric passenger/4WD size.
 */
export function normalizeTyreSize(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const m = TYRE_SIZE.exec(raw.trim());
  if (!m) return undefined;
  return `${m[1]}/${m[2]}R${m[3]}`;
}

/**
 * The size from a form's width, profile and rim fields: "205/55R16" when all three are complete (3, 2 and 2
 * digits), otherwise undefined: the size is unknown and the quote needs a callback. "2/5R1" is no size.
 */
export function tyreSizeFromParts(width: string, profile: string, rim: string): string | undefined {
  return normalizeTyreSize(`${width.trim()}/${profile.trim()}R${rim.trim()}`);
}
