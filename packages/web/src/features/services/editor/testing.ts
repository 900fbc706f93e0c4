import type { ServiceWire } from '@fleetkeep/core';
import { serviceWire } from '../testing.ts';
import { LINE_KIND, type LineDraft } from './rules.ts';

/** Test data of the service editor's rules (only tests import it). */

export const TODAY = '2026-11-21';

export const line = (q: string, c: string, n = 'Oil', t: 1 | 2 = LINE_KIND.part): LineDraft => ({
  key: n + q + c,
  n,
  t,
  q,
  c,
});

/** A Due unit service with counters recorded, planned for 2026-11-25 in the fleet zone UTC+3 (tz 180). */
export const service = (patch: Partial<ServiceWire> = {}): ServiceWire =>
  serviceWire(
    {
      id: 7,
      uid: 3,
      f: 1,
      cid: 1,
      limit_date: Date.UTC(2026, 10, 25) / 1000 - 3 * 3600,
      current_mileage: 1000,
      current_engine_hours: 10,
      mileage: 160934.4,
      engine_hours: 12.5,
      notify_days: 3,
    },
    patch,
  );
