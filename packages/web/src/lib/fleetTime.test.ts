import { viewerOffsetMinutes } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { fleetTime } from './fleetTime.ts';

describe('fleetTime: one clock for the times of a fleet (docs/product.md)', () => {
  const t = Date.UTC(2026, 2, 4, 23, 30) / 1000;
  it("shows the fleet's clock and names its zone when the browser's differs", () => {
    const here = viewerOffsetMinutes(t);
    // A fleet on this process's offset: no zone named.
    const same = here & 0xffff;
    expect(fleetTime(t, same, { dateFormat: 'YYYY-MM-DD', timeFormat: 'HH:mm' })).not.toContain('UTC');
    // A fleet three hours east of this process: its own clock, its zone named.
    const east = (here + 180) & 0xffff;
    const local = new Date((t + (here + 180) * 60) * 1000).toISOString();
    const text = fleetTime(t, east, { dateFormat: 'YYYY-MM-DD', timeFormat: 'HH:mm' });
    expect(text.startsWith(`${local.slice(0, 10)} ${local.slice(11, 16)} (UTC`)).toBe(true);
  });
  it('uses the default formats for a user without settings', () => {
    expect(fleetTime(t, 0, {})).toMatch(/^05\.03\.2026|^04\.03\.2026/);
  });
});
