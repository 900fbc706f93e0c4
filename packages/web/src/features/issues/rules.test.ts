import { describe, expect, it } from 'vitest';
import { decodeFilters, draftBody, filtersQuery, newDraft, photosProblem } from './rules.ts';

describe('issue filters in the URL', () => {
  it('default to the active issues; unknown values fall back', () => {
    expect(decodeFilters(new URLSearchParams(''))).toEqual({
      status: 'active',
      priority: null,
      object: null,
    });
    expect(decodeFilters(new URLSearchParams('status=done&priority=urgent&object=x1'))).toEqual({
      status: 'active',
      priority: null,
      object: null,
    });
  });
  it('become the list query', () => {
    const f = decodeFilters(new URLSearchParams('status=closed&priority=high&object=t7'));
    expect(f).toEqual({ status: 'closed', priority: 'high', object: { type: 't', id: 7 } });
    expect(filtersQuery(f)).toEqual({ status: 'closed', priority: 'high', object_type: 't', object_id: 7 });
    expect(filtersQuery(decodeFilters(new URLSearchParams('')))).toEqual({ status: 'open,workorder' });
    expect(filtersQuery(decodeFilters(new URLSearchParams('status=all')))).toEqual({});
  });
});

describe('report dialog', () => {
  it('makes the POST body of the draft', () => {
    expect(draftBody({ ...newDraft('u12'), title: 'Leak' })).toEqual({
      object_type: 'u',
      object_id: 12,
      title: 'Leak',
      description: '',
      priority: 'medium',
    });
    expect(draftBody(newDraft()).object_id).toBe(0);
  });
  it('checks the photos: count, total size, images only', () => {
    const img = { size: 10, type: 'image/png' };
    expect(photosProblem([img, img], 2, 100)).toBeNull();
    expect(photosProblem([img, img, img], 2, 100)).toBe('count');
    expect(photosProblem([{ ...img, size: 101 }], 2, 100)).toBe('size');
    expect(photosProblem([{ size: 1, type: 'application/pdf' }], 2, 100)).toBe('type');
  });
});
