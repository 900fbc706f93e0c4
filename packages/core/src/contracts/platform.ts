/** Wire contracts of the platform API (DESIGN §5); see common.ts. */
export {};
