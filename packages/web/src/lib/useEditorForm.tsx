import { useForm } from '@mantine/form';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { ApiError } from './api.ts';
import type { CoreSchema } from './coreResolver.ts';
import {
  draftErrors,
  type FieldErrors,
  type ProblemText,
  type RefusalView,
  refreshDecision,
  refusalView,
  type ServerFieldOf,
  withoutFields,
} from './editorForm.ts';
import { LeaveWarning } from './useLeaveWarning.tsx';

export interface EditorFormOptions<D extends object, F extends string> {
  /** The draft to start from: the record's values, or the defaults of a new one. */
  initial: () => D;
  /** The route's core contract and the body the draft makes: checked before sending. */
  schema?: CoreSchema;
  body?: (draft: D) => unknown;
  /** The field that shows a body path (core issues and server refusals alike). */
  fieldOf: ServerFieldOf<F>;
  /** Words a problem the core contract found. */
  text: ProblemText<F>;
  /** The form's own rules, for what the core contract does not say. */
  check?: (draft: D) => FieldErrors<F>;
  /** The record edited, read again on live events: a change reloads a clean form (`refreshDecision`). */
  record?: { version: unknown; draft: () => D } | null;
  /** Spec §2 leave warning while dirty (`tabParam`: see `useLeaveWarning`); dialogs leave it off. */
  leave?: false | { tabParam?: string };
  /** The failure shown when a save failed without the server's answer. */
  generic: string;
  /** Rewords a refusal the form knows better (a 409's taken name, in the user's words). */
  reword?: (err: ApiError, view: RefusalView<F>) => RefusalView<F>;
}

/**
 * The state of every editor (STYLE "Web code": the component library's form hook with the shared zod
 * schema, server errors mapped back onto fields) on `@mantine/form`: the draft, its errors and the
 * failure shown above the buttons, dirty against the last loaded or saved values, the live refresh of a
 * clean form, the leave warning, and refused saves put onto the fields.
 */
export function useEditorForm<D extends object, F extends string>(options: EditorFormOptions<D, F>) {
  const { fieldOf, generic, record } = options;
  const [start] = useState(options.initial);
  // The draft last loaded or saved: what the form is dirty against (an update sends what differs).
  const [clean, setClean] = useState<D>(start);
  const form = useForm<D>({
    mode: 'controlled',
    initialValues: start,
    clearInputErrorOnChange: false,
    validate: (values) => draftErrors(values, options),
  });
  const [failure, setFailure] = useState<string | null>(null);
  const dirty = form.isDirty();
  // Only a dirty form with the warning on holds the router's blocker (see `LeaveWarning`).
  const leaveWarning = options.leave && dirty ? <LeaveWarning tabParam={options.leave.tabParam} /> : null;

  /** Loads `draft` as the form's clean state (a reloaded or saved record). */
  const load = (draft: D) => {
    form.setValues(draft);
    form.resetDirty(draft);
    form.clearErrors();
    setClean(draft);
  };

  const seen = useRef(record?.version);
  const version = record?.version;
  useEffect(() => {
    if (!record) return;
    const decision = refreshDecision(seen.current, version, dirty);
    if (decision === 'none') return;
    seen.current = version;
    if (decision === 'reload') load(record.draft());
  }, [version]);

  /**
   * Changes the draft; the errors of the fields named in `clear` and the failure go. A name ending in
   * '.' clears a group (`'lines.'`: every line's fields).
   */
  const edit = (patch: Partial<D>, ...clear: (F | `${string}.`)[]) => {
    form.setValues(patch);
    if (clear.length > 0) form.setErrors((current) => withoutFields(current, clear));
    setFailure(null);
  };

  /**
   * Checks the draft (core contract, then the form's own rules); true when it may be sent. `onInvalid`
   * gets the errors found (a tabbed editor opens the tab of the first).
   */
  const validate = (onInvalid?: (errors: FieldErrors<F>) => void): boolean => {
    setFailure(null);
    const result = form.validate();
    if (result.hasErrors) onInvalid?.(result.errors as FieldErrors<F>);
    return !result.hasErrors;
  };

  /** Puts a refused save onto the form: field errors and the form-level failure; returns what it shows. */
  const showRefusal = (err: unknown): RefusalView<F> => {
    const view = refusalView(err, fieldOf);
    if (!view) {
      form.clearErrors();
      setFailure(generic);
      return { fields: {}, failure: generic };
    }
    const shown = options.reword && err instanceof ApiError ? options.reword(err, view) : view;
    form.setErrors(shown.fields);
    setFailure(shown.failure);
    return shown;
  };

  return {
    form,
    draft: form.values,
    /** The draft as last loaded or saved. */
    clean,
    errors: form.errors as FieldErrors<F>,
    setErrors: (errors: FieldErrors<F>) => form.setErrors(errors),
    failure,
    setFailure,
    dirty,
    edit,
    validate,
    showRefusal,
    /** After a save: the saved record's draft becomes the clean state, its version the seen one. */
    accept: (draft: D, savedVersion?: unknown) => {
      if (savedVersion !== undefined) seen.current = savedVersion;
      load(draft);
    },
    /** The leave warning to render (nothing while the form is clean or the warning off). */
    leaveWarning: leaveWarning as ReactNode,
  };
}
