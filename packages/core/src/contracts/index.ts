/** The wire contracts of the API (DESIGN §5), one module per domain. */
export * from './common.js';
export * from './intervals.js';
export * from './lineitems.js';
export * from './customfields.js';
export * from './services.js';
export * from './statistics.js';
export * from './fleets.js';
export * from './admin.js';
export * from './user.js';
export * from './session.js';
export * from './platform.js';
export * from './telematics.js';
