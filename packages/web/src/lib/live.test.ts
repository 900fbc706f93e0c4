import type { LiveEvent } from '@fleetkeep/core';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLiveCache, LIVE_REFETCH_DELAY_MS, UNIT_PATCH_THROTTLE_MS } from './live.ts';
import { queryKeys } from './queryKeys.ts';

const FID = 3;
const unitsKey = queryKeys.collection(FID, 'avl_unit');
const servicesKey = queryKeys.collection(FID, 'service');

const message = (id: number, t: number): LiveEvent => ({
  t: 'e',
  s: 'avl_unit',
  fid: FID,
  d: { id, lmsg: { t, p: {} }, pos: { t, y: 50 + t / 1000, x: 27, s: 5, c: 0, z: null }, cnm: t, cneh: 1 },
});

describe('live events on the query cache (spec §4 "Live events")', () => {
  let client: QueryClient;
  let fetches: Record<string, number>;
  const observe = (key: readonly unknown[], name: string, data: unknown) => {
    const observer = new QueryObserver(client, {
      queryKey: key,
      queryFn: async () => {
        fetches[name] = (fetches[name] ?? 0) + 1;
        return data;
      },
      staleTime: Number.POSITIVE_INFINITY,
    });
    return observer.subscribe(() => undefined);
  };
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };

  beforeEach(() => {
    vi.useFakeTimers();
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    fetches = {};
  });
  afterEach(() => {
    client.clear();
    vi.useRealTimers();
  });

  it('patches a stream of unit messages into the cached units without a request', async () => {
    const stop = observe(unitsKey, 'units', [
      { id: 1, nm: 'A', lmsg: null, pos: null, cnm: 0, cneh: 0 },
      { id: 2, nm: 'B', lmsg: null, pos: null, cnm: 0, cneh: 0 },
    ]);
    await vi.runAllTimersAsync();
    expect(fetches.units).toBe(1);
    const before = client.getQueryData<{ id: number }[]>(unitsKey);
    const live = createLiveCache(client);
    for (let t = 1; t <= 40; t++) {
      live.apply(message(1, t * 1000));
      await vi.advanceTimersByTimeAsync(50);
    }
    await vi.advanceTimersByTimeAsync(UNIT_PATCH_THROTTLE_MS + LIVE_REFETCH_DELAY_MS);
    const after = client.getQueryData<{ id: number; cnm: number }[]>(unitsKey);
    expect(after?.[0]?.cnm).toBe(40_000);
    // The other unit keeps its identity, so its row does not render again.
    expect(after?.[1]).toBe(before?.[1]);
    expect(fetches.units).toBe(1);
    stop();
  });

  it('merges a unit update in place; a unit the list lacks fetches the list once', async () => {
    const stop = observe(unitsKey, 'units', [{ id: 1, nm: 'A', prp: { a: '1', b: '2' } }]);
    await vi.runAllTimersAsync();
    const live = createLiveCache(client);
    live.apply({ t: 'u', s: 'avl_unit', fid: FID, d: { id: 1, nm: 'A2', prp: { a: '' } } });
    await vi.advanceTimersByTimeAsync(UNIT_PATCH_THROTTLE_MS);
    expect(client.getQueryData(unitsKey)).toEqual([{ id: 1, nm: 'A2', prp: { b: '2' } }]);
    expect(fetches.units).toBe(1);
    live.apply({ t: 'u', s: 'avl_unit', fid: FID, d: { id: 9, nm: 'new' } });
    await vi.advanceTimersByTimeAsync(UNIT_PATCH_THROTTLE_MS + LIVE_REFETCH_DELAY_MS + 10);
    await settle();
    expect(fetches.units).toBe(2);
    stop();
  });

  it('coalesces refetches of a collection and skips collections nobody shows', async () => {
    const stop = observe(servicesKey, 'services', []);
    await vi.runAllTimersAsync();
    client.setQueryData(queryKeys.collection(FID, 'driver'), []);
    const live = createLiveCache(client);
    for (let i = 0; i < 30; i++) {
      live.apply({ t: 'u', s: 'service', fid: FID, d: { id: i } });
      live.apply({ t: 'u', s: 'driver', fid: FID, d: { id: i } });
    }
    await vi.advanceTimersByTimeAsync(LIVE_REFETCH_DELAY_MS + 10);
    await settle();
    expect(fetches.services).toBe(2);
    // The drivers list has no screen: marked stale, fetched when a screen shows it.
    expect(fetches.driver).toBeUndefined();
    expect(client.getQueryState(queryKeys.collection(FID, 'driver'))?.isInvalidated).toBe(true);
    stop();
  });

  it('reset drops what is waiting', async () => {
    const stop = observe(servicesKey, 'services', []);
    await vi.runAllTimersAsync();
    const live = createLiveCache(client);
    live.apply({ t: 'u', s: 'service', fid: FID, d: { id: 1 } });
    live.reset();
    await vi.advanceTimersByTimeAsync(LIVE_REFETCH_DELAY_MS * 3);
    expect(fetches.services).toBe(1);
    stop();
  });
});
