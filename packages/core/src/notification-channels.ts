import { NotificationKind } from './constants.js';
import { isNotificationKind, setupExistedAt } from './notifications.js';

/**
 * True for a kind a channel set-up sends: a service kind, a critical fault code, an issue reported, a
 * failed inspection, a work order assigned or completed, a document nearing its expiry, a tyre's tread
 * low.
 */
export function isChannelKind(kind: number): boolean {
  return (
    isNotificationKind(kind) ||
    kind === NotificationKind.criticalFault ||
    kind === NotificationKind.issueReported ||
    kind === NotificationKind.inspectionFailed ||
    kind === NotificationKind.workOrderAssigned ||
    kind === NotificationKind.workOrderCompleted ||
    kind === NotificationKind.documentExpiring ||
    kind === NotificationKind.treadLow ||
    kind === NotificationKind.lowStock
  );
}

/**
 * Notification channels (e-mail, messaging bot, external server): the pure rules —
 * which set-ups an event goes to, the external server's JSON payload (PRODUCT.md "Notifications"), the
 * string its HMAC-SHA256 signature covers, and the retry schedule of a failed delivery. The server's
 * modules/notification-channels applies them; the wire shapes are in contracts/notification-channels.ts.
 */

/** Seconds to wait before retry n (1-based) of a failed delivery; after the last, it is given up. */
export const DELIVERY_BACKOFF_SECONDS: readonly number[] = [60, 5 * 60, 30 * 60, 2 * 3600];
/** Attempts of one delivery in all: the first one and a retry per backoff step. */
export const DELIVERY_ATTEMPTS_MAX = DELIVERY_BACKOFF_SECONDS.length + 1;

/**
 * When a delivery that failed on attempt `attempts` (1-based) is tried again, as seconds from now, or
 * `null` when it has had its last attempt (status failed).
 */
export function retryDelay(attempts: number): number | null {
  if (!Number.isInteger(attempts) || attempts < 1) return DELIVERY_BACKOFF_SECONDS[0] ?? null;
  return DELIVERY_BACKOFF_SECONDS[attempts - 1] ?? null;
}

/** A channel set-up as the matching rule reads it. */
export interface ChannelSetupRule {
  id: number;
  on: boolean;
  /** The kinds it sends (bit mask). */
  k: number;
  /** When it was made, Unix seconds: what happened before is not its business. */
  since?: number;
}

/**
 * The switched-on set-ups whose kinds include `kind` (each gets one delivery of the event). With the
 * event's time `at`, a set-up made after the event is left out: the outbox may still hand over events from
 * before a set-up existed (a start's backlog, a consumer catching up), and a new webhook or chat should
 * not receive history.
 */
export function setupsFor<T extends ChannelSetupRule>(setups: readonly T[], kind: number, at?: number): T[] {
  if (!isChannelKind(kind)) return [];
  return setups.filter((s) => s.on && (s.k & kind) !== 0 && setupExistedAt(s.since, at));
}

/** The names of the kind bits in the payload's `event.kind_name` (DESIGN §6). */
export const NOTIFICATION_KIND_NAMES: Readonly<Record<number, string>> = {
  [NotificationKind.upcoming]: 'due',
  [NotificationKind.inProgress]: 'inProgress',
  [NotificationKind.overdue]: 'overdue',
  [NotificationKind.closed]: 'closed',
  [NotificationKind.rejected]: 'rejected',
  [NotificationKind.criticalFault]: 'criticalFault',
  [NotificationKind.inspectionFailed]: 'inspectionFailed',
  [NotificationKind.issueReported]: 'issueReported',
  [NotificationKind.workOrderAssigned]: 'workOrderAssigned',
  [NotificationKind.workOrderCompleted]: 'workOrderCompleted',
  [NotificationKind.documentExpiring]: 'documentExpiring',
  [NotificationKind.treadLow]: 'treadLow',
  [NotificationKind.lowStock]: 'lowStock',
};

/** What the server knows of an event when it queues its deliveries (the snapshot a delivery keeps). */
export interface ChannelEventSnapshot {
  /** Domain event id (UUID). */
  eventId: string;
  /** Domain event type, e.g. `service.due`. */
  type: string;
  kind: number;
  /** When it happened, Unix seconds. */
  at: number;
  fleet: { id: number; name: string; tz: number; cur: string; ms: number };
  service: {
    id: number;
    name: string;
    /** Status flags after the change. */
    f: number;
    /** Unix seconds or null. */
    plannedDate: number | null;
    /** km (the fleet's unit on the wire is km; the payload says so). */
    limitMileage: number | null;
    limitEngineHours: number | null;
    /** Decimal cost in the fleet's currency, or null when none is known. */
    cost: number | null;
  };
  object: { type: 'u' | 'd' | 't'; id: number; name: string };
  /** A critical fault code (kind 32): the code of the unit (`object`); `service` is then empty (id 0). */
  fault?: { code: string; count: number; reopened: boolean };
  /** An issue reported (kind 64): the issue of the unit or trailer (`object`); `service` is then empty. */
  issue?: ChannelIssue;
  /** An inspection with defects (kind 512): the object's inspection; `service` is then empty (id 0). */
  inspection?: InspectionSnapshot;
  /** A work order assigned (kind 128) or completed (kind 256): `service` is then empty. */
  workOrder?: ChannelWorkOrder;
  /** A document nearing its expiry (kind 2048): the object's document; `service` is then empty. */
  document?: ChannelDocument;
  /** A tread reading under the fleet's threshold (kind 4096): `object` is the unit it is mounted on. */
  component?: ChannelComponent;
  /** A part's stock low at a location (kind 1024): no object (id 0) and no service. */
  part?: ChannelPart;
}

/** A part whose stock went low, as a channel message tells it (docs/product.md "Parts and stock"). */
export interface ChannelPart {
  id: number;
  number: string;
  name: string;
  /** The unit of measure ('' when none). */
  unit: string;
  location: string;
  /** Quantity on hand and the location's threshold, decimals. */
  qty: number;
  threshold: number;
}

/** A document as a channel message tells it (docs/product.md "Documents"). */
export interface ChannelDocument {
  id: number;
  /** The built-in type name (registration, insurance, …) or custom. */
  type: string;
  /** The fleet-defined type's name ('' for a built-in type). */
  type_name: string;
  number: string;
  /** End of the period, Unix seconds, and the reminder days it was reminded with. */
  valid_to: number;
  reminder_days: number;
}

/** A component as a channel message tells it (docs/product.md "Components"); depths in mm. */
export interface ChannelComponent {
  id: number;
  kind: string;
  serial: string;
  position: string | null;
  depth: number;
  threshold: number;
}

/** A work order as a channel message tells it (docs/product.md "Work orders"). */
export interface ChannelWorkOrder {
  id: number;
  title: string;
  status: string;
  /** Who does the work ('' when none). */
  assignee: string;
  /** Sum of its line items in the fleet currency. */
  cost: number;
  /** Completed: downtime in seconds (null when unknown or not completed). */
  downtime: number | null;
  /** Completed: the meter at completion, km and hours. */
  mileage: number | null;
  engineHours: number | null;
}

/** An issue as a channel message tells it (docs/product.md "Issues"). */
export interface ChannelIssue {
  id: number;
  title: string;
  description: string;
  priority: string;
  /** Who reported it ('' when unknown). */
  reporter: string;
}

/** What a failed inspection's message says: its id, the form, the defects and the worst severity. */
export interface InspectionSnapshot {
  id: number;
  form: string;
  defects: number;
  worst: 'minor' | 'major' | 'dangerous';
}

/** The external server's JSON body (PRODUCT.md "Notifications"; docs/operations.md "Webhooks"). */
export interface WebhookPayload {
  event: { id: string; type: string; kind: number; kind_name: string; time: number };
  fleet: { id: number; name: string; currency: string };
  service: {
    id: number;
    name: string;
    f: number;
    planned_date: number | null;
    limit_mileage_km: number | null;
    limit_engine_hours: number | null;
    cost: number | null;
  } | null;
  object: { type: 'unit' | 'driver' | 'trailer'; id: number; name: string };
  /** Kind 32 only: the critical fault code the unit reported (`service` is then null). */
  fault?: { code: string; count: number; reopened: boolean };
  /** Kind 64 only: the issue reported (`service` is then null). */
  issue?: ChannelIssue;
  /** Kind 512 only: the inspection with defects (`service` is then null). */
  inspection?: InspectionSnapshot;
  /** Kinds 128 and 256 only: the work order assigned or completed (`service` is then null). */
  work_order?: ChannelWorkOrder;
  /** Kind 2048 only: the document nearing its expiry (`service` is then null). */
  document?: ChannelDocument;
  /** Kind 4096 only: the component whose tread read low (`service` is then null). */
  component?: ChannelComponent;
  /** Kind 1024 only: the part whose stock went low (`service` is then null). */
  part?: ChannelPart;
  link: string;
}

const OBJECT_TYPE_NAMES = { u: 'unit', d: 'driver', t: 'trailer' } as const;

/** The link to a unit's fault codes on the public site (the unit page's tab). */
export function unitFaultsUrl(publicUrl: string, unitId: number): string {
  return `${publicUrl.replace(/\/+$/, '')}/unit/${unitId}?tab=faults`;
}

/** The link to an inspection on the public site. */
export function inspectionUrl(publicUrl: string, inspectionId: number): string {
  return `${publicUrl.replace(/\/+$/, '')}/inspections/${inspectionId}`;
}

/** The link to an issue on the public site (the issues screen's issue page). */
export function issueUrl(publicUrl: string, issueId: number): string {
  return `${publicUrl.replace(/\/+$/, '')}/issues/${issueId}`;
}

/** The link to a component on the public site (the components screen's page). */
export function componentUrl(publicUrl: string, componentId: number): string {
  return `${publicUrl.replace(/\/+$/, '')}/components/${componentId}`;
}

/** The link to a part on the public site (the parts screen's page). */
export function partUrl(publicUrl: string, partId: number): string {
  return `${publicUrl.replace(/\/+$/, '')}/parts/${partId}`;
}

/** The link to a work order on the public site (the work-orders screen's page). */
export function workOrderUrl(publicUrl: string, workOrderId: number): string {
  return `${publicUrl.replace(/\/+$/, '')}/work-orders/${workOrderId}`;
}

/** The link to a document on the public site (the documents screen's page). */
export function documentUrl(publicUrl: string, documentId: number): string {
  return `${publicUrl.replace(/\/+$/, '')}/documents/${documentId}`;
}

/** The link a delivery carries: the work order, the issue, the inspection, the unit's fault codes, or the service. */
export function snapshotLink(snapshot: ChannelEventSnapshot, publicUrl: string): string {
  if (snapshot.component) return componentUrl(publicUrl, snapshot.component.id);
  if (snapshot.part) return partUrl(publicUrl, snapshot.part.id);
  if (snapshot.workOrder) return workOrderUrl(publicUrl, snapshot.workOrder.id);
  if (snapshot.document) return documentUrl(publicUrl, snapshot.document.id);
  if (snapshot.issue) return issueUrl(publicUrl, snapshot.issue.id);
  if (snapshot.inspection) return inspectionUrl(publicUrl, snapshot.inspection.id);
  if (snapshot.fault) return unitFaultsUrl(publicUrl, snapshot.object.id);
  return serviceUrl(publicUrl, snapshot.service.id);
}

/** The link to a service on the public site (spec §2 "/service/{id}"). */
export function serviceUrl(publicUrl: string, serviceId: number): string {
  return `${publicUrl.replace(/\/+$/, '')}/service/${serviceId}`;
}

export function webhookPayload(snapshot: ChannelEventSnapshot, publicUrl: string): WebhookPayload {
  const s = snapshot.service;
  return {
    event: {
      id: snapshot.eventId,
      type: snapshot.type,
      kind: snapshot.kind,
      kind_name: NOTIFICATION_KIND_NAMES[snapshot.kind] ?? '',
      time: snapshot.at,
    },
    fleet: { id: snapshot.fleet.id, name: snapshot.fleet.name, currency: snapshot.fleet.cur },
    service:
      snapshot.fault ||
      snapshot.issue ||
      snapshot.inspection ||
      snapshot.workOrder ||
      snapshot.document ||
      snapshot.component ||
      snapshot.part
        ? null
        : {
            id: s.id,
            name: s.name,
            f: s.f,
            planned_date: s.plannedDate,
            limit_mileage_km: s.limitMileage,
            limit_engine_hours: s.limitEngineHours,
            cost: s.cost,
          },
    object: {
      type: OBJECT_TYPE_NAMES[snapshot.object.type],
      id: snapshot.object.id,
      name: snapshot.object.name,
    },
    ...(snapshot.fault && { fault: snapshot.fault }),
    ...(snapshot.issue && { issue: snapshot.issue }),
    ...(snapshot.inspection && { inspection: snapshot.inspection }),
    ...(snapshot.workOrder && { work_order: snapshot.workOrder }),
    ...(snapshot.document && { document: snapshot.document }),
    ...(snapshot.component && { component: snapshot.component }),
    ...(snapshot.part && { part: snapshot.part }),
    link: snapshotLink(snapshot, publicUrl),
  };
}

/** The request headers of a webhook delivery (docs/operations.md "Webhooks"). */
export const WebhookHeader = {
  event: 'X-Fleetkeep-Event',
  delivery: 'X-Fleetkeep-Delivery',
  timestamp: 'X-Fleetkeep-Timestamp',
  signature: 'X-Fleetkeep-Signature',
} as const;

/**
 * What the HMAC-SHA256 signature covers: `<timestamp>.<raw body>`, so that a receiver can refuse a
 * replayed body with an old timestamp. The header is `sha256=<hex digest>`.
 */
export function signatureBase(timestamp: number, body: string): string {
  return `${timestamp}.${body}`;
}

/** The last 4 characters of a write-only secret, as the reply shows them ("" when none). */
export function secretTail(secret: string | null | undefined): string {
  return secret ? secret.slice(-4) : '';
}
