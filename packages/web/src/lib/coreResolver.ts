/**
 * The forms' validation through the core contracts (STYLE "Web code": forms with the shared zod schema):
 * a form builds the body it would send and checks it with the route's core schema; each issue lands on
 * the form field that shows its body path (the same mapping as the server's refusals) as a problem kind
 * that the form words in the user's language. The core's English messages are never shown. Pure.
 */

/** What went wrong with a field, as the forms word it. */
export type Problem = 'required' | 'tooLong' | 'tooShort' | 'tooMany' | 'tooSmall' | 'tooBig' | 'invalid';

/** One issue of a core (zod 4) schema, as far as the forms read it. */
export interface CoreIssue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
}

/** A core contract: anything with zod's `safeParse`. */
export interface CoreSchema {
  safeParse(input: unknown): { success: true } | { success: false; error: { issues: readonly CoreIssue[] } };
}

/** A field's problem with the bound it broke (`limit`: the schema's maximum or minimum). */
export interface FieldProblem {
  problem: Problem;
  limit: number | null;
}

const valueAt = (body: unknown, path: readonly PropertyKey[]): unknown => {
  let at: unknown = body;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
};

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** The problem kind of one issue of `body`: an empty or missing value is "required" whatever the rule. */
export function problemOf(issue: CoreIssue, body: unknown): FieldProblem {
  const limitOf = (n: number | bigint | undefined) => (n === undefined ? null : Number(n));
  if (issue.code === 'too_small') {
    const min = limitOf(issue.minimum);
    const emptyList = (issue.origin === 'string' || issue.origin === 'array') && (min ?? 0) <= 1;
    if (emptyList || isEmpty(valueAt(body, issue.path))) return { problem: 'required', limit: min };
    return { problem: issue.origin === 'string' ? 'tooShort' : 'tooSmall', limit: min };
  }
  if (issue.code === 'too_big') {
    const max = limitOf(issue.maximum);
    if (issue.origin === 'string') return { problem: 'tooLong', limit: max };
    return { problem: issue.origin === 'array' ? 'tooMany' : 'tooBig', limit: max };
  }
  if (isEmpty(valueAt(body, issue.path))) return { problem: 'required', limit: null };
  return { problem: 'invalid', limit: null };
}

/**
 * The problems of `body` under `schema`, by form field: `fieldOf` names the field that shows a body path
 * (null: no field does; those go to `rest`). When two issues name one field, the first wins.
 */
export function schemaProblems<F extends string>(
  schema: CoreSchema,
  body: unknown,
  fieldOf: (path: readonly string[]) => F | null,
): { fields: Partial<Record<F, FieldProblem>>; rest: FieldProblem[] } {
  const out: { fields: Partial<Record<F, FieldProblem>>; rest: FieldProblem[] } = { fields: {}, rest: [] };
  const result = schema.safeParse(body);
  if (result.success) return out;
  for (const issue of result.error.issues) {
    const found = problemOf(issue, body);
    const field = fieldOf(issue.path.map(String));
    if (field === null) out.rest.push(found);
    else if (!(field in out.fields)) out.fields[field] = found;
  }
  return out;
}
