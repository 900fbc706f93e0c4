/**
 * Teltonika's TCP protocol, Codec 8 and Codec 8 Extended (DESIGN §3 "Telematics ingestion"), as
 * Teltonika publishes it: the IMEI handshake, AVL packets with their CRC-16/IBM, and the records' GPS and
 * IO elements. Pure: no I/O, so that the published sample packets are unit tested. The TCP server is
 * `server.ts`; what a record means to the counters is `reading.ts` beside this file.
 */

export const CODEC_8 = 0x08;
export const CODEC_8E = 0x8e;

/** Largest AVL data length taken (the devices send at most a few KB; more is not Teltonika's protocol). */
export const MAX_DATA_LENGTH = 64 * 1024;
/** An IMEI is 15 digits; some devices send 16 or 17 characters. More is no handshake. */
const MAX_IMEI_LENGTH = 32;
/** Preamble, data length; and the CRC after the data. */
const HEADER = 8;
const TRAILER = 4;

/** One IO element as received: its id and raw big-endian bytes (a fixed size, or NX's variable length). */
export interface IoElement {
  id: number;
  value: Buffer;
}

/** One AVL record: time, priority, the GPS element and the IO elements. */
export interface AvlRecord {
  /** Unix milliseconds. */
  timeMs: number;
  priority: number;
  /** Degrees (the wire's 1e-7 degree units divided out). */
  lon: number;
  lat: number;
  /** Metres above sea level. */
  altitude: number;
  /** Degrees from north. */
  angle: number;
  satellites: number;
  /** km/h. */
  speed: number;
  /** The IO id that caused the record, 0 when none. */
  eventId: number;
  io: IoElement[];
}

export type Frame =
  | { kind: 'imei'; imei: string }
  | { kind: 'avl'; codec: number; records: AvlRecord[] }
  /** A whole packet whose CRC does not match: not acknowledged, nothing of it applied. */
  | { kind: 'bad-crc' }
  /** A well-framed packet of another codec (12, 13, 14 commands; 16): ignored. */
  | { kind: 'ignored'; codec: number }
  /** The stream is not Teltonika's protocol (or a packet is inconsistent): the connection is closed. */
  | { kind: 'malformed'; reason: string };

/** CRC-16/IBM (also "ARC"): polynomial 0x8005 reflected (0xA001), initial value 0, no final xor. */
export function crc16Ibm(data: Buffer): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

/** The unsigned value of an IO element's bytes (up to 8; larger values lose precision past 2^53). */
export function ioNumber(value: Buffer): number {
  let n = 0;
  for (const byte of value) n = n * 256 + byte;
  return n;
}

class Truncated extends Error {}

/** Reads big-endian fields from a buffer, throwing `Truncated` past its end. */
class Cursor {
  constructor(
    private readonly buf: Buffer,
    public pos: number,
    private readonly end: number,
  ) {}

  private take(n: number): number {
    if (this.pos + n > this.end) throw new Truncated('record runs past the packet');
    const at = this.pos;
    this.pos += n;
    return at;
  }
  u8 = () => this.buf.readUInt8(this.take(1));
  u16 = () => this.buf.readUInt16BE(this.take(2));
  i16 = () => this.buf.readInt16BE(this.take(2));
  i32 = () => this.buf.readInt32BE(this.take(4));
  u64 = () => Number(this.buf.readBigUInt64BE(this.take(8)));
  bytes = (n: number) => {
    const at = this.take(n);
    return Buffer.from(this.buf.subarray(at, at + n));
  };
}

/** Codec 8 counts and ids are one byte, Codec 8 Extended's two; only 8E has the NX group. */
function readRecord(c: Cursor, extended: boolean): AvlRecord {
  const count = extended ? c.u16 : c.u8;
  const timeMs = c.u64();
  const priority = c.u8();
  const lon = c.i32() / 1e7;
  const lat = c.i32() / 1e7;
  const altitude = c.i16();
  const angle = c.u16();
  const satellites = c.u8();
  const speed = c.u16();
  const eventId = count();
  count(); // the total of IO elements: the groups below say it again
  const io: IoElement[] = [];
  for (const size of [1, 2, 4, 8]) {
    const n = count();
    for (let k = 0; k < n; k++) io.push({ id: count(), value: c.bytes(size) });
  }
  if (extended) {
    const nx = c.u16();
    for (let k = 0; k < nx; k++) {
      const id = c.u16();
      io.push({ id, value: c.bytes(c.u16()) });
    }
  }
  return { timeMs, priority, lon, lat, altitude, angle, satellites, speed, eventId, io };
}

/**
 * Decodes one whole AVL packet (preamble to CRC). A wrong CRC is `bad-crc`; a codec other than 8 and
 * 8E is `ignored`; counts that disagree or records that do not fill the data exactly are `malformed`.
 */
export function decodeAvlPacket(packet: Buffer): Frame {
  if (packet.length < HEADER + 3 + TRAILER) return { kind: 'malformed', reason: 'packet too short' };
  const length = packet.readUInt32BE(4);
  if (packet.readUInt32BE(0) !== 0 || packet.length !== HEADER + length + TRAILER)
    return { kind: 'malformed', reason: 'not an AVL packet' };
  const data = packet.subarray(HEADER, HEADER + length);
  if (packet.readUInt32BE(HEADER + length) !== crc16Ibm(data)) return { kind: 'bad-crc' };
  const codec = data[0]!;
  if (codec !== CODEC_8 && codec !== CODEC_8E) return { kind: 'ignored', codec };
  const count = data[1]!;
  if (data[length - 1] !== count) return { kind: 'malformed', reason: 'record counts differ' };
  const cursor = new Cursor(data, 2, length - 1);
  const records: AvlRecord[] = [];
  try {
    for (let k = 0; k < count; k++) records.push(readRecord(cursor, codec === CODEC_8E));
  } catch (err) {
    if (err instanceof Truncated) return { kind: 'malformed', reason: err.message };
    throw err;
  }
  if (cursor.pos !== length - 1) return { kind: 'malformed', reason: 'records do not fill the packet' };
  return { kind: 'avl', codec, records };
}

/**
 * Splits a connection's byte stream into frames, whatever the TCP chunks: a chunk may hold part of a
 * frame or several. The first frame is the IMEI handshake (2-byte length, ASCII), every later one an
 * AVL packet (four zero bytes, 4-byte length, data, 4-byte CRC). After a `malformed` frame the stream
 * is not read further.
 */
export class FrameSplitter {
  private pending: Buffer = Buffer.alloc(0);
  private handshaken = false;
  private broken = false;

  /** The frames completed by `chunk`, in order. */
  push(chunk: Buffer): Frame[] {
    if (this.broken) return [];
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: Frame[] = [];
    for (;;) {
      const frame = this.next();
      if (frame === undefined) break;
      frames.push(frame);
      if (frame.kind === 'malformed') {
        this.broken = true;
        this.pending = Buffer.alloc(0);
        break;
      }
    }
    return frames;
  }

  private next(): Frame | undefined {
    const buf = this.pending;
    if (!this.handshaken) {
      if (buf.length < 2) return undefined;
      const n = buf.readUInt16BE(0);
      if (n === 0 || n > MAX_IMEI_LENGTH) return { kind: 'malformed', reason: 'not an IMEI handshake' };
      if (buf.length < 2 + n) return undefined;
      const imei = buf.toString('latin1', 2, 2 + n);
      // Printable ASCII only: a device identifier, not binary.
      if (!/^[\x21-\x7e]+$/.test(imei)) return { kind: 'malformed', reason: 'not an IMEI handshake' };
      this.pending = buf.subarray(2 + n);
      this.handshaken = true;
      return { kind: 'imei', imei };
    }
    if (buf.length < HEADER) {
      // Four zero bytes start every packet: anything else is known to be wrong before the header is whole.
      if (buf.subarray(0, 4).some((b) => b !== 0)) return { kind: 'malformed', reason: 'not an AVL packet' };
      return undefined;
    }
    if (buf.readUInt32BE(0) !== 0) return { kind: 'malformed', reason: 'not an AVL packet' };
    const length = buf.readUInt32BE(4);
    if (length < 3 || length > MAX_DATA_LENGTH) return { kind: 'malformed', reason: 'bad AVL data length' };
    const total = HEADER + length + TRAILER;
    if (buf.length < total) return undefined;
    this.pending = buf.subarray(total);
    return decodeAvlPacket(buf.subarray(0, total));
  }
}

/** The handshake a device sends: 2-byte length, then the IMEI in ASCII. */
export function encodeImei(imei: string): Buffer {
  const text = Buffer.from(imei, 'latin1');
  const out = Buffer.alloc(2 + text.length);
  out.writeUInt16BE(text.length, 0);
  text.copy(out, 2);
  return out;
}

/** The acknowledgement of an AVL packet: the number of records taken, 4 bytes. */
export function encodeAck(count: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(count, 0);
  return out;
}

/** An IO element to encode: a number in `size` bytes (default: the smallest that holds it), or bytes. */
export interface IoInput {
  id: number;
  value: number | bigint | Buffer;
  size?: 1 | 2 | 4 | 8;
}

export interface RecordInput {
  timeMs: number;
  priority?: number;
  lat: number;
  lon: number;
  altitude?: number;
  angle?: number;
  satellites?: number;
  speed?: number;
  eventId?: number;
  io?: IoInput[];
}

const FIXED_SIZES = [1, 2, 4, 8] as const;

function ioBytes(e: IoInput): Buffer {
  if (Buffer.isBuffer(e.value)) return e.value;
  const v = BigInt(e.value);
  const size = e.size ?? FIXED_SIZES.find((s) => v < 1n << BigInt(8 * s)) ?? 8;
  const out = Buffer.alloc(size);
  for (let k = size - 1, rest = v; k >= 0; k--, rest >>= 8n) out[k] = Number(rest & 0xffn);
  return out;
}

/**
 * Builds a valid AVL packet with its CRC (for tests and the simulator). In Codec 8 every value must be
 * 1, 2, 4 or 8 bytes; in 8E other lengths go to the NX group.
 */
export function encodeAvlPacket(codec: typeof CODEC_8 | typeof CODEC_8E, records: RecordInput[]): Buffer {
  const extended = codec === CODEC_8E;
  const parts: Buffer[] = [];
  const u = (n: number, size: number) => {
    const b = Buffer.alloc(size);
    b.writeUIntBE(n, 0, size);
    parts.push(b);
  };
  const count = (n: number) => u(n, extended ? 2 : 1);
  u(codec, 1);
  u(records.length, 1);
  for (const r of records) {
    const time = Buffer.alloc(8);
    time.writeBigUInt64BE(BigInt(r.timeMs));
    parts.push(time);
    u(r.priority ?? 0, 1);
    const gps = Buffer.alloc(15);
    gps.writeInt32BE(Math.round(r.lon * 1e7), 0);
    gps.writeInt32BE(Math.round(r.lat * 1e7), 4);
    gps.writeInt16BE(Math.round(r.altitude ?? 0), 8);
    gps.writeUInt16BE(Math.round(r.angle ?? 0), 10);
    gps.writeUInt8(r.satellites ?? 8, 12);
    gps.writeUInt16BE(Math.round(r.speed ?? 0), 13);
    parts.push(gps);
    const elements = (r.io ?? []).map((e) => ({ id: e.id, value: ioBytes(e) }));
    const groups = FIXED_SIZES.map((s) => elements.filter((e) => e.value.length === s));
    const nx = elements.filter((e) => !(FIXED_SIZES as readonly number[]).includes(e.value.length));
    if (nx.length > 0 && !extended) throw new Error('Codec 8 carries 1, 2, 4 or 8 byte values only');
    count(r.eventId ?? 0);
    count(elements.length);
    for (const group of groups) {
      count(group.length);
      for (const e of group) {
        count(e.id);
        parts.push(e.value);
      }
    }
    if (extended) {
      u(nx.length, 2);
      for (const e of nx) {
        u(e.id, 2);
        u(e.value.length, 2);
        parts.push(e.value);
      }
    }
  }
  u(records.length, 1);
  const data = Buffer.concat(parts);
  const head = Buffer.alloc(HEADER);
  head.writeUInt32BE(data.length, 4);
  return Buffer.concat([head, data, encodeAck(crc16Ibm(data))]);
}
