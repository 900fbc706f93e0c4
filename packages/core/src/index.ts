export * from './constants.js';
export * from './decimal.js';
export * from './errors.js';
export * from './events.js';
export * from './geo.js';
export * from './permissions.js';
export * from './validators.js';
