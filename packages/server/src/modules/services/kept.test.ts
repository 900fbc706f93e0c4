import { describe, expect, it } from 'vitest';
import { KeptRows } from './kept.js';

const kept = (revision: string, n: number) => ({
  revision,
  rows: Array.from({ length: n }, () => []),
  lines: [],
});

describe('KeptRows', () => {
  it('answers a list’s rows only for the revision they were kept under', () => {
    const store = new KeptRows(100);
    const a = kept('"r1"', 3);
    store.set('1|open|:', a);
    expect(store.get('1|open|:', '"r1"')).toBe(a);
    expect(store.get('1|open|:', '"r2"')).toBeUndefined();
    expect(store.get('2|open|:', '"r1"')).toBeUndefined();
    const b = kept('"r2"', 4);
    store.set('1|open|:', b);
    expect(store.get('1|open|:', '"r1"')).toBeUndefined();
    expect(store.get('1|open|:', '"r2"')).toBe(b);
  });

  it('holds at most its bound of rows, dropping the least recently used lists first', () => {
    const store = new KeptRows(10);
    store.set('a', kept('1', 4));
    store.set('b', kept('1', 4));
    expect(store.get('a', '1')).toBeDefined(); // a is now the most recently used
    store.set('c', kept('1', 4));
    expect(store.get('b', '1')).toBeUndefined();
    expect(store.get('a', '1')).toBeDefined();
    expect(store.get('c', '1')).toBeDefined();
    store.set('huge', kept('1', 11));
    expect(store.get('huge', '1')).toBeUndefined();
    expect(store.get('a', '1')).toBeDefined();
  });
});
