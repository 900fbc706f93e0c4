/** Wire contracts of the statistics API (DESIGN §5); see common.ts. */
export {};
