import { useState } from 'react';
import { ApiError } from './api.ts';
import { detailsToFields } from './fieldErrors.ts';
import type { ServerIssue } from './refusal.ts';

/** A form's field errors, by the form's own field names. */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** Maps a refused save's issue path (inside the body) to the form's field, or null when none shows it. */
export type ServerFieldOf<F extends string> = (path: readonly string[], issue: ServerIssue) => F | null;

/**
 * What a dialog shows for a save the server refused (STYLE "Web code": server errors mapped back onto
 * fields): the field errors its `details` name, and as the form's failure the first message no field
 * shows, or the reason when no field is named. Null when the failure is not the server's answer (a
 * network error): the caller shows its own words. Pure.
 */
export function refusalView<F extends string>(
  err: unknown,
  fieldOf: ServerFieldOf<F>,
): { fields: FieldErrors<F>; failure: string | null } | null {
  if (!(err instanceof ApiError)) return null;
  const mapped = detailsToFields(err.details, fieldOf);
  const named = Object.keys(mapped.fields).length > 0;
  return { fields: mapped.fields as FieldErrors<F>, failure: mapped.rest[0] ?? (named ? null : err.reason) };
}

/**
 * The state every editing dialog keeps: the draft, the errors of its fields and the failure shown
 * above its buttons. `edit` changes the draft and clears the errors of the fields it names and the
 * failure; `showRefusal` puts a refused save onto the form (`generic` when it was not the server's
 * answer).
 */
export function useDraftForm<D extends object, F extends string>(initial: () => D) {
  const [draft, setDraft] = useState<D>(initial);
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const edit = (patch: Partial<D>, ...clear: F[]) => {
    setDraft((d) => ({ ...d, ...patch }));
    if (clear.length)
      setErrors((e) => {
        const next = { ...e };
        for (const field of clear) delete next[field];
        return next;
      });
    setFailure(null);
  };

  const showRefusal = (err: unknown, fieldOf: ServerFieldOf<F>, generic: string) => {
    const view = refusalView(err, fieldOf);
    if (!view) {
      setFailure(generic);
      return;
    }
    setErrors(view.fields);
    setFailure(view.failure);
  };

  return { draft, setDraft, errors, setErrors, failure, setFailure, edit, showRefusal };
}
