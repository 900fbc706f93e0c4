import { describe, expect, it } from 'vitest';
import { detailsToFields, formErrors } from './fieldErrors.ts';
import { serverIssues } from './refusal.ts';

describe('server issues on form fields', () => {
  it('puts the first message of each field on the form, the rest aside', () => {
    const issues = serverIssues([
      { field: 'body.n', message: 'Required' },
      { field: 'body.n', message: 'Too long' },
      { field: 'body.zzz', message: 'odd' },
    ]);
    expect(formErrors(issues, ({ path }) => (path[0] === 'n' ? 'name' : null))).toEqual({
      fields: { name: 'Required' },
      rest: ['odd'],
    });
  });

  it('maps the body fields of a form; other sources are not fields', () => {
    const details = [
      { field: 'body.rows.1.c', message: 'Too large' },
      { field: 'querystring.from', message: 'Invalid date' },
    ];
    expect(detailsToFields(details, (path, issue) => `${issue.row}.${path.join('.')}`, 'rows')).toEqual({
      fields: { '1.c': 'Too large' },
      rest: ['Invalid date'],
    });
  });
});
