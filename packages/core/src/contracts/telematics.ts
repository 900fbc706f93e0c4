/** Wire contracts of the telematics API (DESIGN §5); see common.ts. */
export {};
