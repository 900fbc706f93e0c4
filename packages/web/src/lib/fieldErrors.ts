/**
 * The one mapper from a server error's `details` to form fields (STYLE "Web code": server errors mapped
 * back onto fields). Every route sends details in one shape (core `fieldIssue`, DESIGN §5):
 * `[{field: 'body.n', message}]`, for batches `{field: 'body.services.3.c', message, row: 3}`; batch
 * refusals may name a record instead (`{id, reason}`). Forms name their own fields; the parsing of paths,
 * rows and messages lives here once. Pure.
 */

/** One entry of `details` as a form reads it. */
export interface ServerIssue {
  /** Where the value was: 'body', 'querystring', 'params' ('' when the entry names no field). */
  source: string;
  /** The path inside it, the batch list and row taken off: ['n'], ['li', '0', 'q']. */
  path: string[];
  /** The batch row: the index after the batch list (`body.services.3.c`), else the entry's `row`. */
  row: number | null;
  /** The record a batch refusal names. */
  id: number | null;
  message: string;
}

const isIndex = (s: string | undefined): s is string => s !== undefined && /^\d+$/.test(s);

/**
 * Parses `details` (anything else gives no issues). `batchList` names the body's list of a batch call
 * (`services`, `rows`, `intervals`): `body.services.3.li.0.q` becomes row 3, path ['li', '0', 'q'].
 */
export function serverIssues(details: unknown, batchList?: string): ServerIssue[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((d): ServerIssue[] => {
    if (typeof d !== 'object' || d === null) return [];
    const raw = d as { field?: unknown; message?: unknown; reason?: unknown; row?: unknown; id?: unknown };
    const parts = typeof raw.field === 'string' && raw.field !== '' ? raw.field.split('.') : [];
    const [source = '', ...rest] = parts;
    let path = rest;
    let row = typeof raw.row === 'number' ? raw.row : null;
    if (batchList !== undefined && source === 'body' && path[0] === batchList && isIndex(path[1])) {
      row = Number(path[1]);
      path = path.slice(2);
    }
    const message =
      typeof raw.message === 'string' ? raw.message : typeof raw.reason === 'string' ? raw.reason : '';
    return [{ source, path, row, id: typeof raw.id === 'number' ? raw.id : null, message }];
  });
}

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
