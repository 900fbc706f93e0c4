import { fleetsRoutes } from './fleets.js';
import { fuelRoutes } from './fuel.js';
import { intervalsRoutes } from './intervals.js';
import { meterRoutes } from './meter.js';
import { servicesRoutes } from './services.js';

export * from './fleets.js';
export * from './fuel.js';
export * from './intervals.js';
export * from './meter.js';
export * from './route.js';
export * from './services.js';

/**
 * Every API route's descriptor by module (core routes/route.ts). The server registers each one
 * (http/serve.ts; a test checks that none is left out and none is registered without one), the web
 * client is derived from this object.
 */
export const routes = {
  fleets: fleetsRoutes,
  fuel: fuelRoutes,
  intervals: intervalsRoutes,
  meter: meterRoutes,
  services: servicesRoutes,
};
