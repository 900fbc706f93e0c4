import { describe, expect, it } from 'vitest';
import { ApiError } from './api.ts';
import { draftErrors, refreshDecision, refusalView, withoutFields } from './editorForm.ts';

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

describe('the draft checked before sending', () => {
  const schema = {
    safeParse: (body: unknown) =>
      (body as { n: string }).n === ''
        ? {
            success: false as const,
            error: {
              issues: [
                { code: 'too_small', origin: 'string', minimum: 1, path: ['n'], message: 'Too small' },
              ],
            },
          }
        : { success: true as const },
  };
  const rules = {
    schema,
    body: (d: { name: string; url: string }) => ({ n: d.name.trim(), url: d.url }),
    fieldOf: (path: readonly string[]) => (path[0] === 'n' ? ('name' as const) : null),
    text: (problem: string, field: string) => `${field}: ${problem}`,
  };

  it('words the core problems of the body on the form fields', () => {
    expect(draftErrors({ name: ' ', url: '' }, rules)).toEqual({ name: 'name: required' });
    expect(draftErrors({ name: 'A', url: '' }, rules)).toEqual({});
  });

  it("adds the form's own rules on the fields the core left clean", () => {
    const check = (d: { name: string; url: string }) => ({
      name: 'taken',
      ...(d.url === '' ? { url: 'needed here' } : {}),
    });
    expect(draftErrors({ name: '', url: '' }, { ...rules, check })).toEqual({
      name: 'name: required',
      url: 'needed here',
    });
  });
});

describe('a record changed elsewhere', () => {
  it('reloads a clean form, keeps a dirty one, and ignores the version already seen', () => {
    expect(refreshDecision(100, 100, false)).toBe('none');
    expect(refreshDecision(100, 100, true)).toBe('none');
    expect(refreshDecision(100, 160, false)).toBe('reload');
    expect(refreshDecision(100, 160, true)).toBe('keep');
  });
});

describe('errors cleared by an edit', () => {
  it('drops the fields named and the groups named with a trailing dot, nothing else', () => {
    const errors = { n: 'Required', 'lines.0.q': 'Too large', 'lines.1.n': 'Required', linesTotal: 'x' };
    expect(withoutFields(errors, ['n'])).toEqual({
      'lines.0.q': 'Too large',
      'lines.1.n': 'Required',
      linesTotal: 'x',
    });
    expect(withoutFields(errors, ['lines.'])).toEqual({ n: 'Required', linesTotal: 'x' });
    expect(withoutFields(errors, ['c'])).toBe(errors);
  });
});
