/** Spec §3: names sort naturally and case-insensitively ('unit 2' before 'Unit 10'). */
export const naturalCollator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
