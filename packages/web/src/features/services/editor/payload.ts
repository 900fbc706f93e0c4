import {
  type LineItemLineInput,
  type ServiceArchivePatch,
  type ServiceCreateInput,
  type ServiceUpdateInput,
  STATUS_FLAG,
} from '@fleetkeep/core';
import { numericValue } from '../../../components/numeric.ts';
import { sameValues } from '../../../lib/customFields.ts';
import {
  displayToKm,
  type LineDraft,
  linesSignature,
  type ObjectRef,
  parseObjectValue,
  round3,
  type ServiceForm,
  textThousandths,
  wireDecimal,
} from './rules.ts';
import type { Problem } from './validation.ts';

/**
 * Form → wire of the service editor (the core contract's `serviceCreateBody`, `serviceUpdateBody`,
 * `serviceArchivePatch`; spec §7 "Services") and the server's field errors back onto the form. Pure.
 */

const linesOut = (lines: readonly LineDraft[]): LineItemLineInput[] =>
  lines.map((l) => ({
    n: l.n.trim(),
    t: l.t,
    q: wireDecimal(l.q),
    c: wireDecimal(l.c),
    ...(l.pid != null && l.slid != null && { pid: l.pid, slid: l.slid }),
  }));

function counterOut(text: string, miles: boolean, distance: boolean): number | null {
  const v = numericValue(text);
  if (v === null) return null;
  return distance ? displayToKm(v, miles) : round3(v);
}

/** One create call's body for one object (counters only for units, which have them). */
export function createBody(form: ServiceForm, object: ObjectRef, miles: boolean): ServiceCreateInput {
  const status = form.status === 'rejected' ? 'due' : form.status;
  const body: ServiceCreateInput = {
    t: object.t,
    uid: object.id,
    f: STATUS_FLAG[status] as ServiceCreateInput['f'],
    n: form.name.trim(),
    description: form.description,
  };
  if (status === 'due') {
    if (form.plannedDate) body.limit_date = form.plannedDate;
    const notify = numericValue(form.notifyDays);
    if (notify !== null) body.notify_days = notify;
  } else {
    if (form.startDate) body.start_date = form.startDate;
    if (status === 'closed' && form.endDate) body.end_date = form.endDate;
  }
  if (object.t === 'u') {
    const mileage = counterOut(form.mileage, miles, true);
    const hours = counterOut(form.engineHours, miles, false);
    if (mileage !== null) body.mileage = mileage;
    if (hours !== null) body.engine_hours = hours;
  }
  if (form.lines.length > 0) body.li = linesOut(form.lines);
  else if (textThousandths(form.manualCost) !== undefined) body.manual_cost = wireDecimal(form.manualCost);
  if (form.cf.length > 0) body.cf = form.cf; // customfields
  return body;
}

/** POST .../services/batch body: one service per chosen object, in one atomic call. */
export function batchBody(form: ServiceForm, miles: boolean): { services: ServiceCreateInput[] } {
  const objects = form.objects.map(parseObjectValue).filter((o): o is ObjectRef => o !== null);
  return { services: objects.map((o) => createBody(form, o, miles)) };
}

/** The cost, counters and line-item part shared by the update and the archive correction. */
function commonChanges(form: ServiceForm, initial: ServiceForm, miles: boolean, counters: boolean) {
  const body: Pick<
    ServiceUpdateInput,
    'description' | 'mileage' | 'engine_hours' | 'li' | 'manual_cost' | 'cf'
  > = {};
  if (form.description !== initial.description) body.description = form.description;
  // Untouched counters are not sent back, so a miles ↔ km round trip cannot move them.
  if (counters && form.mileage !== initial.mileage) body.mileage = counterOut(form.mileage, miles, true);
  if (counters && form.engineHours !== initial.engineHours)
    body.engine_hours = counterOut(form.engineHours, miles, false);
  if (linesSignature(form.lines) !== linesSignature(initial.lines)) body.li = linesOut(form.lines);
  // A manual total only without line items (PRODUCT.md "Services").
  if (form.lines.length === 0 && (form.manualCost !== initial.manualCost || initial.lines.length > 0))
    body.manual_cost = textThousandths(form.manualCost) === undefined ? null : wireDecimal(form.manualCost);
  // customfields: the whole list replaces the service's values (server archive and update alike).
  if (!sameValues(form.cf, initial.cf)) body.cf = form.cf;
  return body;
}

/** PUT .../services/{id} body: the status (if changed), its dates, and what changed. */
export function updateBody(form: ServiceForm, initial: ServiceForm, miles: boolean): ServiceUpdateInput {
  const body: ServiceUpdateInput = commonChanges(form, initial, miles, true);
  if (form.status !== initial.status) body.f = STATUS_FLAG[form.status] as ServiceUpdateInput['f'];
  if (form.name.trim() !== initial.name) body.n = form.name.trim();
  if (form.status === 'due') {
    if (form.plannedDate && form.plannedDate !== initial.plannedDate) body.limit_date = form.plannedDate;
    if (form.notifyDays !== initial.notifyDays || initial.status !== 'due')
      body.notify_days = numericValue(form.notifyDays);
  } else if (form.status === 'inProgress') {
    if (form.startDate) body.start_date = form.startDate;
  } else if (form.status === 'closed') {
    if (form.startDate) body.start_date = form.startDate;
    if (form.endDate) body.end_date = form.endDate;
  }
  return body;
}

/** PUT .../services/archived/{id} body (archiveEdit; the status stays frozen). */
export function archiveBody(form: ServiceForm, initial: ServiceForm, miles: boolean): ServiceArchivePatch {
  const body: ServiceArchivePatch = commonChanges(form, initial, miles, true);
  if (form.name.trim() !== initial.name) body.n = form.name.trim();
  if (form.endDate && form.endDate !== initial.endDate) body.end_date = form.endDate;
  return body;
}

// ---------------------------------------------------------------------------------------------------
// The body checked before a save, and the fields of body paths

/** Decimal text as the contract reads it: a dangling point dropped. */
const decimalIn = (text: string) => text.trim().replace(/\.$/, '');

/** A counter as typed, in km or hours for the contract: null when empty, NaN when no number. */
function counterIn(text: string, miles: boolean, distance: boolean): number | null {
  if (text.trim() === '') return null;
  return counterOut(text, miles, distance) ?? Number.NaN;
}

/**
 * The body the form is checked with against core `serviceCreateBody`, whatever the save sends (create,
 * update or archive correction): every field the form holds, as typed (an empty line quantity is '',
 * so the contract names it required), the first chosen object (none: the contract names it required).
 */
export function checkedBody(form: ServiceForm, miles: boolean): Record<string, unknown> {
  const object = parseObjectValue(form.objects[0] ?? '');
  const notify = form.notifyDays.trim();
  return {
    t: object?.t ?? null,
    uid: object?.id ?? null,
    f: STATUS_FLAG.due,
    n: form.name,
    description: form.description,
    notify_days: form.status === 'due' && notify !== '' ? Number(notify) : null,
    mileage: counterIn(form.mileage, miles, true),
    engine_hours: counterIn(form.engineHours, miles, false),
    li: form.lines.map((l) => ({
      n: l.n,
      t: l.t,
      q: decimalIn(l.q),
      c: l.c.trim() === '' ? 0 : decimalIn(l.c),
    })),
    manual_cost: form.lines.length === 0 && form.manualCost.trim() !== '' ? decimalIn(form.manualCost) : null,
    cf: form.cf,
  };
}

const WIRE_FIELD: Record<string, string> = {
  n: 'name',
  description: 'description',
  limit_date: 'plannedDate',
  start_date: 'startDate',
  end_date: 'endDate',
  notify_days: 'notifyDays',
  mileage: 'mileage',
  engine_hours: 'engineHours',
  manual_cost: 'manualCost',
  uid: 'objects',
  t: 'objects',
};

/**
 * The editor's field of a body path, of a core issue or of a refused save (`li.0.q` → `lines.0.q`,
 * `cf.2.v` → `cf.2`; a batch row's path `services.3.…` as the row's), or null when the form does not
 * show it.
 */
export function serviceFieldOf(path: readonly string[]): string | null {
  const [head, index, sub] = path;
  const isIndex = index !== undefined && /^\d+$/.test(index);
  if (head === 'services' && isIndex) return serviceFieldOf(path.slice(2));
  if (head === 'li' && isIndex && sub !== undefined && /^[nqc]$/.test(sub)) return `lines.${index}.${sub}`;
  // customfields: the index into the sent cf.
  if (head === 'cf' && isIndex) return `cf.${index}`;
  return (path.length === 1 && head !== undefined && WIRE_FIELD[head]) || null;
}

const KNOWN_MESSAGES: Record<string, Problem> = {
  'Must be today or later': 'notBeforeToday',
  'Must be today or earlier': 'notAfterToday',
  'Must not be earlier than the start date': 'endBeforeStart',
};

/** A server message the editor words itself (the date rules), or undefined. */
export const knownProblem = (message: string): Problem | undefined => KNOWN_MESSAGES[message];
