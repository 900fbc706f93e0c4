import type { Problem as CoreProblem } from '../../../lib/coreResolver.ts';
import type { EditMode, ServiceForm } from './rules.ts';

/**
 * The service editor's checks before a save. The core contract (`serviceCreateBody`, with the body of
 * payload.ts `checkedBody`) holds the fields' own rules: the name, the description's length, notify
 * days 0..SERVICE_NOTIFY_DAYS_MAX, counters up to COUNTER_MAX km, money and line rows as decimals up to
 * DECIMAL_MAX. What it cannot say is the form's own (`ownProblems`): an object for a new service and
 * the dates each status needs against today in the fleet zone (spec §4, §5; PRODUCT.md "Services"),
 * which the server checks as well.
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
}

/** The editor's wording of a problem the core contract found on `field`. */
export function problemOfCore(problem: CoreProblem, field: string): Problem {
  if (problem === 'required') return 'required';
  if (field === 'notifyDays') return 'notifyRange';
  if (problem === 'tooLong') return 'tooLong';
  if (problem === 'tooBig' || problem === 'tooMany') return 'tooLarge';
  if (problem === 'tooSmall') return 'positive';
  return 'invalidNumber';
}

/** The form's own rules (PRODUCT.md "Services", spec §4 date rules per status), checked before a save. */
export function ownProblems(form: ServiceForm, ctx: ValidateContext): Problems {
  const p: Problems = {};
  const { today, mode, isNew, initial } = ctx;
  if (mode === 'readonly') return p;
  const endDate = () => {
    if (!form.endDate) p.endDate = 'required';
    else if (form.endDate > today) p.endDate = 'notAfterToday';
    else if (form.startDate && form.endDate < form.startDate) p.endDate = 'endBeforeStart';
  };
  const startDate = () => {
    if (!form.startDate) p.startDate = 'required';
    else if (form.startDate > today) p.startDate = 'notAfterToday';
  };
  if (mode === 'full') {
    if (isNew && form.objects.length === 0) p.objects = 'required';
    if (form.status === 'due') {
      if (!form.plannedDate) {
        if (isNew) p.plannedDate = 'required';
      } else if (form.plannedDate < today && (isNew || form.plannedDate !== initial.plannedDate))
        p.plannedDate = 'notBeforeToday';
    } else if (form.status === 'inProgress') {
      startDate();
    } else if (form.status === 'closed') {
      startDate();
      endDate();
    }
  } else if (mode === 'archive' && form.endDate !== initial.endDate) {
    endDate();
  }
  return p;
}

/** Which tab holds a field, so a failed save can show it. */
export function tabOfField(field: string): 'main' | 'lines' | 'custom' {
  if (field.startsWith('cf.')) return 'custom'; // customfields
  return field.startsWith('lines.') ? 'lines' : 'main';
}
