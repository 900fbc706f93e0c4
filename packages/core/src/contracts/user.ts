/** Wire contracts of the user API (DESIGN §5); see common.ts. */
export {};
