import { describe, expect, it } from 'vitest';
import { type AvlRecord, CODEC_8E, decodeAvlPacket, encodeAvlPacket, type RecordInput } from './codec.js';
import { faultCodesOf, recordToReading } from './reading.js';

const recordOf = (input: RecordInput): AvlRecord => {
  const frame = decodeAvlPacket(encodeAvlPacket(CODEC_8E, [input]));
  if (frame.kind !== 'avl') throw new Error(frame.kind);
  return frame.records[0]!;
};

describe('Teltonika record → reading (DESIGN §3)', () => {
  it('takes the GPS element, IO 16 as the odometer in metres and IO 239 as the ignition', () => {
    const reading = recordToReading(
      '356307042441013',
      recordOf({
        timeMs: 1_700_000_000_250,
        lat: 53.9006011,
        lon: 27.558972,
        altitude: 231,
        angle: 90,
        satellites: 9,
        speed: 64,
        io: [
          { id: 16, value: 1_234_567 },
          { id: 239, value: 1 },
          { id: 66, value: 12_750 },
          { id: 387, value: Buffer.from('abc', 'latin1') }, // NX: 3 bytes
        ],
      }),
    );
    expect(reading).toMatchObject({
      deviceId: '356307042441013',
      time: 1_700_000_000,
      timeMs: 1_700_000_000_250,
      lat: 53.9006011,
      lon: 27.558972,
      altitude: 231,
      course: 90,
      speed: 64,
      odometerKm: 1234.567,
      ignition: true,
      hours: null,
      params: { sat: 9, io66: 12_750, io387: '616263' },
    });
    expect(reading.params).not.toHaveProperty('io16');
    expect(reading.params).not.toHaveProperty('io239');
    expect(reading).not.toHaveProperty('faultCodes');
  });

  it('leaves counters and ignition unknown when the record does not carry them', () => {
    const reading = recordToReading(
      'x',
      recordOf({ timeMs: 1000, lat: 1, lon: 2, io: [{ id: 239, value: 0 }] }),
    );
    expect(reading).toMatchObject({ odometerKm: null, hours: null, ignition: false });
    expect(recordToReading('x', recordOf({ timeMs: 1000, lat: 1, lon: 2 })).ignition).toBeNull();
  });

  it('reads IO 281 as fault codes, split on commas and spaces', () => {
    const reading = recordToReading(
      'x',
      recordOf({ timeMs: 1000, lat: 1, lon: 2, io: [{ id: 281, value: Buffer.from('P0300, P0171 U0100') }] }),
    );
    expect(reading.faultCodes).toEqual(['P0300', 'P0171', 'U0100']);
    expect(reading.params).not.toHaveProperty('io281');
    expect(faultCodesOf(Buffer.from('P0420\0\0\0'))).toEqual(['P0420']);
    expect(faultCodesOf(Buffer.alloc(0))).toEqual([]);
  });

  it('takes mapped IO ids for mileage and engine hours, in their units, over IO 16', () => {
    const record = recordOf({
      timeMs: 1000,
      lat: 1,
      lon: 2,
      io: [
        { id: 16, value: 5_000_000 },
        { id: 87, value: 812_345 }, // CAN mileage, metres
        { id: 103, value: 36_000 }, // engine worktime, seconds
      ],
    });
    const reading = recordToReading('x', record, {
      mileage: { id: 87, unit: 'm' },
      hours: { id: 103, unit: 's' },
    });
    expect(reading).toMatchObject({ odometerKm: 812.345, hours: 10 });
    expect(reading.params).not.toHaveProperty('io87');
    expect(reading.params).not.toHaveProperty('io103');
    const km = recordToReading('x', record, {
      mileage: { id: 87, unit: 'km' },
      hours: { id: 103, unit: 'h' },
    });
    expect(km).toMatchObject({ odometerKm: 812_345, hours: 36_000 });
    // A mapped id the record lacks: IO 16 still counts, hours stay unknown.
    const absent = recordToReading('x', record, {
      mileage: { id: 999, unit: 'm' },
      hours: { id: 998, unit: 's' },
    });
    expect(absent).toMatchObject({ odometerKm: 5000, hours: null });
  });
});
