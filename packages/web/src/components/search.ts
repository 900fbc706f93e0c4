/** Spec §5 "Select": search ignores case and accents and matches anywhere; creatable rule. */

export interface SelectOption {
  label: string;
  value: string;
  isDisabled?: boolean;
}

/** Lower-cases and strips accents (combining marks after NFD): 'Ÿñ Café' → 'yn cafe'. */
export function normalizeForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/ø/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/ł/g, 'l')
    .replace(/đ/g, 'd')
    .replace(/ı/g, 'i');
}

/** True when `query` occurs anywhere in `text`, ignoring case and accents; an empty query matches all. */
export function matchesSearch(text: string, query: string): boolean {
  const q = normalizeForSearch(query.trim());
  return q === '' || normalizeForSearch(text).includes(q);
}

/** The options whose label matches the search. */
export function filterOptions<T extends SelectOption>(options: readonly T[], query: string): T[] {
  return options.filter((o) => matchesSearch(o.label, query));
}

/** Offer 'Create "{text}"' only for non-empty text that equals no option's value or label (case-insensitive). */
export function canCreate(text: string, options: readonly SelectOption[]): boolean {
  const wanted = text.trim().toLowerCase();
  if (wanted === '') return false;
  return !options.some((o) => o.value.toLowerCase() === wanted || o.label.trim().toLowerCase() === wanted);
}
