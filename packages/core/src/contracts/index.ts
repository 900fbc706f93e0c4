/** The wire contracts of the API (DESIGN §5), one module per domain. */

export * from './admin.js';
export * from './common.js';
export * from './customfields.js';
export * from './fault-codes.js';
export * from './fleet-transfer.js';
export * from './fleets.js';
export * from './fuel.js';
export * from './imports.js';
export * from './intervals.js';
export * from './issues.js';
export * from './lineitems.js';
export * from './lubelogger.js';
export * from './meter.js';
export * from './notification-channels.js';
export * from './notifications.js';
export * from './platform.js';
export * from './refusal.js';
export * from './reportmails.js';
export * from './reports.js';
export * from './services.js';
export * from './session.js';
export * from './setup.js';
export * from './statistics.js';
export * from './telematics.js';
export * from './user.js';
export * from './work-orders.js';
