import { COUNTER_MAX, DECIMAL_MAX, KM_PER_MILE, Limits, SERVICE_NOTIFY_DAYS_MAX } from '@fleetkeep/core';
import { numericValue } from '../../../components/numeric.ts';
import { type EditMode, type ServiceForm, textThousandths } from './rules.ts';

/**
 * The service editor's checks before a save (spec §5 "Required input", "Numeric input"; spec §4 date
 * rules per status), with the limits of the core contract (`serviceCreateBody`: COUNTER_MAX,
 * DECIMAL_MAX, SERVICE_NOTIFY_DAYS_MAX), so that errors show on their fields at once.
 */

export type Problem =
  | 'required'
  | 'tooLong'
  | 'notBeforeToday'
  | 'notAfterToday'
  | 'endBeforeStart'
  | 'notifyRange'
  | 'positive'
  | 'invalidNumber'
  | 'tooLarge';

/** Field → problem; line fields are `lines.{i}.n|q|c`. */
export type Problems = Record<string, Problem>;

export interface ValidateContext {
  today: string;
  mode: EditMode;
  isNew: boolean;
  /** The loaded form (an unchanged past planned date of an overdue service is not re-checked). */
  initial: ServiceForm;
  miles: boolean;
}

function checkNumber(problems: Problems, field: string, text: string, max: number) {
  if (text.trim() === '') return;
  const v = numericValue(text);
  if (v === null) problems[field] = 'invalidNumber';
  else if (v > max) problems[field] = 'tooLarge';
}

/** Spec §5 and PRODUCT.md "Services" rules, checked before anything is sent (the server checks too). */
export function validate(form: ServiceForm, ctx: ValidateContext): Problems {
  const p: Problems = {};
  const { today, mode, isNew, initial } = ctx;
  if (mode === 'readonly') return p;
  const closedDates = () => {
    if (!form.startDate) p.startDate = 'required';
    else if (form.startDate > today) p.startDate = 'notAfterToday';
    if (!form.endDate) p.endDate = 'required';
    else if (form.endDate > today) p.endDate = 'notAfterToday';
    else if (form.startDate && form.endDate < form.startDate) p.endDate = 'endBeforeStart';
  };
  // The name is also an archive correction (PRODUCT.md "Services").
  if (mode === 'full' || mode === 'archive') {
    if (!form.name.trim()) p.name = 'required';
    else if (form.name.trim().length > Limits.stringMax) p.name = 'tooLong';
  }
  if (mode === 'full') {
    if (isNew && form.objects.length === 0) p.objects = 'required';
    if (form.status === 'due') {
      if (!form.plannedDate) {
        if (isNew) p.plannedDate = 'required';
      } else if (form.plannedDate < today && (isNew || form.plannedDate !== initial.plannedDate))
        p.plannedDate = 'notBeforeToday';
      if (form.notifyDays.trim() !== '') {
        const n = numericValue(form.notifyDays);
        if (n === null || !Number.isInteger(n) || n < 0 || n > SERVICE_NOTIFY_DAYS_MAX)
          p.notifyDays = 'notifyRange';
      }
    } else if (form.status === 'inProgress') {
      if (!form.startDate) p.startDate = 'required';
      else if (form.startDate > today) p.startDate = 'notAfterToday';
    } else if (form.status === 'closed') {
      closedDates();
    }
  } else if (mode === 'archive' && form.endDate !== initial.endDate) {
    if (!form.endDate) p.endDate = 'required';
    else if (form.endDate > today) p.endDate = 'notAfterToday';
    else if (form.startDate && form.endDate < form.startDate) p.endDate = 'endBeforeStart';
  }
  if (form.description.length > Limits.descriptionMax) p.description = 'tooLong';
  checkNumber(p, 'mileage', form.mileage, ctx.miles ? COUNTER_MAX / KM_PER_MILE : COUNTER_MAX);
  checkNumber(p, 'engineHours', form.engineHours, COUNTER_MAX);
  if (form.lines.length === 0) checkNumber(p, 'manualCost', form.manualCost, DECIMAL_MAX);
  form.lines.forEach((l, i) => {
    if (!l.n.trim()) p[`lines.${i}.n`] = 'required';
    else if (l.n.trim().length > Limits.stringMax) p[`lines.${i}.n`] = 'tooLong';
    const q = textThousandths(l.q);
    if (q === undefined) p[`lines.${i}.q`] = l.q.trim() === '' ? 'required' : 'invalidNumber';
    else if (q <= 0) p[`lines.${i}.q`] = 'positive';
    else if (q > DECIMAL_MAX * 1000) p[`lines.${i}.q`] = 'tooLarge';
    if (l.c.trim() !== '') {
      const c = textThousandths(l.c);
      if (c === undefined) p[`lines.${i}.c`] = 'invalidNumber';
      else if (c > DECIMAL_MAX * 1000) p[`lines.${i}.c`] = 'tooLarge';
    }
  });
  return p;
}

/** Which tab holds a field, so a failed save can show it. */
export function tabOfField(field: string): 'main' | 'lines' | 'custom' {
  if (field.startsWith('cf.')) return 'custom'; // customfields
  return field.startsWith('lines.') ? 'lines' : 'main';
}
