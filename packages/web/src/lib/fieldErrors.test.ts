import { describe, expect, it } from 'vitest';
import { detailsToFields, formErrors, serverIssues } from './fieldErrors.ts';

describe('server error details', () => {
  it('splits the field into source and path', () => {
    expect(serverIssues([{ field: 'body.li.0.q', message: 'Must be positive' }])).toEqual([
      { source: 'body', path: ['li', '0', 'q'], row: null, id: null, message: 'Must be positive' },
    ]);
    expect(serverIssues([{ field: 'querystring.to', message: 'Must not be before from' }])[0]).toMatchObject({
      source: 'querystring',
      path: ['to'],
    });
  });

  it('takes the batch row off the path of the named list, or from the entry', () => {
    const details = [
      { field: 'body.rows.3.c', message: 'Too large', row: 3 },
      { field: 'body.services.2.end_date', message: 'Invalid date' },
      { field: 'body.services', message: 'Duplicate ids' },
    ];
    expect(serverIssues(details, 'rows').map((i) => [i.row, i.path])).toEqual([
      [3, ['c']],
      [null, ['services', '2', 'end_date']],
      [null, ['services']],
    ]);
    expect(serverIssues(details, 'services').map((i) => [i.row, i.path])).toEqual([
      [3, ['rows', '3', 'c']],
      [2, ['end_date']],
      [null, ['services']],
    ]);
  });

  it('reads refusals that name a record, and ignores what is not a list of entries', () => {
    expect(serverIssues([{ id: 7, reason: 'Already closed' }])).toEqual([
      { source: '', path: [], row: null, id: 7, message: 'Already closed' },
    ]);
    expect(serverIssues(undefined)).toEqual([]);
    expect(serverIssues({ request_id: 'x' })).toEqual([]);
    expect(serverIssues([null, 'text'])).toEqual([]);
  });

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
