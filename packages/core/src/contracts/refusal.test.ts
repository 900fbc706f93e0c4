import { describe, expect, it } from 'vitest';
import { detailsOfCode, errorBody, refusalDetails } from './refusal.js';

describe('error details contract (DESIGN §5)', () => {
  it('takes the 400 field issues, with and without a batch row', () => {
    const details = [
      { field: 'body.n', message: 'Required' },
      { field: 'body.services.3.c', message: 'Too long', row: 3 },
    ];
    expect(refusalDetails.parse(details)).toEqual(details);
  });

  it('takes the 409 record refusals of batches, bindings, duplicates and values in use', () => {
    const details = [
      { row: 0, reason: 'Not found' },
      { row: 1, id: 7, reason: 'Not found' },
      { id: 8, reason: 'Not archived' },
      { kind: 'units', id: 9, reason: 'Unknown object' },
      { row: 2, field: 'body.lineitems.2.n', reason: 'Exists already' },
      { field: 'body.s.options', reason: 'Held', value: 'Night', values: 2 },
      { id: 4, reason: 'Held', values: 1 },
    ];
    expect(refusalDetails.parse(details)).toEqual(details);
  });

  it('takes the wait of a 429 and the request id of a 500', () => {
    expect(refusalDetails.parse({ retry_after: 60 })).toEqual({ retry_after: 60 });
    expect(refusalDetails.parse({ request_id: 'req-1' })).toEqual({ request_id: 'req-1' });
  });

  it('refuses the shapes it replaced: a refusal with a message, counts outside a list, loose keys', () => {
    expect(refusalDetails.safeParse([{ field: 'body.n', reason: 'x', message: 'x' }]).success).toBe(false);
    expect(refusalDetails.safeParse([{ field: 'body.s.options', value: 'Night', count: 1 }]).success).toBe(
      false,
    );
    expect(refusalDetails.safeParse({ values: 2 }).success).toBe(false);
    expect(refusalDetails.safeParse([{ row: 1, field: 'body.x', message: 'm', batch_row: 0 }]).success).toBe(
      false,
    );
    expect(refusalDetails.safeParse([{ id: 1 }]).success).toBe(false);
    expect(refusalDetails.safeParse('Not implemented').success).toBe(false);
  });

  it('is the details of the error body, which may have none', () => {
    expect(errorBody.parse({ error: 5, reason: 'Not found' })).toEqual({ error: 5, reason: 'Not found' });
    expect(errorBody.safeParse({ error: 10, reason: 'Conflict', details: { values: 1 } }).success).toBe(
      false,
    );
    expect(errorBody.safeParse({ error: 4, reason: 'Invalid input', stack: 'at x' }).success).toBe(false);
  });

  it('names which details go with which code', () => {
    expect(detailsOfCode(4).safeParse([{ field: 'body.n', message: 'Required' }]).success).toBe(true);
    expect(detailsOfCode(10).safeParse([{ field: 'body.n', message: 'Taken' }]).success).toBe(false);
    expect(detailsOfCode(10).safeParse([{ field: 'body.n', reason: 'Taken' }]).success).toBe(true);
    expect(detailsOfCode(4).safeParse([{ id: 1, reason: 'Not found' }]).success).toBe(false);
    expect(detailsOfCode(9).safeParse({ retry_after: 3 }).success).toBe(true);
    expect(detailsOfCode(6).safeParse({ request_id: 'r' }).success).toBe(true);
    expect(detailsOfCode(5).safeParse({ request_id: 'r' }).success).toBe(false);
    expect(detailsOfCode(5).safeParse(undefined).success).toBe(true);
  });
});
