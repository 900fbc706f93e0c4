import { describe, expect, it } from 'vitest';
import { showChecklist, startSteps, trackerAddresses } from './gettingStarted.ts';

const none = { lmsg: null, pos: null };

describe('getting-started steps', () => {
  it('ticks nothing for an empty fleet with only the user in it', () => {
    const steps = startSteps({ units: [], intervals: 0, members: [{ id: 7 }], me: 7 });
    expect(steps).toEqual([
      { id: 'unit', done: false },
      { id: 'tracker', done: false },
      { id: 'interval', done: false },
      { id: 'colleague', done: false },
    ]);
    expect(showChecklist(steps)).toBe(true);
  });

  it('ticks each step from its own data', () => {
    const done = (facts: Parameters<typeof startSteps>[0]) =>
      startSteps(facts)
        .filter((s) => s.done)
        .map((s) => s.id);
    expect(done({ units: [none], intervals: 0, members: null, me: 1 })).toEqual(['unit']);
    expect(
      done({ units: [none, { lmsg: { t: 1, p: {} }, pos: null }], intervals: 0, members: null, me: 1 }),
    ).toEqual(['unit', 'tracker']);
    expect(done({ units: [{ lmsg: null, pos: { t: 1 } }], intervals: 2, members: null, me: 1 })).toEqual([
      'unit',
      'tracker',
      'interval',
    ]);
    // Someone besides the user on the access list; the user alone, or an unknown list, is not enough.
    expect(done({ units: [], intervals: 0, members: [{ id: 1 }, { id: 2 }], me: 1 })).toEqual(['colleague']);
    expect(done({ units: [], intervals: 0, members: [{ id: 2 }], me: 1 })).toEqual(['colleague']);
    expect(done({ units: [], intervals: 0, members: [{ id: 1 }], me: 1 })).toEqual([]);
  });

  it('goes away once every step is done', () => {
    const steps = startSteps({
      units: [{ lmsg: null, pos: { t: 1 } }],
      intervals: 1,
      members: [{ id: 2 }],
      me: 1,
    });
    expect(showChecklist(steps)).toBe(false);
  });
});

describe('tracker addresses', () => {
  it('builds the OsmAnd and Teltonika addresses from the public URL and the ports', () => {
    expect(trackerAddresses({ url: 'https://fleet.example.com/', osmand: 5055, teltonika: 5027 })).toEqual({
      osmandPort: 'http://fleet.example.com:5055',
      osmandHttp: 'https://fleet.example.com/api/ingest/osmand',
      teltonika: { host: 'fleet.example.com', port: 5027 },
    });
  });

  it('leaves out a port that is off and keeps a path of the public URL', () => {
    expect(trackerAddresses({ url: 'https://example.com/fleet', osmand: null, teltonika: null })).toEqual({
      osmandPort: null,
      osmandHttp: 'https://example.com/fleet/api/ingest/osmand',
      teltonika: null,
    });
  });

  it('brackets an IPv6 host in the URL but not for the configurator', () => {
    const a = trackerAddresses({ url: 'http://[2001:db8::1]:8080', osmand: 5055, teltonika: 5027 });
    expect(a.osmandPort).toBe('http://[2001:db8::1]:5055');
    expect(a.teltonika).toEqual({ host: '2001:db8::1', port: 5027 });
  });
});
