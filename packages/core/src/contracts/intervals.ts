/** Wire contracts of the intervals API (DESIGN §5); see common.ts. */
export {};
