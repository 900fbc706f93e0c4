import {
  COUNTER_MAX,
  DECIMAL_MAX,
  INTERVAL_TIME_FREQUENCY_MAX,
  intervalRuleIssues,
  LINE_ITEMS_MAX,
  Limits,
  toThousandths,
} from '@fleetkeep/core';
import { numericValue } from '../../../components/numeric.ts';
import { formErrors } from '../../../lib/fieldErrors.ts';
import { serverIssues } from '../../../lib/refusal.ts';
import {
  baselineToKm,
  dayStart,
  dayText,
  displayToKm,
  type FleetUnits,
  flag,
  type IntervalForm,
  whole,
} from './rules.ts';

/**
 * Validation of the interval editor's form with the core contract's limits and its cross-field rule
 * (`intervalRuleIssues`, the one the server applies; spec §5, PRODUCT.md "Intervals"), and the mapping
 * of the server's refusals onto fields.
 */

/** A field's problem: a translation key (with values) of the editor, or the server's own text. */
export type FieldError = { key: string; values?: Record<string, unknown> } | { text: string };
export type FieldErrors = Record<string, FieldError>;

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

  Object.assign(errors, ruleErrors(form, ctx.miles));

  const today = dayText(ctx.now, ctx.tz);
  form.assignments.forEach((a, i) => {
    for (const field of ['lcnm', 'lceh'] as const) {
      const v = numericValue(a[field]);
      const km = v === null ? null : field === 'lcnm' ? baselineToKm(v, ctx.miles) : v;
      if (km === null || km < 0 || km > COUNTER_MAX)
        errors[`u.${i}.${field}`] = { key: 'intervalEditor.errors.baseline' };
    }
    if (dayStart(a.ltm, ctx.tz) === null) errors[`u.${i}.ltm`] = { key: 'intervalEditor.errors.date' };
    else if (a.ltm > today) errors[`u.${i}.ltm`] = { key: 'intervalEditor.errors.futureDate' };
    const cnt = whole(a.cnt);
    if (cnt === null || cnt < 0 || cnt > Limits.intSigned)
      errors[`u.${i}.cnt`] = { key: 'intervalEditor.errors.executions' };
  });

  if (form.lines.length > LINE_ITEMS_MAX)
    errors.lines = { key: 'intervalEditor.errors.tooManyLines', values: { max: LINE_ITEMS_MAX } };
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

/** The editor's field and message of each field the core interval rule names (`intervalRuleIssues`). */
const RULE_FIELDS: Readonly<Record<string, { field: string; key: string }>> = {
  cnme: { field: 'kinds', key: 'intervalEditor.errors.kindRequired' },
  cnmd: { field: 'mileage.every', key: 'intervalEditor.errors.positive' },
  cnmo: { field: 'mileage.notice', key: 'intervalEditor.errors.noticeTooBig' },
  cnehd: { field: 'engineHours.every', key: 'intervalEditor.errors.positive' },
  cneho: { field: 'engineHours.notice', key: 'intervalEditor.errors.noticeTooBig' },
  dd: { field: 'time.every', key: 'intervalEditor.errors.timeFrequency' },
  do: { field: 'time.notice', key: 'intervalEditor.errors.noticeTooBig' },
};

/**
 * The thresholds' problems: first each field's own range (the contract's: frequencies and notices are
 * integers up to `Limits.intSigned` on the wire, the time frequency up to INTERVAL_TIME_FREQUENCY_MAX),
 * then the cross-field rule of core `intervalRuleIssues` (PRODUCT.md "Intervals": at least one kind,
 * positive frequencies, notice below the frequency) on the wire values, each issue shown on the
 * editor's field unless that field already has a problem. Text that is not a number reaches the rule as
 * NaN: never a valid frequency, never a notice too big.
 */
function ruleErrors(form: IntervalForm, miles: boolean): FieldErrors {
  const errors: FieldErrors = {};
  const wire = (text: string, toWire: (v: number) => number) => {
    const v = whole(text);
    return v === null ? Number.NaN : toWire(v);
  };
  const notice = (text: string, toWire: (v: number) => number) =>
    text.trim() === '' ? 0 : wire(text, toWire);
  const km = (v: number) => displayToKm(v, miles);
  const same = (v: number) => v;
  const rule = {
    cnme: flag(form.mileage.on),
    cnmd: wire(form.mileage.every, km),
    cnmo: notice(form.mileage.notice, km),
    cnehe: flag(form.engineHours.on),
    cnehd: wire(form.engineHours.every, same),
    cneho: notice(form.engineHours.notice, same),
    de: flag(form.time.on),
    dd: wire(form.time.every, same),
    du: form.time.unit,
    do: notice(form.time.notice, same),
  };
  const frequencyRange = (on: boolean, field: string, value: number, max: number, key: string) => {
    if (on && value > max) errors[field] = { key };
  };
  const positive = 'intervalEditor.errors.positive';
  frequencyRange(form.mileage.on, 'mileage.every', rule.cnmd, Limits.intSigned, positive);
  frequencyRange(form.engineHours.on, 'engineHours.every', rule.cnehd, Limits.intSigned, positive);
  frequencyRange(
    form.time.on,
    'time.every',
    rule.dd,
    INTERVAL_TIME_FREQUENCY_MAX,
    'intervalEditor.errors.timeFrequency',
  );
  const noticeRange = (on: boolean, field: string, value: number) => {
    if (on && !(value <= Limits.intSigned)) errors[field] = { key: 'intervalEditor.errors.notice' };
  };
  noticeRange(form.mileage.on, 'mileage.notice', rule.cnmo);
  noticeRange(form.engineHours.on, 'engineHours.notice', rule.cneho);
  noticeRange(form.time.on, 'time.notice', rule.do);
  for (const issue of intervalRuleIssues(rule, 'form')) {
    const target = RULE_FIELDS[issue.field.slice('form.'.length)];
    if (target && !errors[target.field]) errors[target.field] = { key: target.key };
  }
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
  const { fields } = formErrors(serverIssues(details), ({ path }) => {
    const [head, index, sub] = path;
    if ((head === 'u' || head === 'units') && index !== undefined)
      return `u.${index}.${sub !== undefined && ['lcnm', 'lceh', 'ltm', 'cnt'].includes(sub) ? sub : 'id'}`;
    if (head === 'li' && index !== undefined)
      return sub === 'n' || sub === 'q' || sub === 'c' ? `li.${index}.${sub}` : 'lines';
    return (head !== undefined && SERVER_FIELDS[head]) || 'form';
  });
  for (const [key, message] of Object.entries(fields))
    errors[key] =
      code === 10 && key === 'name'
        ? { key: 'intervalEditor.errors.duplicate' }
        : { text: message || reason };
  if (Object.keys(errors).length === 0) errors.form = { text: reason };
  return errors;
}
