import { useState } from 'react';
import { type FieldErrors, refusalView, type ServerFieldOf } from './editorForm.ts';

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
