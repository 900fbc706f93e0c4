import { describe, expect, it } from 'vitest';
import { baseQuery, extendChain, settleChain } from './urlParams.ts';

describe('URL query chains (changes that never lose each other)', () => {
  it('builds on the committed location when nothing is pending', () => {
    expect(baseQuery(null, '/tokens', 'q=a')).toBe('q=a');
  });

  it('a second change before the first is committed builds on the first', () => {
    const one = extendChain(null, '/tokens', '', 'sort=name');
    expect(baseQuery(one, '/tokens', '')).toBe('sort=name');
    const two = extendChain(one, '/tokens', '', 'sort=-name');
    expect(two.trail).toEqual(['', 'sort=name', 'sort=-name']);
    expect(baseQuery(two, '/tokens', '')).toBe('sort=-name');
  });

  it('a render that shows the first change but is not committed forgets nothing', () => {
    // The transition rendered "sort=name" and was dropped for the second key press: only a commit settles.
    const one = extendChain(null, '/tokens', '', 'sort=name');
    const two = extendChain(one, '/tokens', '', 'sort=-name');
    expect(baseQuery(two, '/tokens', '')).toBe('sort=-name');
  });

  it('a commit of a middle query keeps building on the last one asked for', () => {
    const one = extendChain(null, '/tokens', '', 'sort=name');
    const two = extendChain(one, '/tokens', '', 'sort=-name');
    const settled = settleChain(two, '/tokens', 'sort=name');
    expect(settled).toBe(two);
    expect(baseQuery(settled, '/tokens', 'sort=name')).toBe('sort=-name');
    const three = extendChain(settled, '/tokens', 'sort=name', 'sort=-name&q=x');
    expect(three.trail).toEqual(['', 'sort=name', 'sort=-name', 'sort=-name&q=x']);
  });

  it('the chain ends once the last query is committed; a back navigation then builds on the location', () => {
    const one = extendChain(null, '/tokens', 'a=1', 'a=2');
    expect(settleChain(one, '/tokens', 'a=2')).toBeNull();
    // Not settled yet but the user went elsewhere: the location wins.
    expect(settleChain(one, '/tokens', 'b=1')).toBeNull();
    expect(baseQuery(one, '/tokens', 'b=1')).toBe('b=1');
  });

  it('another path never builds on the chain', () => {
    const one = extendChain(null, '/tokens', '', 'q=a');
    expect(baseQuery(one, '/services', '')).toBe('');
    expect(settleChain(one, '/services', '')).toBeNull();
    expect(extendChain(one, '/services', '', 'tab=2').trail).toEqual(['', 'tab=2']);
  });
});
