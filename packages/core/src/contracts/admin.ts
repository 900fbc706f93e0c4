/** Wire contracts of the admin API (DESIGN §5); see common.ts. */
export {};
