import type { Insertable } from 'kysely';
import type { CounterCorrectionTable, MeterReadingTable } from '../../db/schema.js';
import { round3, shiftOf } from './records.js';
import { type Doc, membersByName, type Run } from './run.js';

/**
 * The meter history of the imported units (import.ts; modules/meter): readings (refusals with their
 * reason, baselines, daily samples) and hand corrections. They are history only: the unit's counters
 * come from the document's units. The document holds actual counters; the history stores totals, so
 * each value is shifted back by the target unit's base and pulled history (records.ts `shiftOf`). Who
 * accepted or corrected is the member of the fleet with that login, else the importer. A row that the
 * unit's history already holds (a second import of the same document) is skipped.
 */

const CHUNK = 500;

async function insertChunks<T>(rows: T[], insert: (part: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

export async function importMeter(run: Run, doc: Doc) {
  if (doc.meter_readings.length === 0 && doc.counter_corrections.length === 0) return;
  const { trx, fleet, actor } = run;
  const targets = [...new Set(run.maps.units.values())];
  const shifts = new Map(
    (
      await trx
        .selectFrom('units')
        .select(['id', 'base_mileage', 'base_engine_hours', 'pulled_mileage', 'pulled_engine_hours'])
        .where('id', 'in', targets)
        .execute()
    ).map((u) => [u.id, shiftOf(u)]),
  );
  const members = await membersByName(run);
  const userOf = (name: string | null) => (name === null ? null : (members.get(name) ?? actor.userId));
  const existing = [...run.existingUnits];
  const total = (v: number | null, by: number) => (v === null ? null : round3(v - by));

  const seenReadings = new Set(
    existing.length
      ? (
          await trx
            .selectFrom('meter_readings')
            .select(['unit_id', 'tm_ms', 'status'])
            .where('unit_id', 'in', existing)
            .execute()
        ).map((r) => `${r.unit_id}:${Number(r.tm_ms)}:${r.status}`)
      : [],
  );
  const readings: Insertable<MeterReadingTable>[] = [];
  for (const r of doc.meter_readings) {
    const unit = run.maps.units.get(r.unit_id)!;
    const key = `${unit}:${r.tm_ms}:${r.status}`;
    if (seenReadings.has(key)) {
      run.skipped.meter_readings++;
      continue;
    }
    seenReadings.add(key);
    const shift = shifts.get(unit)!;
    readings.push({
      fleet_id: fleet.id,
      unit_id: unit,
      tm_ms: r.tm_ms,
      received_at: r.received_at,
      source: r.source,
      status: r.status,
      mileage: total(r.mileage, shift.mileage),
      engine_hours: total(r.engine_hours, shift.engineHours),
      old_mileage: total(r.old_mileage, shift.mileage),
      old_engine_hours: total(r.old_engine_hours, shift.engineHours),
      reason: r.reason,
      payload: r.payload,
      device_id: r.device_id,
      accepted_by: userOf(r.accepted_by),
      accepted_at: r.accepted_at,
    });
  }
  await insertChunks(readings, (part) => trx.insertInto('meter_readings').values(part).execute());
  run.created.meter_readings += readings.length;

  const seenCorrections = new Set(
    existing.length
      ? (
          await trx
            .selectFrom('counter_corrections')
            .select(['unit_id', 'tm', 'field', 'new_value'])
            .where('unit_id', 'in', existing)
            .execute()
        ).map((c) => `${c.unit_id}:${Number(c.tm)}:${c.field}:${round3(c.new_value)}`)
      : [],
  );
  const corrections: Insertable<CounterCorrectionTable>[] = [];
  for (const c of doc.counter_corrections) {
    const unit = run.maps.units.get(c.unit_id)!;
    const shift = shifts.get(unit)!;
    const by = c.field === 'mileage' ? shift.mileage : shift.engineHours;
    const next = round3(c.new_value - by);
    const key = `${unit}:${c.tm}:${c.field}:${next}`;
    if (seenCorrections.has(key)) {
      run.skipped.counter_corrections++;
      continue;
    }
    seenCorrections.add(key);
    corrections.push({
      unit_id: unit,
      user_id: userOf(c.by) ?? actor.userId,
      tm: c.tm,
      field: c.field,
      old_value: round3(c.old_value - by),
      new_value: next,
    });
  }
  await insertChunks(corrections, (part) => trx.insertInto('counter_corrections').values(part).execute());
  run.created.counter_corrections += corrections.length;
}
