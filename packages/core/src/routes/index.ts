import { adminRoutes } from './admin.js';
import { assignmentsRoutes } from './assignments.js';
import { clientErrorsRoutes } from './client-errors.js';
import { componentsRoutes } from './components.js';
import { customfieldsRoutes } from './customfields.js';
import { documentsRoutes } from './documents.js';
import { faultCodeRoutes } from './fault-codes.js';
import { fleetTransferRoutes } from './fleet-transfer.js';
import { fleetsRoutes } from './fleets.js';
import { fuelRoutes } from './fuel.js';
import { importsRoutes } from './imports.js';
import { inspectionFormRoutes, inspectionRoutes } from './inspections.js';
import { intervalsRoutes } from './intervals.js';
import { issuesRoutes } from './issues.js';
import { lineitemsRoutes } from './lineitems.js';
import { metaRoutes } from './meta.js';
import { meterRoutes } from './meter.js';
import { notificationChannelsRoutes } from './notification-channels.js';
import { notificationsRoutes } from './notifications.js';
import { partsRoutes, purchaseOrdersRoutes, stockLocationsRoutes } from './parts.js';
import { platformRoutes } from './platform.js';
import { reportmailsRoutes } from './reportmails.js';
import { reportsRoutes } from './reports.js';
import { servicesRoutes } from './services.js';
import { sessionRoutes } from './session.js';
import { setupRoutes } from './setup.js';
import { statisticsRoutes } from './statistics.js';
import { telematicsRoutes } from './telematics.js';
import { userRoutes } from './user.js';
import { workOrdersRoutes } from './work-orders.js';

export * from './admin.js';
export * from './assignments.js';
export * from './client-errors.js';
export * from './components.js';
export * from './customfields.js';
export * from './documents.js';
export * from './fault-codes.js';
export * from './fleet-transfer.js';
export * from './fleets.js';
export * from './fuel.js';
export * from './imports.js';
export * from './intervals.js';
export * from './issues.js';
export * from './lineitems.js';
export * from './meta.js';
export * from './meter.js';
export * from './notification-channels.js';
export * from './notifications.js';
export * from './parts.js';
export * from './platform.js';
export * from './reportmails.js';
export * from './reports.js';
export * from './route.js';
export * from './services.js';
export * from './session.js';
export * from './setup.js';
export * from './statistics.js';
export * from './telematics.js';
export * from './user.js';
export * from './work-orders.js';

/**
 * Every API route's descriptor by module (core routes/route.ts). The server registers each one
 * (http/serve.ts; a test checks that none is left out and none is registered without one), the web
 * client is derived from this object.
 */
export const routes = {
  admin: adminRoutes,
  clientErrors: clientErrorsRoutes,
  customfields: customfieldsRoutes,
  faultCodes: faultCodeRoutes,
  fleetTransfer: fleetTransferRoutes,
  fleets: fleetsRoutes,
  fuel: fuelRoutes,
  imports: importsRoutes,
  intervals: intervalsRoutes,
  lineitems: lineitemsRoutes,
  meta: metaRoutes,
  meter: meterRoutes,
  notificationChannels: notificationChannelsRoutes,
  notifications: notificationsRoutes,
  platform: platformRoutes,
  reportmails: reportmailsRoutes,
  reports: reportsRoutes,
  services: servicesRoutes,
  session: sessionRoutes,
  setup: setupRoutes,
  statistics: statisticsRoutes,
  telematics: telematicsRoutes,
  user: userRoutes,
  assignments: assignmentsRoutes,
  inspectionForms: inspectionFormRoutes,
  inspections: inspectionRoutes,
  issues: issuesRoutes,
  workOrders: workOrdersRoutes,
  documents: documentsRoutes,
  components: componentsRoutes,
  parts: partsRoutes,
  stockLocations: stockLocationsRoutes,
  purchaseOrders: purchaseOrdersRoutes,
};
export * from './inspections.js';
