import type { AppContext } from '../context.js';

/** Placeholder until the telematics module lands: the simulator that moves the demo units. */
export function startSimulator(_ctx: AppContext, _intervalMs: number): { stop(): void } {
  return { stop() {} };
}
