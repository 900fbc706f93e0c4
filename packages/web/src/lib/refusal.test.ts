import { describe, expect, it } from 'vitest';
import { ApiError } from './api.ts';
import { readRefusal, refusalMessage, rowErrors, serverIssues } from './refusal.ts';

const issue = (over: object) => ({
  source: '',
  path: [],
  row: null,
  id: null,
  value: null,
  values: null,
  ...over,
});

describe('refusal reader (core RefusalDetails)', () => {
  it('splits the field of a field issue into source and path', () => {
    expect(serverIssues([{ field: 'body.li.0.q', message: 'Must be positive' }])).toEqual([
      issue({ source: 'body', path: ['li', '0', 'q'], message: 'Must be positive' }),
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

  it('reads record refusals: id, row, field, reason, a value in the way and a count of values', () => {
    expect(
      serverIssues([
        { id: 7, reason: 'Already closed' },
        { row: 2, field: 'body.lineitems.2.n', reason: 'Exists already' },
        { field: 'body.s.options', reason: 'Held', value: 'Night', values: 3 },
        { kind: 'units', id: 9, reason: 'Unknown object' },
      ]),
    ).toEqual([
      issue({ id: 7, message: 'Already closed' }),
      issue({ source: 'body', path: ['lineitems', '2', 'n'], row: 2, message: 'Exists already' }),
      issue({ source: 'body', path: ['s', 'options'], message: 'Held', value: 'Night', values: 3 }),
      issue({ id: 9, message: 'Unknown object' }),
    ]);
  });

  it('reads nothing from details outside the contract', () => {
    expect(serverIssues(undefined)).toEqual([]);
    expect(serverIssues({ request_id: 'x' })).toEqual([]);
    expect(serverIssues({ values: 2 })).toEqual([]);
    expect(serverIssues([null, 'text'])).toEqual([]);
    expect(serverIssues([{ field: 'body.s.options', value: 'Night', count: 1 }])).toEqual([]);
  });

  it('turns a refused batch into row errors, or the reason of the call', () => {
    const rows = new ApiError(10, 'Some line items exist already', 409, [
      { row: 4, field: 'body.lineitems.1.n', reason: 'Exists' },
    ]);
    expect(rowErrors(readRefusal(rows))).toEqual([{ row: 4, message: 'Exists' }]);
    expect(rowErrors(readRefusal(new ApiError(5, 'Fleet not found', 404)))).toEqual([
      { row: -1, message: 'Fleet not found' },
    ]);
    expect(rowErrors(readRefusal(new Error('boom')))).toEqual([{ row: -1, message: 'Error: boom' }]);
  });

  it('gives the message of a refusal: its first issue, else its reason', () => {
    const file = new ApiError(4, 'imports.file.tooLarge', 400, [
      { field: 'body', message: 'imports.file.badXlsx' },
    ]);
    expect(refusalMessage(readRefusal(file))).toBe('imports.file.badXlsx');
    expect(refusalMessage(readRefusal(new ApiError(10, 'Conflict', 409)))).toBe('Conflict');
    expect(readRefusal(file).code).toBe(4);
    expect(readRefusal('offline')).toEqual({ code: null, reason: 'offline', issues: [] });
  });
});
