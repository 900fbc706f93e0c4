/** Wire contracts of the fleets API (DESIGN §5); see common.ts. */
export {};
