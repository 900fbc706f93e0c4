import { describe, expect, it } from 'vitest';
import { PayloadPacker } from './pg-bus.js';

/** What a listener makes of a payload (pg-bus.ts `deliver`): one event, or the events of a pack. */
const unpack = (payload: string): unknown[] => {
  const parsed = JSON.parse(payload) as unknown;
  return Array.isArray(parsed) ? parsed : [parsed];
};

describe('NOTIFY payload packing (events/pg-bus.ts)', () => {
  it('packs texts in order into payloads within the byte limit, multi-byte text counted in bytes', () => {
    const limit = 1000;
    const packer = new PayloadPacker(limit);
    const events = Array.from({ length: 300 }, (_, n) => ({
      n,
      text: (n % 3 === 0 ? 'é' : 'x').repeat((n * 37) % 480),
    }));
    for (const e of events) expect(packer.add(JSON.stringify(e))).toBe(true);
    const payloads = packer.take();
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(limit);
    expect(payloads.flatMap(unpack)).toEqual(events);
    // Fewer notifications than events, and the packer starts empty again.
    expect(payloads.length).toBeLessThan(events.length / 2);
    expect(packer.take()).toEqual([]);
  });

  it('sends a lone event as itself, fills a pack exactly to the limit, and refuses one too large', () => {
    const packer = new PayloadPacker(20);
    expect(packer.add('{"a":"123456789"}')).toBe(true);
    expect(packer.take()).toEqual(['{"a":"123456789"}']);
    // [ + 8 bytes + , + 8 bytes + ] = 19 bytes; one more byte would not fit beside them.
    expect(packer.add('{"a":12}')).toBe(true);
    expect(packer.add('{"b":34}')).toBe(true);
    expect(packer.add('{"c":5}')).toBe(true);
    expect(packer.add('{"d":"0123456789abcdef"}')).toBe(false);
    expect(packer.take()).toEqual(['[{"a":12},{"b":34}]', '{"c":5}']);
  });
});
