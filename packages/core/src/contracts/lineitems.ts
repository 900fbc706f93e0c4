/** Wire contracts of the lineitems API (DESIGN §5); see common.ts. */
export {};
