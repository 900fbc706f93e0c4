import { intervalCreateBody, intervalRuleIssues } from '@fleetkeep/core';
import { numericValue } from '../../../components/numeric.ts';
import type { Problem } from '../../../lib/coreResolver.ts';
import { draftErrors, type RefusalView } from '../../../lib/editorForm.ts';
import {
  baselineToKm,
  dayStart,
  dayText,
  displayToKm,
  type FleetUnits,
  flag,
  formToBody,
  type IntervalForm,
  type KindForm,
  whole,
} from './rules.ts';

/**
 * The interval editor's checks: the core contract `intervalCreateBody` with the body of `checkedBody`
 * (name, description, frequencies and notices as wire integers up to their limits, the time frequency
 * up to INTERVAL_TIME_FREQUENCY_MAX, baselines, line rows and their count), then the form's own rules
 * (`ownProblems`): the core cross-field rule `intervalRuleIssues` the server applies after the contract
 * (PRODUCT.md "Intervals": a kind on, positive frequencies, notice below the frequency), a name no
 * other interval of the fleet has, and no last-service date after today. Fields are paths of the form
 * ('name', 'mileage.every', 'u.3.ltm', 'li.0.q', ...).
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

const key = (k: string, values?: Record<string, unknown>): FieldError =>
  values ? { key: `intervalEditor.errors.${k}`, values } : { key: `intervalEditor.errors.${k}` };

/** Decimal text as the contract reads it: a dangling point dropped. */
const decimalIn = (text: string) => text.trim().replace(/\.$/, '');

/** A whole number typed into a threshold, on the wire (NaN when it is none: the contract refuses it). */
const wholeIn = (text: string, toWire: (v: number) => number) => {
  const v = whole(text);
  return v === null ? Number.NaN : toWire(v);
};
/** An empty notice is 0. */
const noticeIn = (text: string, toWire: (v: number) => number) =>
  text.trim() === '' ? 0 : wholeIn(text, toWire);

/** The thresholds as the contract and the rule read them: an enabled kind as typed, others as sent. */
function thresholds(form: IntervalForm, units: FleetUnits) {
  const body = formToBody(form, null, units);
  const km = (v: number) => displayToKm(v, units.miles);
  const same = (v: number) => v;
  const kind = (k: KindForm, toWire: (v: number) => number, every: number, notice: number) =>
    k.on ? { every: wholeIn(k.every, toWire), notice: noticeIn(k.notice, toWire) } : { every, notice };
  const m = kind(form.mileage, km, body.cnmd, body.cnmo);
  const h = kind(form.engineHours, same, body.cnehd, body.cneho);
  const d = kind(form.time, same, body.dd, body.do);
  return {
    cnme: flag(form.mileage.on),
    cnmd: m.every,
    cnmo: m.notice,
    cnehe: flag(form.engineHours.on),
    cnehd: h.every,
    cneho: h.notice,
    de: flag(form.time.on),
    dd: d.every,
    du: form.time.unit,
    do: d.notice,
  };
}

/**
 * The body the form is checked with: the interval as saved, with what the user typed kept (a number
 * that is none is NaN or text, an empty quantity '', so that the contract names them).
 */
export function checkedBody(form: IntervalForm, units: FleetUnits): Record<string, unknown> {
  const number = (v: number | null) => v ?? Number.NaN;
  return {
    n: form.name,
    description: form.description,
    ...thresholds(form, units),
    u: form.assignments.map((a) => {
      const lcnm = numericValue(a.lcnm);
      return {
        id: a.id,
        t: a.t,
        lcnm: lcnm === null ? Number.NaN : baselineToKm(lcnm, units.miles),
        lceh: number(numericValue(a.lceh)),
        ltm: number(dayStart(a.ltm, units.tz)),
        cnt: number(whole(a.cnt)),
      };
    }),
    li: form.lines.map((l) => ({
      n: l.n,
      t: l.t,
      q: decimalIn(l.q),
      c: l.c.trim() === '' ? 0 : decimalIn(l.c),
    })),
  };
}

/** The editor's message of a problem the core contract found on a field (`limit`: its bound). */
export function coreProblem(problem: Problem, field: string, limit: number | null): FieldError {
  const tooLong = () => key('tooLong', { max: limit });
  if (field === 'name' || /^li\.\d+\.n$/.test(field))
    return problem === 'tooLong' ? tooLong() : key('required');
  if (field === 'description') return tooLong();
  if (field === 'mileage.every' || field === 'engineHours.every') return key('positive');
  if (field === 'time.every') return key('timeFrequency');
  if (field.endsWith('.notice')) return key('notice');
  if (field === 'lines') return key('tooManyLines', { max: limit });
  const sub = /^(u|li)\.\d+\.(\w+)$/.exec(field);
  const bySub: Record<string, string> = {
    lcnm: 'baseline',
    lceh: 'baseline',
    ltm: 'date',
    cnt: 'executions',
    q: 'quantity',
    c: 'cost',
  };
  const found = sub?.[2] !== undefined ? bySub[sub[2]] : undefined;
  return found ? key(found) : { key: 'controls.invalid' };
}

/** The editor's field and message of each field the core interval rule names (`intervalRuleIssues`). */
const RULE_FIELDS: Readonly<Record<string, { field: string; key: string }>> = {
  cnme: { field: 'kinds', key: 'kindRequired' },
  cnmd: { field: 'mileage.every', key: 'positive' },
  cnmo: { field: 'mileage.notice', key: 'noticeTooBig' },
  cnehd: { field: 'engineHours.every', key: 'positive' },
  cneho: { field: 'engineHours.notice', key: 'noticeTooBig' },
  dd: { field: 'time.every', key: 'timeFrequency' },
  do: { field: 'time.notice', key: 'noticeTooBig' },
};

/**
 * The form's own rules, on top of the contract: a name another interval of the fleet has, a last date
 * after today, and the cross-field rule of core `intervalRuleIssues` on the wire values (text that is no
 * number reaches it as NaN: never a valid frequency, never a notice too big).
 */
export function ownProblems(form: IntervalForm, ctx: ValidationContext): FieldErrors {
  const errors: FieldErrors = {};
  const name = form.name.trim().toLowerCase();
  if (name !== '' && ctx.otherNames.some((n) => n.toLowerCase() === name)) errors.name = key('duplicate');
  const today = dayText(ctx.now, ctx.tz);
  form.assignments.forEach((a, i) => {
    if (dayStart(a.ltm, ctx.tz) !== null && a.ltm > today) errors[`u.${i}.ltm`] = key('futureDate');
  });
  for (const issue of intervalRuleIssues(thresholds(form, ctx), 'form')) {
    const target = RULE_FIELDS[issue.field.slice('form.'.length)];
    if (target && !errors[target.field]) errors[target.field] = key(target.key);
  }
  return errors;
}

/** The problems of a form as the editor finds them before a save: the contract's, then its own. */
export function validateForm(form: IntervalForm, ctx: ValidationContext): FieldErrors {
  return draftErrors<IntervalForm, string, FieldError>(form, {
    schema: intervalCreateBody,
    body: (f) => checkedBody(f, ctx),
    fieldOf: intervalFieldOf,
    text: coreProblem,
    check: (f) => ownProblems(f, ctx),
  }) as FieldErrors;
}

/** The tab a field belongs to, so that a failed save can show the tab with the problem. */
export function tabOfField(field: string): 'general' | 'units' | 'lines' {
  if (field.startsWith('u.')) return 'units';
  if (field.startsWith('li.') || field === 'lines') return 'lines';
  return 'general';
}

const WIRE_FIELDS: Readonly<Record<string, string>> = {
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
 * The form field of a body path, of a core issue or of a refused save (`u.2.ltm`; a `PUT …/units` body's
 * `units.2.ltm` the same way; `li.0.q`, the list `li` itself), or null when the form does not show it.
 */
export function intervalFieldOf(path: readonly string[]): string | null {
  const [head, index, sub] = path;
  if ((head === 'u' || head === 'units') && index !== undefined)
    return `u.${index}.${sub !== undefined && ['lcnm', 'lceh', 'ltm', 'cnt'].includes(sub) ? sub : 'id'}`;
  if (head === 'li')
    return index !== undefined && (sub === 'n' || sub === 'q' || sub === 'c')
      ? `li.${index}.${sub}`
      : 'lines';
  return (head !== undefined && WIRE_FIELDS[head]) || null;
}

/** A refused save as the editor shows it: error 10 on the name is the duplicate of spec §8, in `duplicate`. */
export function rewordRefusal(
  code: number,
  view: RefusalView<string>,
  duplicate: string,
): RefusalView<string> {
  return code === 10 && 'name' in view.fields
    ? { ...view, fields: { ...view.fields, name: duplicate } }
    : view;
}
