export * from './consumption.js';
export * from './dates.js';
export * from './languages.js';
export * from './number.js';
export * from './units.js';
