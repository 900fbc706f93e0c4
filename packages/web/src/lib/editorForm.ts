import { ApiError } from './api.ts';
import { type CoreSchema, type FieldProblem, type Problem, schemaProblems } from './coreResolver.ts';
import { detailsToFields } from './fieldErrors.ts';
import type { ServerIssue } from './refusal.ts';

/**
 * The pure parts of the editor hook (`useEditorForm`): what a refused save puts on the form, which
 * problems the core contract and the form's own rules find, and whether a record changed elsewhere
 * reloads the form. Pure.
 */

/** A form's field errors, by the form's own field names (`M`: the words, or what a form words later). */
export type FieldErrors<F extends string, M = string> = Partial<Record<F, M>>;

/** Maps a body path (of a refused save or of a core schema issue) to the form's field, or null. */
export type ServerFieldOf<F extends string> = (path: readonly string[], issue?: ServerIssue) => F | null;

/** Words a problem of a field in the user's language (or names the message a form words later, `M`). */
export type ProblemText<F extends string, M = string> = (
  problem: Problem,
  field: F,
  limit: number | null,
) => M;

/** A refusal as a form shows it: errors on its fields and the failure above its buttons. */
export interface RefusalView<F extends string> {
  fields: FieldErrors<F>;
  failure: string | null;
}

/**
 * What a form shows for a save the server refused (STYLE "Web code": server errors mapped back onto
 * fields): the field errors its `details` name (DESIGN §5 details), and as the form's failure the first
 * message no field shows, or the reason when no field is named. Null when the failure is not the
 * server's answer (a network error): the caller shows its own words. The one place the forms read a
 * refusal.
 */
export function refusalView<F extends string>(
  err: unknown,
  fieldOf: ServerFieldOf<F>,
): RefusalView<F> | null {
  if (!(err instanceof ApiError)) return null;
  const mapped = detailsToFields(err.details, fieldOf);
  const named = Object.keys(mapped.fields).length > 0;
  return { fields: mapped.fields as FieldErrors<F>, failure: mapped.rest[0] ?? (named ? null : err.reason) };
}

/**
 * The field errors of a draft before it is sent: the core contract's problems with the body the draft
 * makes (worded by `text`), then the form's own rules (`check`, for what the core does not say) on the
 * fields the contract left clean.
 */
export function draftErrors<D, F extends string, M = string>(
  draft: D,
  rules: {
    schema?: CoreSchema;
    body?: (draft: D) => unknown;
    fieldOf: ServerFieldOf<F>;
    text: ProblemText<F, M>;
    check?: (draft: D) => FieldErrors<F, M>;
  },
): FieldErrors<F, M> {
  const out: FieldErrors<F, M> = {};
  if (rules.schema && rules.body) {
    const found = schemaProblems(rules.schema, rules.body(draft), (path) => rules.fieldOf(path));
    for (const [field, p] of Object.entries(found.fields) as [F, FieldProblem][])
      out[field] = rules.text(p.problem, field, p.limit);
  }
  for (const [field, message] of Object.entries(rules.check?.(draft) ?? {}) as [F, M][])
    if (!(field in out)) out[field] = message;
  return out;
}

/**
 * What a form does when its record is read again (a live event refetched it, spec §2 live updates):
 * nothing while the version is the one it has seen; a clean form reloads from the record; a dirty form
 * keeps the user's edits (the editors' behaviour: the save then answers with the newer record or a
 * conflict) and only remembers the version as seen.
 */
export function refreshDecision(seen: unknown, version: unknown, dirty: boolean): 'none' | 'reload' | 'keep' {
  if (Object.is(seen, version)) return 'none';
  return dirty ? 'keep' : 'reload';
}

/**
 * The errors without those of the fields an edit changed: a name clears its field, a name ending in '.'
 * a group (`'lines.'`: the fields of every line, `lines.0.q`, …). The same object when nothing goes.
 */
export function withoutFields<E extends Record<string, unknown>>(errors: E, fields: readonly string[]): E {
  const gone = (key: string) => fields.some((f) => (f.endsWith('.') ? key.startsWith(f) : key === f));
  if (!Object.keys(errors).some(gone)) return errors;
  return Object.fromEntries(Object.entries(errors).filter(([key]) => !gone(key))) as E;
}
