import { describe, expect, it } from 'vitest';
import { ApiError } from './api.ts';
import { refusalView } from './draftForm.ts';

const fieldOf = (path: readonly string[]) => (path[0] === 'n' || path[0] === 'url' ? path[0] : null);

describe('a refused save on a form', () => {
  it('puts the named fields on the form and keeps the first message no field shows as the failure', () => {
    const err = new ApiError(4, 'Invalid input', 400, [
      { field: 'body.n', message: 'Too long' },
      { field: 'body.url', message: 'Not a URL' },
      { field: 'body.k', message: 'Pick one' },
      { field: 'body.x', message: 'Unknown' },
    ]);
    expect(refusalView(err, fieldOf)).toEqual({
      fields: { n: 'Too long', url: 'Not a URL' },
      failure: 'Pick one',
    });
  });

  it('shows no failure when every message has its field', () => {
    const err = new ApiError(4, 'Invalid input', 400, [{ field: 'body.n', message: 'Required' }]);
    expect(refusalView(err, fieldOf)).toEqual({ fields: { n: 'Required' }, failure: null });
  });

  it("shows the server's reason when no field is named", () => {
    const err = new ApiError(10, 'Name already used', 409);
    expect(refusalView(err, fieldOf)).toEqual({ fields: {}, failure: 'Name already used' });
  });

  it('leaves a failure that is not the server answer to the caller', () => {
    expect(refusalView(new TypeError('Failed to fetch'), fieldOf)).toBeNull();
  });
});
