import type { AppContext } from '../../context.js';
import { type Reading, readingMs } from '../reading.js';
import type { AvlRecord } from './codec.js';
import { hasFix, type IoMapping, recordToReading } from './reading.js';

/**
 * One AVL packet of a unit made ready for the store (DESIGN §3): its records in time order, a record
 * without a GPS fix placed where the unit last was, and records the unit already has left out. A tracker
 * resends every record it did not see acknowledged (the acknowledgement may have been lost after the
 * commit): such a record is taken once, the resend is acknowledged but not applied again. The counter
 * rules would refuse it as out of order anyway (telematics/rules.ts); leaving it out keeps those
 * refusals, which are no fault of the device, out of the unit's meter history.
 */

/** Coordinates as stored (double precision) compare exactly; a little slack for other paths. */
const SAME_PLACE = 1e-9;

export interface PreparedPacket {
  readings: Reading[];
  /** Records already taken (a resend) or without any position to place them at. */
  skipped: number;
}

export async function preparePacket(
  ctx: AppContext,
  unitId: number,
  deviceId: string,
  records: AvlRecord[],
  mapping: IoMapping,
): Promise<PreparedPacket> {
  // Time order: a packet of several records is applied oldest first (a stable sort keeps equal times).
  const sorted = [...records].sort((a, b) => a.timeMs - b.timeMs);
  if (sorted.length === 0) return { readings: [], skipped: 0 };
  const db = ctx.db.kysely;
  // The unit, and the packet's records it refused before (a resend after a lost acknowledgement is not
  // refused into the history again): one statement, a row per refused record (one without any).
  const times = [...new Set(sorted.map((r) => r.timeMs))];
  const rows = await db
    .selectFrom('units')
    .leftJoin('meter_readings', (join) =>
      join
        .onRef('meter_readings.unit_id', '=', 'units.id')
        .on('meter_readings.device_id', '=', deviceId)
        .on('meter_readings.status', '=', 'refused')
        .on('meter_readings.tm_ms', 'in', times),
    )
    .select(['units.lat', 'units.lon', 'units.last_ms', 'units.last_time', 'meter_readings.tm_ms'])
    .where('units.id', '=', unitId)
    .execute();
  const unit = rows[0];
  const refused = new Set(rows.flatMap((r) => (r.tm_ms === null ? [] : [Number(r.tm_ms)])));
  const lastMs = unit?.last_ms ?? (unit?.last_time != null ? unit.last_time * 1000 : null);

  // What the unit has of the packet's older times: positions (accepted records).
  const older = sorted.filter((r) => lastMs !== null && r.timeMs <= lastMs);
  const seconds = [...new Set(older.map((r) => Math.floor(r.timeMs / 1000)))];
  const positions =
    seconds.length === 0
      ? []
      : await db
          .selectFrom('positions')
          .select(['tm', 'lat', 'lon'])
          .where('unit_id', '=', unitId)
          .where('tm', 'in', seconds)
          .execute();

  let place = unit?.lat != null && unit.lon != null ? { lat: unit.lat, lon: unit.lon } : null;
  const readings: Reading[] = [];
  let skipped = 0;
  for (const record of sorted) {
    const reading = recordToReading(deviceId, record, mapping);
    if (hasFix(record)) place = { lat: record.lat, lon: record.lon };
    else if (place) Object.assign(reading, place, { speed: null, course: null, altitude: null });
    else {
      // Nowhere to place it: a position at 0°, 0° would count a jump to the next real one.
      skipped++;
      continue;
    }
    if (
      refused.has(readingMs(reading)) ||
      (taken(reading, lastMs) && stored(reading, positions, hasFix(record)))
    ) {
      skipped++;
      continue;
    }
    readings.push(reading);
  }
  return { readings, skipped };
}

/**
 * Not newer than the unit's last message. A record at that very millisecond and at a stored place is the
 * resend of one taken (a tracker stamps each record once): left to the rules it would be refused as out
 * of order where a packet carried several records of one moment, and the refusal kept in the history.
 */
const taken = (reading: Reading, lastMs: number | null) => lastMs !== null && readingMs(reading) <= lastMs;

/**
 * A position of the record's second at its place; a record without a GPS fix was placed where the unit
 * was when it was first taken, which a resend cannot know: any position of its second stands for it.
 */
const stored = (reading: Reading, positions: { tm: number; lat: number; lon: number }[], fix: boolean) =>
  positions.some(
    (p) =>
      Number(p.tm) === reading.time &&
      (!fix || (Math.abs(p.lat - reading.lat) < SAME_PLACE && Math.abs(p.lon - reading.lon) < SAME_PLACE)),
  );
