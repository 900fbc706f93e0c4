import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { MAX_ENTRIES, StatisticsCache } from './cache.js';

/**
 * A context whose database answers every query with no row (statistics version 0) and whose bus never
 * publishes: only the memory's own bound decides what is computed again.
 */
function quietContext(): AppContext {
  const query: Record<string, unknown> = new Proxy(
    {},
    {
      get: (_, name) => (name === 'executeTakeFirst' ? async () => undefined : () => query),
    },
  );
  return {
    bus: { subscribe: () => () => {} },
    db: { kysely: { withTables: () => query } },
  } as unknown as AppContext;
}

describe('StatisticsCache bound', () => {
  it('keeps MAX_ENTRIES replies, computing the least recently used one again', async () => {
    const cache = StatisticsCache.of(quietContext());
    const computed: string[] = [];
    const read = (key: string) =>
      cache.read(1, key, async (patch) => {
        computed.push(`${key}${patch ? ' patched' : ''}`);
        return key;
      });
    for (let i = 0; i < MAX_ENTRIES; i++) await read(`k${i}`);
    expect(await read('k0')).toBe('k0'); // k0 is now the most recently used; k1 the least
    expect(computed).toHaveLength(MAX_ENTRIES);
    await read('extra');
    await read('k0');
    expect(computed).toHaveLength(MAX_ENTRIES + 1);
    await read('k1');
    expect(computed).toEqual([...Array.from({ length: MAX_ENTRIES }, (_, i) => `k${i}`), 'extra', 'k1']);
  });
});
