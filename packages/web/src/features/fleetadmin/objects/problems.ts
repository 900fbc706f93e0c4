import type { TFunction } from 'i18next';
import type { ApiError } from '../../../lib/api.ts';
import type { ProblemText, RefusalView } from '../../../lib/editorForm.ts';

/** The core contract's problems of the unit, driver and trailer dialogs in the user's language. */
export const objectProblemText =
  (t: TFunction): ProblemText<string> =>
  (problem, _field, limit) => {
    if (problem === 'required') return t('controls.required');
    if (problem === 'tooLong') return t('fleetAdmin.objects.tooLong', { max: limit });
    return t('fleetAdmin.objects.tooLarge');
  };

/** The dialog field a body path names: its first part, when the dialog shows it. */
export const fieldAmong =
  <F extends string>(fields: readonly F[]) =>
  (path: readonly string[]): F | null =>
    fields.includes(path[0] as F) ? (path[0] as F) : null;

/** A 409 on `body.uid` is the device id in use (unique across the installation), in the user's words. */
export const deviceTaken =
  (t: TFunction) =>
  <F extends string>(err: ApiError, view: RefusalView<F>): RefusalView<F> =>
    err.status === 409 && 'uid' in view.fields
      ? { ...view, fields: { ...view.fields, uid: t('fleetAdmin.objects.deviceTaken') } }
      : view;
