import type { TFunction } from 'i18next';
import { ApiError } from '../../../lib/api.ts';
import { detailsToFields } from '../../../lib/fieldErrors.ts';
import type { FieldProblem, FormProblems } from './rules.ts';

/** Texts of the form problems of rules.ts in the user's language. */
export function problemText(problem: FieldProblem, t: TFunction): string {
  if (problem.code === 'required') return t('controls.required');
  if (problem.code === 'tooLong') return t('fleetAdmin.objects.tooLong', { max: problem.max });
  return t('fleetAdmin.objects.tooLarge');
}

export function problemTexts(problems: FormProblems, t: TFunction): Record<string, string> {
  return Object.fromEntries(Object.entries(problems).map(([field, p]) => [field, problemText(p, t)]));
}

/**
 * A server failure onto a dialog's fields (lib/fieldErrors.ts); a 409 on `body.uid` is the device id in
 * use (issue 9: unique across the installation), said in the user's language. What no field shows is
 * returned as `rest`.
 */
export function serverProblems(
  err: unknown,
  fields: readonly string[],
  t: TFunction,
): { fields: Record<string, string>; rest: string | null } {
  if (!(err instanceof ApiError)) return { fields: {}, rest: t('objects.saveFailed') };
  const mapped = detailsToFields(err.details, (path) =>
    path[0] && fields.includes(path[0]) ? path[0] : null,
  );
  if (err.status === 409 && 'uid' in mapped.fields) mapped.fields.uid = t('fleetAdmin.objects.deviceTaken');
  const rest = mapped.rest[0] ?? (Object.keys(mapped.fields).length === 0 ? err.reason : null);
  return { fields: mapped.fields, rest };
}
