export type { EngineScope } from './plan.js';
export { engineCountersListener, type RecomputeResult, recompute } from './recompute.js';
export { remindDue } from './reminders.js';
export { type EngineOptions, startEngine, sweep } from './timer.js';
