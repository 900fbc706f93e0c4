/**
 * Diagnostic trouble codes (DTC) as units report them (Teltonika IO 281, Traccar's `dtcs` attribute) and
 * the fleet's list of critical ones: pure rules shared by the ingestion, the fleet settings and the web.
 */

/** Longest code kept; OBD-II codes are five characters, manufacturer codes a few more. */
export const FAULT_CODE_MAX_LENGTH = 16;
/** Most codes taken from one message; more are dropped (a device listing hundreds is broken). */
export const FAULT_CODES_PER_READING_MAX = 32;
/** Most entries of a fleet's list of critical codes. */
export const CRITICAL_FAULT_CODES_MAX = 100;

/** Letters, digits, `-` and `_`, starting with a letter or digit (after upper-casing). */
const FAULT_CODE = /^[A-Z0-9][A-Z0-9_-]*$/;

/** A code as it is kept (trimmed, upper case), or null when it is not one. */
export function normalizeFaultCode(raw: string): string | null {
  const code = raw.trim().toUpperCase();
  return code.length > 0 && code.length <= FAULT_CODE_MAX_LENGTH && FAULT_CODE.test(code) ? code : null;
}

/**
 * The codes of a message field: text with codes separated by spaces, commas or semicolons, or an array
 * of them. Malformed entries are dropped, duplicates kept once, in first-seen order, at most
 * `FAULT_CODES_PER_READING_MAX`.
 */
export function parseFaultCodes(value: unknown): string[] {
  const parts: unknown[] = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value.split(/[\s,;]+/)
      : [];
  const codes: string[] = [];
  for (const part of parts) {
    if (typeof part !== 'string') continue;
    const code = normalizeFaultCode(part);
    if (code !== null && !codes.includes(code)) codes.push(code);
    if (codes.length >= FAULT_CODES_PER_READING_MAX) break;
  }
  return codes;
}

/**
 * Whether a code counts as critical for a fleet: its list holds the code itself or a prefix of it
 * (`P03` covers every misfire code P0300…P0399). Entries are normalised as codes are.
 */
export function isCriticalFaultCode(code: string, critical: readonly string[]): boolean {
  const c = code.toUpperCase();
  return critical.some((entry) => {
    const prefix = normalizeFaultCode(entry);
    return prefix !== null && c.startsWith(prefix);
  });
}
