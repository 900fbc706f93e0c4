import { Limits, toThousandths } from '@fleetkeep/core';
import { numericValue } from '../../../components/numeric.ts';
import {
  baselineToKm,
  DAYS_PER_UNIT,
  DECIMAL_MAX,
  dayStart,
  dayText,
  displayToKm,
  type FleetUnits,
  type IntervalForm,
  MAX_BASELINE,
  MAX_LINES,
  whole,
} from './rules.ts';

/**
 * Validation of the interval editor's form, mirroring the server (`server/modules/intervals/{schemas,
 * rules}.ts`; spec §5, PRODUCT.md "Intervals"), and the mapping of the server's refusals onto fields.
 */

/** A field's problem: a translation key (with values) of the editor, or the server's own text. */
export type FieldError = { key: string; values?: Record<string, unknown> } | { text: string };
export type FieldErrors = Record<string, FieldError>;

/** Integer text, blank counting as 0 (advance notice). */
const noticeOf = (text: string): number | null => (text.trim() === '' ? 0 : whole(text));

export interface ValidationContext extends FleetUnits {
  /** Names of the fleet's other intervals (unique, case-insensitive). */
  otherNames: readonly string[];
  /** Now, Unix seconds: a last date may not be later than today in the fleet zone. */
  now: number;
}

/**
 * The problems of a form, keyed by field path ('name', 'mileage.every', 'u.3.ltm', 'li.0.q', ...). The
 * rules mirror the server so that a save it would refuse is caught here first.
 */
export function validateForm(form: IntervalForm, ctx: ValidationContext): FieldErrors {
  const errors: FieldErrors = {};
  const name = form.name.trim();
  if (name === '') errors.name = { key: 'intervalEditor.errors.required' };
  else if (name.length > Limits.stringMax)
    errors.name = { key: 'intervalEditor.errors.tooLong', values: { max: Limits.stringMax } };
  else if (ctx.otherNames.some((n) => n.toLowerCase() === name.toLowerCase()))
    errors.name = { key: 'intervalEditor.errors.duplicate' };
  if (form.description.length > Limits.descriptionMax)
    errors.description = { key: 'intervalEditor.errors.tooLong', values: { max: Limits.descriptionMax } };

  if (!form.mileage.on && !form.engineHours.on && !form.time.on)
    errors.kinds = { key: 'intervalEditor.errors.kindRequired' };

  const counterKind = (kind: 'mileage' | 'engineHours', toWire: (v: number) => number) => {
    const k = form[kind];
    if (!k.on) return;
    const every = whole(k.every);
    const notice = noticeOf(k.notice);
    if (every === null || every < 1 || toWire(every) > Limits.intSigned)
      errors[`${kind}.every`] = { key: 'intervalEditor.errors.positive' };
    if (notice === null || toWire(notice) > Limits.intSigned)
      errors[`${kind}.notice`] = { key: 'intervalEditor.errors.notice' };
    else if (every !== null && every >= 1 && toWire(notice) >= toWire(every))
      errors[`${kind}.notice`] = { key: 'intervalEditor.errors.noticeTooBig' };
  };
  counterKind('mileage', (v) => displayToKm(v, ctx.miles));
  counterKind('engineHours', (v) => v);
  if (form.time.on) {
    const every = whole(form.time.every);
    const notice = noticeOf(form.time.notice);
    if (every === null || every < 1 || every > 999)
      errors['time.every'] = { key: 'intervalEditor.errors.timeFrequency' };
    if (notice === null || notice > Limits.intSigned)
      errors['time.notice'] = { key: 'intervalEditor.errors.notice' };
    else if (every !== null && every >= 1 && notice >= every * DAYS_PER_UNIT[form.time.unit])
      errors['time.notice'] = { key: 'intervalEditor.errors.noticeTooBig' };
  }

  const today = dayText(ctx.now, ctx.tz);
  form.assignments.forEach((a, i) => {
    for (const field of ['lcnm', 'lceh'] as const) {
      const v = numericValue(a[field]);
      const km = v === null ? null : field === 'lcnm' ? baselineToKm(v, ctx.miles) : v;
      if (km === null || km < 0 || km > MAX_BASELINE)
        errors[`u.${i}.${field}`] = { key: 'intervalEditor.errors.baseline' };
    }
    if (dayStart(a.ltm, ctx.tz) === null) errors[`u.${i}.ltm`] = { key: 'intervalEditor.errors.date' };
    else if (a.ltm > today) errors[`u.${i}.ltm`] = { key: 'intervalEditor.errors.futureDate' };
    const cnt = whole(a.cnt);
    if (cnt === null || cnt < 0 || cnt > Limits.intSigned)
      errors[`u.${i}.cnt`] = { key: 'intervalEditor.errors.executions' };
  });

  if (form.lines.length > MAX_LINES)
    errors.lines = { key: 'intervalEditor.errors.tooManyLines', values: { max: MAX_LINES } };
  form.lines.forEach((l, i) => {
    const n = l.n.trim();
    if (n === '') errors[`li.${i}.n`] = { key: 'intervalEditor.errors.required' };
    else if (n.length > Limits.stringMax)
      errors[`li.${i}.n`] = { key: 'intervalEditor.errors.tooLong', values: { max: Limits.stringMax } };
    const q = toThousandths(l.q);
    if (q === undefined || q <= 0 || q > DECIMAL_MAX * 1000)
      errors[`li.${i}.q`] = { key: 'intervalEditor.errors.quantity' };
    const c = l.c.trim() === '' ? 0 : toThousandths(l.c);
    if (c === undefined || c < 0 || c > DECIMAL_MAX * 1000)
      errors[`li.${i}.c`] = { key: 'intervalEditor.errors.cost' };
  });
  return errors;
}

/** The tab a field belongs to, so that a failed save can show the tab with the problem. */
export function tabOfField(field: string): 'general' | 'units' | 'lines' {
  if (field.startsWith('u.')) return 'units';
  if (field.startsWith('li.') || field === 'lines') return 'lines';
  return 'general';
}

const SERVER_FIELDS: Readonly<Record<string, string>> = {
  n: 'name',
  description: 'description',
  cnme: 'kinds',
  cnehe: 'kinds',
  de: 'kinds',
  cnmd: 'mileage.every',
  cnmo: 'mileage.notice',
  cnehd: 'engineHours.every',
  cneho: 'engineHours.notice',
  dd: 'time.every',
  du: 'time.every',
  do: 'time.notice',
};

/**
 * The server's field details (`[{field: 'body.u.2.ltm', message}]`) on the form's fields. `units` maps a
 * `PUT …/units` body the same way. Details of fields the form does not show are returned under
 * 'form'. Error 10 on the name (the duplicate of spec §8) becomes the translated duplicate message.
 */
export function serverFieldErrors(code: number, reason: string, details: unknown): FieldErrors {
  const errors: FieldErrors = {};
  const list = Array.isArray(details) ? details : [];
  for (const d of list) {
    const field = typeof d?.field === 'string' ? d.field : '';
    const message = typeof d?.message === 'string' ? d.message : reason;
    const parts = field.split('.').slice(1);
    let key = 'form';
    if ((parts[0] === 'u' || parts[0] === 'units') && parts.length >= 2) {
      const sub = parts[2] ?? 'id';
      key = `u.${parts[1]}.${['lcnm', 'lceh', 'ltm', 'cnt'].includes(sub) ? sub : 'id'}`;
    } else if (parts[0] === 'li' && parts.length >= 2) {
      const sub = parts[2];
      key = sub === 'n' || sub === 'q' || sub === 'c' ? `li.${parts[1]}.${sub}` : 'lines';
    } else if (parts[0] !== undefined && SERVER_FIELDS[parts[0]]) {
      key = SERVER_FIELDS[parts[0]] as string;
    }
    if (errors[key]) continue;
    errors[key] =
      code === 10 && key === 'name' ? { key: 'intervalEditor.errors.duplicate' } : { text: message };
  }
  if (Object.keys(errors).length === 0) errors.form = { text: reason };
  return errors;
}
