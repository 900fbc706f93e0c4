import { type ServerIssue, serverIssues } from './refusal.ts';

/**
 * The one mapper from a server error's issues to form fields (STYLE "Web code": server errors mapped
 * back onto fields). The details are read by lib/refusal.ts; forms name their own fields here. Pure.
 */

/** Form field errors: the first message of each field, and the messages of issues no field shows. */
export interface FormErrors {
  fields: Record<string, string>;
  rest: string[];
}

/**
 * Maps issues onto a form: `fieldOf` gives an issue's form field, or null when the form does not show
 * it (its message goes to `rest`). When two issues name one field, the first wins.
 */
export function formErrors(
  issues: readonly ServerIssue[],
  fieldOf: (issue: ServerIssue) => string | null,
): FormErrors {
  const out: FormErrors = { fields: {}, rest: [] };
  for (const issue of issues) {
    const field = fieldOf(issue);
    if (field === null) out.rest.push(issue.message);
    else if (!(field in out.fields)) out.fields[field] = issue.message;
  }
  return out;
}

/** `formErrors` over `details` of a single-record body: the field is `fieldOf` the body path. */
export function detailsToFields(
  details: unknown,
  fieldOf: (path: readonly string[], issue: ServerIssue) => string | null,
  batchList?: string,
): FormErrors {
  return formErrors(serverIssues(details, batchList), (issue) =>
    issue.source === 'body' ? fieldOf(issue.path, issue) : null,
  );
}
