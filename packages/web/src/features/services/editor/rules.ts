import {
  type CustomFieldValue,
  canTransition,
  fromThousandths,
  LineItemKind,
  localDate,
  multiplyThousandths,
  type ObjectType,
  SERVICE_STATUSES,
  type ServiceStatus,
  type ServiceWire,
  statusOf,
  toThousandths,
} from '@fleetkeep/core';
import type { Can } from '../../../lib/permissions.ts';

/**
 * The service editor's pure logic (spec §2 /service/{id}, §3 "Service", §4, §5; PRODUCT.md "Services"):
 * status choices, date rules per status, the form and its reading of a service (miles ↔ km), exact line
 * totals and the attachment caps. The checks before a save are in `validation.ts`, the request bodies in
 * `payload.ts`.
 */

export const isArchivedStatus = (s: ServiceStatus) => s === 'closed' || s === 'rejected';

/**
 * Statuses the status control offers. New: Due, In progress or Closed (spec §4 "created directly as").
 * Existing (server `rules.ts`): Due → In progress, Closed, Rejected; In progress → Closed, Rejected and
 * back to Due; Closed and Rejected are frozen (the archive).
 */
export function allowedStatuses(current: ServiceStatus | null): ServiceStatus[] {
  if (current === null) return ['due', 'inProgress', 'closed'];
  // The current one first, then where it may go.
  return [current, ...SERVICE_STATUSES.filter((s) => s !== current && canTransition(current, s))];
}

/**
 * What the user may change (spec §6, PRODUCT.md "Services"): everything on an open service with
 * service.manage; on an archived one only the corrections, and only with archive.edit; otherwise nothing.
 */
export type EditMode = 'full' | 'archive' | 'readonly';

export function editMode(can: Can, f: number | null): EditMode {
  if (!can('service.manage')) return 'readonly';
  if (f === null || !isArchivedStatus(statusOf(f))) return 'full';
  return can('archive.edit') ? 'archive' : 'readonly';
}

// ---------------------------------------------------------------------------------------------------
// Objects

export interface ObjectRef {
  id: number;
  t: ObjectType;
}

export const objectValue = (o: ObjectRef) => `${o.t}:${o.id}`;

export function parseObjectValue(value: string): ObjectRef | null {
  const m = /^([udt]):(\d+)$/.exec(value);
  return m ? { t: m[1] as ObjectType, id: Number(m[2]) } : null;
}

/** `location.state.objects` of /service/new (sent by /items bulk mode and the unit page); invalid → []. */
export function stateObjects(state: unknown): ObjectRef[] {
  if (typeof state !== 'object' || state === null) return [];
  const list = (state as { objects?: unknown }).objects;
  if (!Array.isArray(list)) return [];
  const out: ObjectRef[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    if (typeof item !== 'object' || item === null) continue;
    const { id, t } = item as { id?: unknown; t?: unknown };
    if (!Number.isSafeInteger(id) || (id as number) <= 0 || (t !== 'u' && t !== 'd' && t !== 't')) continue;
    const ref = { id: id as number, t: t as ObjectType };
    if (seen.has(objectValue(ref))) continue;
    seen.add(objectValue(ref));
    out.push(ref);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Numbers: distance units and exact decimals

import { displayToKm, kmToDisplay, round3 } from '../../../lib/distance.ts';

export { displayToKm, kmToDisplay, round3 };

/** NumericInput text of a wire number (at most 3 decimals); '' for null. */
export function decimalText(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const th = toThousandths(round3(value));
  return th === undefined ? '' : String(fromThousandths(th));
}

/** Thousandths of a NumericInput text; undefined when empty or invalid. */
export function textThousandths(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === '.') return undefined;
  return toThousandths(trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed);
}

/** Wire text of a decimal (the server parses '12.345' exactly). */
export function wireDecimal(text: string): string {
  const th = textThousandths(text);
  return th === undefined ? '0' : String(fromThousandths(th));
}

// ---------------------------------------------------------------------------------------------------
// Line items

/** Line item kinds of a service (spec §3; core `LineItemKind`): labour 1, part 2. */
export const LINE_KIND = { labour: LineItemKind.task, part: LineItemKind.part } as const;
export type LineKind = (typeof LINE_KIND)[keyof typeof LINE_KIND];

export interface LineDraft {
  /** Stable React key. */
  key: string;
  n: string;
  t: LineKind;
  /** Quantity, NumericInput text. */
  q: string;
  /** Unit cost, NumericInput text. */
  c: string;
  /** A part taken from stock and its location (docs/product.md "Parts and stock"); none when absent. */
  pid?: number | null;
  slid?: number | null;
}

let lineSeq = 0;
export const newLineKey = () => `l${++lineSeq}`;

export function emptyLine(): LineDraft {
  return { key: newLineKey(), n: '', t: LINE_KIND.part, q: '1', c: '' };
}

/** quantity × cost of a row in thousandths (exact, core decimal); an empty cost counts as 0. */
export function lineTotal(line: Pick<LineDraft, 'q' | 'c'>): number | undefined {
  const q = textThousandths(line.q);
  const c = line.c.trim() === '' ? 0 : textThousandths(line.c);
  if (q === undefined || c === undefined) return undefined;
  return multiplyThousandths(q, c);
}

/** Sum of the rows in thousandths; rows that are not numbers yet count as 0. No float drift. */
export function linesTotal(lines: readonly Pick<LineDraft, 'q' | 'c'>[]): number {
  return lines.reduce((sum, l) => sum + (lineTotal(l) ?? 0), 0);
}

export const thousandthsToNumber = fromThousandths;

// ---------------------------------------------------------------------------------------------------
// The form

export interface ServiceForm {
  status: ServiceStatus;
  /** Type filter of the object picker (new services only). */
  objectType: ObjectType;
  /** Chosen objects as `t:id` (new services only; several make a batch). */
  objects: string[];
  name: string;
  description: string;
  /** YYYY-MM-DD in the fleet zone, or null. */
  plannedDate: string | null;
  startDate: string | null;
  endDate: string | null;
  /** "Notify N days before", integer text (Due only). */
  notifyDays: string;
  /** In the fleet's distance unit. */
  mileage: string;
  engineHours: string;
  /** Total entered by hand, only without line items. */
  manualCost: string;
  lines: LineDraft[];
  /** customfields: values of the fleet's service custom fields (empty ones left out). */
  cf: CustomFieldValue[];
}

/** Today in the fleet zone as YYYY-MM-DD (spec §5 "Time zone"; core timezone.ts). */
export function todayIn(tz: number, nowSeconds: number): string {
  return localDate(tz, nowSeconds);
}

const dayText = (tz: number, at: number | null) => (at === null ? null : localDate(tz, at));

export function emptyForm(today: string, objects: readonly ObjectRef[] = []): ServiceForm {
  return {
    status: 'due',
    objectType: objects[0]?.t ?? 'u',
    objects: objects.map(objectValue),
    name: '',
    description: '',
    plannedDate: today,
    startDate: today,
    endDate: today,
    notifyDays: '',
    mileage: '',
    engineHours: '',
    manualCost: '',
    lines: [],
    cf: [],
  };
}

export function formFromService(s: ServiceWire, tz: number, miles: boolean): ServiceForm {
  return {
    status: statusOf(s.f),
    objectType: s.t,
    objects: [objectValue({ t: s.t, id: s.uid })],
    name: s.n,
    description: s.description ?? '',
    plannedDate: dayText(tz, s.limit_date),
    startDate: dayText(tz, s.start_date),
    endDate: dayText(tz, s.end_date),
    notifyDays: s.notify_days === null ? '' : String(s.notify_days),
    mileage: s.mileage === null ? '' : decimalText(kmToDisplay(s.mileage, miles)),
    engineHours: decimalText(s.engine_hours),
    manualCost: s.li.length === 0 ? decimalText(s.manual_cost) : '',
    lines: s.li.map((l) => ({
      key: newLineKey(),
      n: l.n,
      t: l.t === LINE_KIND.labour ? LINE_KIND.labour : LINE_KIND.part,
      q: decimalText(l.q),
      c: decimalText(l.c),
      ...(l.pid !== undefined && { pid: l.pid, slid: l.slid ?? null }),
    })),
    cf: (s.cf ?? []).filter((x) => x.v !== ''),
  };
}

/** The form after a status change: dates the new status needs and has not got default to today. */
export function withStatus(form: ServiceForm, status: ServiceStatus, today: string): ServiceForm {
  const next = { ...form, status };
  if (status === 'due' && !next.plannedDate) next.plannedDate = today;
  if ((status === 'inProgress' || status === 'closed') && !next.startDate) next.startDate = today;
  if (status === 'closed' && !next.endDate) next.endDate = today;
  if (status !== 'due') next.notifyDays = '';
  return next;
}

export const linesSignature = (lines: readonly LineDraft[]) =>
  JSON.stringify(
    lines.map((l) => [l.n.trim(), l.t, wireDecimal(l.q), wireDecimal(l.c), l.pid ?? null, l.slid ?? null]),
  );

/** The object's current counters (units list `cnm` km, `cneh` hours) as form text. */
export function countersText(
  unit: { cnm?: number | null; cneh?: number | null } | undefined,
  miles: boolean,
): { mileage: string; engineHours: string } | null {
  if (!unit || (unit.cnm == null && unit.cneh == null)) return null;
  return {
    mileage: unit.cnm == null ? '' : decimalText(kmToDisplay(unit.cnm, miles)),
    engineHours: unit.cneh == null ? '' : decimalText(unit.cneh),
  };
}
