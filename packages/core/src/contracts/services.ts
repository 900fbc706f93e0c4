/** Wire contracts of the services API (DESIGN §5); see common.ts. */
export {};
