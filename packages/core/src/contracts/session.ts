/** Wire contracts of the session API (DESIGN §5); see common.ts. */
export {};
