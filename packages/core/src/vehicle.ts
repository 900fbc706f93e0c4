import { convertVolume } from './fuel.js';

/**
 * Pure rules of a unit's vehicle profile (docs/product.md "The vehicle profile"; PRODUCT.md "Service
 * objects and counters"): the VIN and its check digit, tags, and the tank capacity a filling is held to.
 */

/** A VIN has 17 characters (ISO 3779). */
export const VIN_LENGTH = 17;

/** Characters a VIN may hold: digits and Latin capitals but I, O and Q (ISO 3779, 49 CFR 565.13). */
const VIN_CHARS = /^[A-HJ-NPR-Z0-9]*$/;

/** Transliteration of 49 CFR 565.15 table I: letters to the numbers the check digit sums. */
const VIN_VALUES: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
/** Weights of the 17 positions (49 CFR 565.15 table II); position 9, the check digit itself, weighs 0. */
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

/** A VIN as it is stored: trimmed, capitals, inner spaces and dashes removed. */
export function normalizeVin(text: string): string {
  return text.replace(/[\s-]/g, '').toUpperCase();
}

/**
 * What is wrong with a VIN, if anything: `length` (not 17 characters), `chars` (a character outside
 * ISO 3779, e.g. I, O or Q), `check` (position 9 is not the check digit of 49 CFR 565.15; many
 * European VINs carry none, so this one is a warning only), or null when it is a valid VIN. An empty
 * text is no VIN and no issue.
 */
export type VinIssue = 'length' | 'chars' | 'check';

/** The check digit position 9 of a VIN of valid characters should hold: '0'…'9' or 'X'. */
export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < VIN_LENGTH; i++) {
    const c = vin[i]!;
    const value = c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : (VIN_VALUES[c] ?? 0);
    sum += value * VIN_WEIGHTS[i]!;
  }
  const rest = sum % 11;
  return rest === 10 ? 'X' : String(rest);
}

export function vinIssue(text: string): VinIssue | null {
  const vin = normalizeVin(text);
  if (vin === '') return null;
  if (!VIN_CHARS.test(vin)) return 'chars';
  if (vin.length !== VIN_LENGTH) return 'length';
  return vin[8] === vinCheckDigit(vin) ? null : 'check';
}

/** Issues that refuse a VIN (the check digit only warns). */
export const vinRefused = (issue: VinIssue | null): boolean => issue === 'length' || issue === 'chars';

/** Most tags of a unit and the longest tag. */
export const UNIT_TAGS_MAX = 20;
export const UNIT_TAG_MAX = 32;

/** Tags as stored: trimmed, empty ones dropped, the first of equal ones (ignoring case) kept, in order. */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim().replace(/\s+/g, ' ');
    const key = tag.toLocaleLowerCase();
    if (tag === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

/** Tags from a text such as a CSV cell: separated by commas or semicolons. */
export const tagsFromText = (text: string): string[] => normalizeTags(text.split(/[,;]/));

/** Does a unit with these tags carry the tag (ignoring case)? */
export const hasTag = (tags: readonly string[] | undefined, tag: string): boolean =>
  (tags ?? []).some((t) => t.toLocaleLowerCase() === tag.toLocaleLowerCase());

/** The distinct tags of a list of units, sorted for a filter's choices. */
export function tagChoices(lists: readonly (readonly string[] | undefined)[]): string[] {
  return normalizeTags(lists.flatMap((l) => l ?? [])).sort((a, b) => a.localeCompare(b));
}

/**
 * Does a search text match a unit: its name, plate or VIN, ignoring case; spaces and dashes are
 * ignored in plates and VINs ("B-XY 123" is found by "bxy123").
 */
export function unitMatches(unit: { nm: string; vp?: { pl: string; vin: string } }, search: string): boolean {
  const q = search.trim().toLocaleLowerCase();
  if (q === '') return true;
  if (unit.nm.toLocaleLowerCase().includes(q)) return true;
  const squeeze = (s: string) => s.replace(/[\s-]/g, '').toLocaleLowerCase();
  const sq = squeeze(q);
  if (sq === '' || !unit.vp) return false;
  return squeeze(unit.vp.pl).includes(sq) || squeeze(unit.vp.vin).includes(sq);
}

/**
 * The search text of a unit beside its name (the lists that name units search it too): the plate as
 * written and without spaces and dashes, and the VIN.
 */
export function unitSearchText(vp: { pl: string; vin: string } | undefined): string {
  if (!vp) return '';
  return [vp.pl, vp.pl.replace(/[\s-]/g, ''), vp.vin].filter(Boolean).join(' ');
}

/**
 * Is a filling larger than the unit's tank? Both in integer thousandths of their fuel unit (1 litres,
 * 2 US gallons); the filling is converted to the tank's unit. No capacity: never.
 */
export function fillingOverTank(
  volume: number,
  volumeUnit: number,
  capacity: number | null | undefined,
  capacityUnit: number | null | undefined,
): boolean {
  if (capacity === null || capacity === undefined || capacity <= 0) return false;
  return convertVolume(volume, volumeUnit, capacityUnit ?? volumeUnit) > capacity;
}
