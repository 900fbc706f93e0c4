import { describe, expect, it } from 'vitest';
import {
  CODEC_8,
  CODEC_8E,
  crc16Ibm,
  decodeAvlPacket,
  encodeAck,
  encodeAvlPacket,
  encodeImei,
  type Frame,
  FrameSplitter,
  ioNumber,
} from './codec.js';

/*
 * The sample packets Teltonika publishes with its protocol description ("Teltonika Data Sending
 * Protocols": Codec 8 examples 1–3, Codec 8 Extended; and the Codec 8 Extended example with a
 * variable-length element of an earlier revision of the same page).
 */
const CODEC8_ONE =
  '000000000000003608010000016B40D8EA30010000000000000000000000000000000105021503010101425E0F01F10000601A014E0000000000000000010000C7CF';
const CODEC8_TWO =
  '000000000000002808010000016B40D9AD80010000000000000000000000000000000103021503010101425E100000010000F22A';
const CODEC8_TWO_RECORDS =
  '000000000000004308020000016B40D57B480100000000000000000000000000000001010101000000000000016B40D5C198010000000000000000000000000000000101010101000000020000252C';
const CODEC8E =
  '000000000000004A8E010000016B412CEE000100000000000000000000000000000000010005000100010100010011001D00010010015E2C880002000B000000003544C87A000E000000001DD7E06A00000100002994';
const CODEC8E_NX =
  '000000000000005F8E010000015FBA40B620000F0DCDE420959D30008A000006000000000006000100EF00000100' +
  '11001E000100100000CBDF0002000B000000003544C875000E0000000029BFE4D1000101000011' +
  '0000000000000000000000000000000000010000D153';
const IMEI_HANDSHAKE = '000F333536333037303432343431303133';

const hex = (h: string) => Buffer.from(h, 'hex');
const flip = (b: Buffer, at: number, bits: number) => b.writeUInt8(b.readUInt8(at) ^ bits, at);
const avl = (frame: Frame) => {
  if (frame.kind !== 'avl') throw new Error(`expected an AVL frame, got ${JSON.stringify(frame)}`);
  return frame;
};
const ioOf = (frame: Frame, k = 0) =>
  Object.fromEntries(avl(frame).records[k]!.io.map((e) => [e.id, ioNumber(e.value)]));

describe('Teltonika CRC-16/IBM', () => {
  it('matches the check value of CRC-16/ARC ("123456789" → 0xBB3D)', () => {
    expect(crc16Ibm(Buffer.from('123456789'))).toBe(0xbb3d);
  });
});

describe('Teltonika Codec 8 published samples', () => {
  it('decodes example 1: one record, IO groups of 1, 2, 4 and 8 bytes', () => {
    const frame = decodeAvlPacket(hex(CODEC8_ONE));
    const { codec, records } = avl(frame);
    expect(codec).toBe(CODEC_8);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      timeMs: 1_560_161_086_000,
      priority: 1,
      lat: 0,
      lon: 0,
      altitude: 0,
      angle: 0,
      satellites: 0,
      speed: 0,
      eventId: 1,
    });
    expect(ioOf(frame)).toEqual({ 21: 3, 1: 1, 66: 24_079, 241: 24_602, 78: 0 });
  });

  it('decodes example 2: no 4- and 8-byte elements', () => {
    const frame = decodeAvlPacket(hex(CODEC8_TWO));
    expect(avl(frame).records[0]!.timeMs).toBe(1_560_161_136_000);
    expect(ioOf(frame)).toEqual({ 21: 3, 1: 1, 66: 24_080 });
  });

  it('decodes example 3: two records in one packet', () => {
    const frame = decodeAvlPacket(hex(CODEC8_TWO_RECORDS));
    expect(avl(frame).records.map((r) => r.timeMs)).toEqual([1_560_160_861_000, 1_560_160_879_000]);
    expect(ioOf(frame, 0)).toEqual({ 1: 0 });
    expect(ioOf(frame, 1)).toEqual({ 1: 1 });
  });
});

describe('Teltonika Codec 8 Extended published samples', () => {
  it('decodes 2-byte ids and counts', () => {
    const frame = decodeAvlPacket(hex(CODEC8E));
    const { codec, records } = avl(frame);
    expect(codec).toBe(CODEC_8E);
    expect(records[0]).toMatchObject({ timeMs: 1_560_166_592_000, priority: 1, eventId: 1 });
    expect(ioOf(frame)).toEqual({ 1: 1, 17: 0x1d, 16: 22_949_000, 11: 0x3544c87a, 14: 0x1dd7e06a });
  });

  it('decodes a variable-length (NX) element and the GPS element', () => {
    const frame = decodeAvlPacket(hex(CODEC8E_NX));
    const record = avl(frame).records[0]!;
    expect(record).toMatchObject({
      timeMs: 1_510_658_324_000,
      priority: 0,
      lon: 25.2562916,
      lat: 54.6676016,
      altitude: 138,
      angle: 0,
      satellites: 6,
      speed: 0,
      eventId: 0,
    });
    expect(record.io.map((e) => e.id)).toEqual([239, 17, 16, 11, 14, 256]);
    const nx = record.io.find((e) => e.id === 256)!;
    expect(nx.value).toEqual(Buffer.alloc(17));
    expect(ioOf(frame)[16]).toBe(52_191);
  });
});

describe('Teltonika packet checks', () => {
  it('reports a wrong CRC as bad-crc and applies nothing', () => {
    const packet = hex(CODEC8_ONE);
    flip(packet, packet.length - 1, 0xff);
    expect(decodeAvlPacket(packet)).toEqual({ kind: 'bad-crc' });
    const data = hex(CODEC8_ONE);
    flip(data, 20, 0x01); // a changed coordinate with the old CRC
    expect(decodeAvlPacket(data)).toEqual({ kind: 'bad-crc' });
  });

  it('refuses differing record counts and records that do not fill the data', () => {
    const counts = encodeAvlPacket(CODEC_8, [{ timeMs: 1000, lat: 1, lon: 2 }]);
    counts[counts.length - 5] = 2; // the second count
    const fixed = Buffer.concat([counts.subarray(0, -4), encodeAck(crc16Ibm(counts.subarray(8, -4)))]);
    expect(decodeAvlPacket(fixed)).toMatchObject({ kind: 'malformed' });
  });

  it('ignores other codecs politely (a Codec 12 command reply)', () => {
    const data = Buffer.from([0x0c, 0x01, 0x06, 0, 0, 0, 2, 0x4f, 0x4b, 0x01]);
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 4);
    const packet = Buffer.concat([head, data, encodeAck(crc16Ibm(data))]);
    expect(decodeAvlPacket(packet)).toEqual({ kind: 'ignored', codec: 0x0c });
  });
});

describe('Teltonika stream splitting', () => {
  const stream = Buffer.concat([hex(IMEI_HANDSHAKE), hex(CODEC8_ONE), hex(CODEC8E), hex(CODEC8_TWO_RECORDS)]);
  const kinds = (frames: Frame[]) =>
    frames.map((f) => (f.kind === 'avl' ? `avl ${f.records.length}` : f.kind));

  it('reads the IMEI handshake', () => {
    expect(new FrameSplitter().push(hex(IMEI_HANDSHAKE))).toEqual([
      { kind: 'imei', imei: '356307042441013' },
    ]);
    expect(encodeImei('356307042441013')).toEqual(hex(IMEI_HANDSHAKE));
  });

  it('takes frames coalesced in one chunk', () => {
    expect(kinds(new FrameSplitter().push(stream))).toEqual(['imei', 'avl 1', 'avl 1', 'avl 2']);
  });

  it('takes frames split at every byte', () => {
    const splitter = new FrameSplitter();
    const frames: Frame[] = [];
    for (let k = 0; k < stream.length; k++) frames.push(...splitter.push(stream.subarray(k, k + 1)));
    expect(kinds(frames)).toEqual(['imei', 'avl 1', 'avl 1', 'avl 2']);
    expect(frames[3]).toEqual(decodeAvlPacket(hex(CODEC8_TWO_RECORDS)));
  });

  it('takes frames split at odd places across chunks', () => {
    const splitter = new FrameSplitter();
    const cuts = [1, 5, 17, 30, 61, 62, 100, 160, stream.length];
    const frames: Frame[] = [];
    let from = 0;
    for (const to of cuts) {
      frames.push(...splitter.push(stream.subarray(from, to)));
      from = to;
    }
    expect(kinds(frames)).toEqual(['imei', 'avl 1', 'avl 1', 'avl 2']);
  });

  it('keeps a bad-CRC packet to itself: the next packet still decodes', () => {
    const bad = hex(CODEC8_ONE);
    flip(bad, bad.length - 2, 0x10);
    const frames = new FrameSplitter().push(Buffer.concat([hex(IMEI_HANDSHAKE), bad, hex(CODEC8_TWO)]));
    expect(kinds(frames)).toEqual(['imei', 'bad-crc', 'avl 1']);
  });

  it('stops at a stream that is not the protocol', () => {
    const splitter = new FrameSplitter();
    expect(kinds(splitter.push(Buffer.from('GET / HTTP/1.1\r\n\r\n')))).toEqual(['malformed']);
    expect(splitter.push(hex(CODEC8_ONE))).toEqual([]);
    const after = new FrameSplitter();
    after.push(hex(IMEI_HANDSHAKE));
    expect(kinds(after.push(Buffer.from([0, 0, 1, 0])))).toEqual(['malformed']);
    const huge = new FrameSplitter();
    huge.push(hex(IMEI_HANDSHAKE));
    expect(kinds(huge.push(hex('00000000FFFFFFFF')))).toEqual(['malformed']);
  });
});

describe('Teltonika encoder', () => {
  it('rebuilds the published Codec 8 Extended sample byte for byte', () => {
    const packet = encodeAvlPacket(CODEC_8E, [
      {
        timeMs: 1_560_166_592_000,
        priority: 1,
        lat: 0,
        lon: 0,
        satellites: 0,
        eventId: 1,
        io: [
          { id: 1, value: 1 },
          { id: 17, value: 0x1d, size: 2 },
          { id: 16, value: 22_949_000 },
          { id: 11, value: 0x3544c87a, size: 8 },
          { id: 14, value: 0x1dd7e06a, size: 8 },
        ],
      },
    ]);
    expect(packet.toString('hex').toUpperCase()).toBe(CODEC8E);
  });

  it('round-trips records of both codecs, NX values and negative coordinates included', () => {
    const records = [
      {
        timeMs: 1_700_000_000_123,
        priority: 2,
        lat: -33.8688197,
        lon: 151.2092955,
        altitude: -12,
        angle: 359,
        satellites: 11,
        speed: 87,
        eventId: 239,
        io: [
          { id: 239, value: 1 },
          { id: 16, value: 123_456_789 },
          { id: 66, value: 12_800 },
          { id: 78, value: 2n ** 40n },
        ],
      },
      { timeMs: 1_700_000_001_000, lat: 53.9, lon: 27.5667, io: [] },
    ];
    for (const codec of [CODEC_8, CODEC_8E] as const) {
      const { records: back } = avl(decodeAvlPacket(encodeAvlPacket(codec, records)));
      expect(back).toHaveLength(2);
      expect(back[0]).toMatchObject({ ...records[0], io: expect.any(Array) });
      expect(Object.fromEntries(back[0]!.io.map((e) => [e.id, ioNumber(e.value)]))).toEqual({
        239: 1,
        16: 123_456_789,
        66: 12_800,
        78: 2 ** 40,
      });
      expect(back[1]).toMatchObject({ timeMs: 1_700_000_001_000, lat: 53.9, lon: 27.5667, io: [] });
    }
    const nx = encodeAvlPacket(CODEC_8E, [
      { timeMs: 1000, lat: 1, lon: 1, io: [{ id: 281, value: Buffer.from('P0300,P0171') }] },
    ]);
    expect(avl(decodeAvlPacket(nx)).records[0]!.io).toEqual([{ id: 281, value: Buffer.from('P0300,P0171') }]);
    expect(() =>
      encodeAvlPacket(CODEC_8, [{ timeMs: 1, lat: 0, lon: 0, io: [{ id: 1, value: Buffer.from('abc') }] }]),
    ).toThrow();
  });
});
