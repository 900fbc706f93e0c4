import { describe, expect, it } from 'vitest';
import { ReplyCache } from './etag.js';

const body = (bytes: number) => Buffer.alloc(bytes, 'x');

describe('ReplyCache bound', () => {
  it('holds at most its bytes, dropping the least recently used bodies first', () => {
    const cache = new ReplyCache(10);
    const a = body(4);
    cache.set('a', a);
    cache.set('b', body(4));
    expect(cache.get('a')).toBe(a); // a is now the most recently used
    cache.set('c', body(4));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(a);
    expect(cache.get('c')).toBeDefined();
  });

  it('keeps no body larger than the bound, and replacing a body frees the bytes of the old one', () => {
    const cache = new ReplyCache(10);
    cache.set('a', body(4));
    cache.set('huge', body(11));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    cache.set('a', body(6));
    cache.set('b', body(4));
    expect(cache.get('a')?.length).toBe(6);
    expect(cache.get('b')).toBeDefined();
  });
});
