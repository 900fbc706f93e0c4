/** Wire contracts of the customfields API (DESIGN §5); see common.ts. */
export {};
