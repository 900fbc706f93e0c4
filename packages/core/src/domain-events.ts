import { NotificationKind, ServiceFlag } from './constants.js';
import type { IssuePriority, IssueStatus } from './issues.js';
import { isOverdue, statusOf } from './service-status.js';
import { addCalendar, startOfDay } from './timezone.js';
import type { WorkOrderStatus } from './work-orders.js';

/**
 * Domain events (DESIGN §6 "domain events"): what happened to the fleet's data, not
 * only which row changed. The server records each in its outbox table in the same transaction as the
 * change, with a stable unique id, and hands it to every consumer (notifications, webhooks, report
 * mails) exactly once. Pure types and rules here; the recording is in the server's `events/`.
 */

export const DomainEventType = {
  /** A person created a service, as Due, In progress or Closed (spec §4); `f` tells which. */
  serviceCreated: 'service.created',
  /**
   * A service became Due: the status engine created it because an interval's advance notice was reached
   * (PRODUCT.md "The status engine": remaining ≤ notice `cnmo`/`cneho`/`do`, the "upcoming" rule), or a
   * person set an In progress service back to Due.
   */
  serviceDue: 'service.due',
  /** A Due service passed a threshold: `kinds` holds the newly set bits 256 / 512 / 1024 (spec §4). */
  serviceOverdue: 'service.overdue',
  serviceInProgress: 'service.inProgress',
  serviceClosed: 'service.closed',
  serviceRejected: 'service.rejected',
  /** The "notify N days before" day of a Due service was reached (see `reminderDay`). */
  serviceReminder: 'service.reminder',
  /** A unit's counters moved (a device reading or a hand correction). */
  countersChanged: 'unit.counters',
  /**
   * A unit's device reported a fault code (DTC) that was not active: seen for the first time, or again
   * after a manager cleared it (`reopened`). Telematics ingestion records it with the reading.
   */
  faultCodeOpened: 'unit.faultCode',
  /** Fleet settings changed (PUT /api/fleets/{id}). */
  fleetSettingsChanged: 'fleet.settings',
  /** The fleet lost visibility because its account, or one above it, was suspended. */
  fleetSuspended: 'fleet.suspended',
  /** A person recorded a fuel filling (PRODUCT.md "Fuel fillings"). */
  fuelCreated: 'fuel.created',
  /** A fuel filling changed; `before` holds the figures it had. */
  fuelUpdated: 'fuel.updated',
  /** A fuel filling was deleted; the event carries the figures it had. */
  fuelDeleted: 'fuel.deleted',
  /** A unit was assigned to a driver (docs/product.md "Vehicle assignments"). */
  assignmentCreated: 'assignment.created',
  /** An assignment changed: ended, reopened, its times, meters or driver corrected. */
  assignmentUpdated: 'assignment.updated',
  assignmentDeleted: 'assignment.deleted',
  /** Inspections (docs/product.md "Inspections"): a form added, changed or deleted. */
  inspectionFormChanged: 'inspectionForm.changed',
  /** An inspection was submitted; with defects it notifies (kind 512, inspection failed). */
  inspectionSubmitted: 'inspection.submitted',
  /** A mechanic certified defects of an inspection (repaired or repair unnecessary). */
  inspectionCertified: 'inspection.certified',
  /** A driver acknowledged an inspection report and its certification. */
  inspectionAcknowledged: 'inspection.acknowledged',
  /** An inspection was deleted, by a person or by the fleet's retention. */
  inspectionDeleted: 'inspection.deleted',
  /** Someone reported an issue of a unit or trailer, or an inspection's failed item opened one. */
  issueReported: 'issue.reported',
  /** An issue's fields changed, it was reopened, or a work order took it or let it go. */
  issueChanged: 'issue.changed',
  /** An issue was resolved (by a person or by completing its work order). */
  issueResolved: 'issue.resolved',
  /** An issue was closed as not a defect, with a note. */
  issueClosed: 'issue.closed',
  /** An issue was deleted. */
  issueDeleted: 'issue.deleted',
  /** A work order was made (docs/product.md "Work orders"). */
  workOrderCreated: 'workOrder.created',
  /** A work order's fields, links, line items or status (start, hold) changed. */
  workOrderChanged: 'workOrder.changed',
  /** A work order got an assignee (made with one, or the assignee changed to another user). */
  workOrderAssigned: 'workOrder.assigned',
  /** A work order was completed: its services closed, the unplanned one archived, its issues resolved. */
  workOrderCompleted: 'workOrder.completed',
  /** A work order was cancelled: its issues went back to open. */
  workOrderCancelled: 'workOrder.cancelled',
  /** A work order was deleted. */
  workOrderDeleted: 'workOrder.deleted',
  /**
   * A document's period entered its reminder window (docs/product.md "Documents": N days before its end,
   * per type, default 30); recorded once per period by the reminder job. Sent as kind 2048.
   */
  documentExpiring: 'document.expiring',
  /** A tread-depth reading under the fleet's threshold (docs/product.md "Components"; kind 4096). */
  componentTreadLow: 'component.treadLow',
  /** A part's stock at a location dropped to or under its threshold (docs/product.md "Parts and stock"). */
  partLowStock: 'part.lowStock',
} as const;

export type DomainEventType = (typeof DomainEventType)[keyof typeof DomainEventType];

export const DOMAIN_EVENT_TYPES: readonly DomainEventType[] = Object.values(DomainEventType);

/** What every domain event carries. */
export interface DomainEventBase<T extends DomainEventType> {
  /** Stable unique id (a UUID): the same for every consumer, across restarts and instances. */
  id: string;
  type: T;
  /** The fleet it happened in. */
  fid: number;
  /** When it happened, Unix seconds. */
  at: number;
  /** The user whose request caused it; null for the status engine, devices and timers. */
  by: number | null;
}

/** The service a service event is about, with its status flags after the change (spec §4). */
export interface ServiceSubject {
  serviceId: number;
  objectType: 'u' | 'd' | 't';
  objectId: number;
  /** The interval of a service made from one (null for a free service). */
  intervalId: number | null;
  f: number;
}

export type ServiceCreatedEvent = DomainEventBase<'service.created'> & ServiceSubject;
export type ServiceDueEvent = DomainEventBase<'service.due'> &
  ServiceSubject & { reason: 'notice' | 'reopened' };
export type ServiceOverdueEvent = DomainEventBase<'service.overdue'> & ServiceSubject & { kinds: number };
export type ServiceInProgressEvent = DomainEventBase<'service.inProgress'> & ServiceSubject;
export type ServiceClosedEvent = DomainEventBase<'service.closed'> & ServiceSubject;
export type ServiceRejectedEvent = DomainEventBase<'service.rejected'> & ServiceSubject;
export type ServiceReminderEvent = DomainEventBase<'service.reminder'> &
  ServiceSubject & {
    /** The planned date and the notify-before days the reminder was computed from. */
    plannedDate: number;
    notifyDays: number;
    /** Start of the reminder day in the fleet zone. */
    day: number;
  };
export type CountersChangedEvent = DomainEventBase<'unit.counters'> & {
  unitId: number;
  /** Total counters as stored: km and hours (fleets in miles convert at the edges). */
  mileage: number;
  engineHours: number;
};
export type FaultCodeOpenedEvent = DomainEventBase<'unit.faultCode'> & {
  unitId: number;
  /** The fault code row (contracts/fault-codes.ts `id`). */
  faultCodeId: number;
  code: string;
  reopened: boolean;
  /** Readings that reported it so far, this one included. */
  count: number;
};
export type FleetSettingsChangedEvent = DomainEventBase<'fleet.settings'> & {
  /** The wire names of the settings whose value changed (n, tz, cur, ms, fm). */
  changed: string[];
};
export type FleetSuspendedEvent = DomainEventBase<'fleet.suspended'> & {
  /** The account whose suspension took the fleet (its own or one above it). */
  accountId: number;
};

/**
 * The figures of a fuel filling that period statistics add up (fuel cost,
 * consumption per unit and per day). Volume and cost are integer thousandths, so sums are exact.
 */
export interface FuelFigures {
  unitId: number;
  /** When the tank was filled, Unix seconds. */
  filledAt: number;
  /** Integer thousandths of `volumeUnit` (spec §3 fuel volume units: 1 litres, 2 US gallons). */
  volume: number;
  volumeUnit: number;
  /** Integer thousandths of the fleet currency. */
  cost: number;
  /** Mileage at the filling, km; null when unknown. */
  mileage: number | null;
  full: boolean;
}

export type FuelSubject = FuelFigures & { fillingId: number };
export type FuelCreatedEvent = DomainEventBase<'fuel.created'> & FuelSubject;
export type FuelUpdatedEvent = DomainEventBase<'fuel.updated'> & FuelSubject & { before: FuelFigures };
export type FuelDeletedEvent = DomainEventBase<'fuel.deleted'> & FuelSubject;
export type FuelDomainEvent = FuelCreatedEvent | FuelUpdatedEvent | FuelDeletedEvent;

/** The assignment an assignment event is about, as it is after the change (before it, for a delete). */
export interface AssignmentSubject {
  assignmentId: number;
  unitId: number;
  /** The driver (user id). */
  driverId: number;
  start: number;
  end: number | null;
}
export type AssignmentDomainEvent =
  | (DomainEventBase<'assignment.created'> & AssignmentSubject)
  | (DomainEventBase<'assignment.updated'> & AssignmentSubject)
  | (DomainEventBase<'assignment.deleted'> & AssignmentSubject);
export type InspectionFormChangedEvent = DomainEventBase<'inspectionForm.changed'> & {
  formId: number;
  change: 'created' | 'updated' | 'deleted';
};
/** The inspection an inspection event is about. */
export interface InspectionSubject {
  inspectionId: number;
  objectType: 'u' | 't';
  objectId: number;
}
export type InspectionSubmittedEvent = DomainEventBase<'inspection.submitted'> &
  InspectionSubject & {
    formName: string;
    /** Defects (failed pass/fail items) and the worst severity among them (null without defects). */
    defects: number;
    worst: 'minor' | 'major' | 'dangerous' | null;
  };
export type InspectionCertifiedEvent = DomainEventBase<'inspection.certified'> &
  InspectionSubject & { defectIds: number[] };
export type InspectionAcknowledgedEvent = DomainEventBase<'inspection.acknowledged'> & InspectionSubject;
export type InspectionDeletedEvent = DomainEventBase<'inspection.deleted'> &
  InspectionSubject & { reason: 'deleted' | 'retention' };
export type InspectionDomainEvent =
  | InspectionFormChangedEvent
  | InspectionSubmittedEvent
  | InspectionCertifiedEvent
  | InspectionAcknowledgedEvent
  | InspectionDeletedEvent;
/** The issue an issue event is about (docs/product.md "Issues"), as it is after the change. */
export interface IssueSubject {
  issueId: number;
  objectType: 'u' | 't';
  objectId: number;
  priority: IssuePriority;
  status: IssueStatus;
}
export type IssueReportedEvent = DomainEventBase<'issue.reported'> &
  IssueSubject & { inspectionId: number | null };
export type IssueChangedEvent = DomainEventBase<'issue.changed'> & IssueSubject & { before: IssueStatus };
export type IssueResolvedEvent = DomainEventBase<'issue.resolved'> &
  IssueSubject & { workOrderId: number | null };
export type IssueClosedEvent = DomainEventBase<'issue.closed'> & IssueSubject;
export type IssueDeletedEvent = DomainEventBase<'issue.deleted'> & IssueSubject;
export type IssueDomainEvent =
  | IssueReportedEvent
  | IssueChangedEvent
  | IssueResolvedEvent
  | IssueClosedEvent
  | IssueDeletedEvent;

/** The work order a work-order event is about (docs/product.md "Work orders"), after the change. */
export interface WorkOrderSubject {
  workOrderId: number;
  objectType: 'u' | 't';
  objectId: number;
  status: WorkOrderStatus;
  assigneeId: number | null;
}
export type WorkOrderCreatedEvent = DomainEventBase<'workOrder.created'> & WorkOrderSubject;
export type WorkOrderChangedEvent = DomainEventBase<'workOrder.changed'> &
  WorkOrderSubject & { before: WorkOrderStatus };
export type WorkOrderAssignedEvent = DomainEventBase<'workOrder.assigned'> & WorkOrderSubject;
export type WorkOrderCompletedEvent = DomainEventBase<'workOrder.completed'> &
  WorkOrderSubject & {
    /** The services it closed (linked) and the one it archived for the unplanned work (null: none). */
    closedServiceIds: number[];
    unplannedServiceId: number | null;
    resolvedIssueIds: number[];
    /** Downtime in seconds (null when no start was known). */
    downtime: number | null;
  };
export type WorkOrderCancelledEvent = DomainEventBase<'workOrder.cancelled'> & WorkOrderSubject;
export type WorkOrderDeletedEvent = DomainEventBase<'workOrder.deleted'> & WorkOrderSubject;
export type WorkOrderDomainEvent =
  | WorkOrderCreatedEvent
  | WorkOrderChangedEvent
  | WorkOrderAssignedEvent
  | WorkOrderCompletedEvent
  | WorkOrderCancelledEvent
  | WorkOrderDeletedEvent;

/** A document period entering its reminder window (docs/product.md "Documents"). */
export type DocumentExpiringEvent = DomainEventBase<'document.expiring'> & {
  documentId: number;
  periodId: number;
  ownerType: 'u' | 't' | 'd';
  ownerId: number;
  /** The built-in type, or custom with the fleet-defined type's name. */
  docType: string;
  typeName: string;
  number: string;
  /** End of the period, Unix seconds, and the reminder days it was computed with. */
  validTo: number;
  reminderDays: number;
};

/** A tyre's tread read under the fleet threshold; depth and threshold in mm. */
export type ComponentTreadLowEvent = DomainEventBase<'component.treadLow'> & {
  componentId: number;
  kind: string;
  serial: string;
  unitId: number | null;
  position: string | null;
  depth: number;
  threshold: number;
};

/** Stock of a part at a location went from above its threshold to it or under (thousandths). */
export type PartLowStockEvent = DomainEventBase<'part.lowStock'> & {
  partId: number;
  locationId: number;
  qty: number;
  threshold: number;
};

export type ServiceDomainEvent =
  | ServiceCreatedEvent
  | ServiceDueEvent
  | ServiceOverdueEvent
  | ServiceInProgressEvent
  | ServiceClosedEvent
  | ServiceRejectedEvent
  | ServiceReminderEvent;

export type DomainEvent =
  | ServiceDomainEvent
  | CountersChangedEvent
  | FaultCodeOpenedEvent
  | FleetSettingsChangedEvent
  | FleetSuspendedEvent
  | FuelDomainEvent
  | AssignmentDomainEvent
  | InspectionDomainEvent
  | IssueDomainEvent
  | WorkOrderDomainEvent
  | DocumentExpiringEvent
  | ComponentTreadLowEvent
  | PartLowStockEvent;

type WithoutId<E> = E extends unknown ? Omit<E, 'id'> : never;
/** An event before the outbox gave it its id. */
export type NewDomainEvent = WithoutId<DomainEvent>;

/** The overdue kind bits (spec §4). */
export const OVERDUE_KIND_BITS =
  ServiceFlag.overdueByMileage | ServiceFlag.overdueByEngineHours | ServiceFlag.overdueByDays;

/** One service event a change makes, before it gets its subject and time. */
export type ServiceChange =
  | { type: 'service.created' }
  | { type: 'service.due'; reason: 'notice' | 'reopened' }
  | { type: 'service.overdue'; kinds: number }
  | { type: 'service.inProgress' | 'service.closed' | 'service.rejected' }
  | { type: 'service.reminder'; plannedDate: number; notifyDays: number; day: number };

/** Overdue kind bits set in `after` that were not in `before` (both read as Due services). */
export function newlyOverdueKinds(before: number, after: number): number {
  if (!isOverdue(after)) return 0;
  const had = isOverdue(before) ? before & OVERDUE_KIND_BITS : 0;
  return after & OVERDUE_KIND_BITS & ~had;
}

/**
 * The events of a person's write of a service (PRODUCT.md "Services"): a creation is one
 * `service.created` whatever its status; an update makes one event when the status changes (edits that
 * keep the status make none); Closed and Rejected are frozen, so nothing follows them.
 */
export function serviceWriteChanges(before: number | null, after: number): ServiceChange[] {
  if (before === null) return [{ type: 'service.created' }];
  const from = statusOf(before);
  const to = statusOf(after);
  if (from === to) return [];
  switch (to) {
    case 'due':
      return [{ type: 'service.due', reason: 'reopened' }];
    case 'inProgress':
      return [{ type: 'service.inProgress' }];
    case 'closed':
      return [{ type: 'service.closed' }];
    case 'rejected':
      return [{ type: 'service.rejected' }];
  }
}

/**
 * The events of the status engine's writes (PRODUCT.md "The status engine"): a creation is
 * `service.due` (and `service.overdue` too when it starts past a threshold); a flag change that sets
 * overdue kinds is one `service.overdue` with those kinds. Clearing overdue flags makes no event.
 */
export function engineChanges(before: number | null, after: number): ServiceChange[] {
  const out: ServiceChange[] = [];
  if (before === null) out.push({ type: 'service.due', reason: 'notice' });
  const kinds = newlyOverdueKinds(before ?? ServiceFlag.upcoming, after);
  if (kinds !== 0) out.push({ type: 'service.overdue', kinds });
  return out;
}

/**
 * The reminder day of a Due service with "notify N days before" (PRODUCT.md "Services" and
 * "Notifications"): the start of the fleet-local day N calendar days before its planned date.
 */
export function reminderDay(tz: number, plannedDate: number, notifyDays: number): number {
  return startOfDay(tz, addCalendar(tz, plannedDate, -notifyDays, 'd'));
}

export interface ReminderState {
  f: number;
  plannedDate: number | null;
  notifyDays: number | null;
  /** The reminder day already announced for this service, if any. */
  remindedDay: number | null;
}

/**
 * The reminder day to announce now, or null. A Due service (spec §4: not In progress, not archived)
 * with a planned date and notify days reaches it on its reminder day; a service made or moved inside the
 * window reaches it at once. Each reminder day is announced once: moving the planned date or the days
 * gives a new one. Services made by the engine carry no notify days: their notice is the interval's
 * advance notice, announced as `service.due`.
 */
export function dueReminder(state: ReminderState, tz: number, at: number): number | null {
  if (statusOf(state.f) !== 'due' || state.plannedDate === null || state.notifyDays === null) return null;
  const day = reminderDay(tz, state.plannedDate, state.notifyDays);
  if (day > startOfDay(tz, at) || state.remindedDay === day) return null;
  return day;
}

/**
 * The notification kind of an event (DESIGN §6: the status flag values as bits), or null for events
 * that notify no one by themselves. A created service notifies by its status; the reminder is a Due one.
 */
export function notificationKindOf(event: Pick<DomainEvent, 'type'> & { f?: number }): number | null {
  switch (event.type) {
    case 'service.created': {
      const status = statusOf(event.f ?? 0);
      return status === 'due' ? NotificationKind.upcoming : NotificationKind[status];
    }
    case 'service.due':
    case 'service.reminder':
      return NotificationKind.upcoming;
    case 'service.overdue':
      return NotificationKind.overdue;
    case 'service.inProgress':
      return NotificationKind.inProgress;
    case 'service.closed':
      return NotificationKind.closed;
    case 'service.rejected':
      return NotificationKind.rejected;
    default:
      return null;
  }
}
