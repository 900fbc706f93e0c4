import {
  type MeterEntryWire,
  type MeterSource,
  type MeterState,
  meterSource,
  meterState,
} from '@fleetkeep/core';
import { round3 } from '../fleets/mappers.js';

/** Rows of the meter history (migration 016, counter_corrections) → core `MeterEntryWire`. */

export interface ReadingRow {
  id: number;
  tm_ms: number;
  source: string;
  status: string;
  mileage: number | null;
  engine_hours: number | null;
  old_mileage: number | null;
  old_engine_hours: number | null;
  shift_mileage: number | null;
  shift_engine_hours: number | null;
  reason: string | null;
  accepted_by: number | null;
  accepted_at: number | null;
  by_name: string | null;
  by_full_name: string | null;
  voided_at: number | null;
  voided_by: number | null;
  void_reason: string | null;
  void_auto: number;
  void_name: string | null;
  void_full_name: string | null;
}

export interface CorrectionRow {
  id: number;
  tm: number;
  field: string;
  old_value: number;
  new_value: number;
  user_id: number;
  by_name: string | null;
  by_full_name: string | null;
}

const SOURCES = new Set<string>(meterSource.options);
const STATES = new Set<string>(meterState.options);

const n3 = (v: number | null) => (v === null ? null : round3(v));
const person = (id: number | null, name: string | null, fullName: string | null) =>
  id === null ? null : { id, nm: fullName || name || `#${id}` };

export function readingToWire(r: ReadingRow): MeterEntryWire {
  return {
    id: r.id,
    kind: 'reading',
    tm: Number(r.tm_ms),
    src: SOURCES.has(r.source) ? (r.source as MeterSource) : 'device',
    cnm: n3(r.mileage),
    cneh: n3(r.engine_hours),
    old_cnm: n3(r.old_mileage),
    old_cneh: n3(r.old_engine_hours),
    shift_cnm: n3(r.shift_mileage),
    shift_cneh: n3(r.shift_engine_hours),
    st: STATES.has(r.status) ? (r.status as MeterState) : 'accepted',
    reason: r.reason,
    by: person(r.accepted_by, r.by_name, r.by_full_name),
    at: r.accepted_at === null ? null : Number(r.accepted_at),
    voided:
      r.voided_at === null
        ? null
        : {
            at: Number(r.voided_at),
            by: person(r.voided_by, r.void_name, r.void_full_name),
            reason: r.void_reason ?? '',
            auto: r.void_auto === 1,
          },
  };
}

export function correctionToWire(c: CorrectionRow): MeterEntryWire {
  const mileage = c.field === 'mileage';
  return {
    id: c.id,
    kind: 'correction',
    tm: Number(c.tm) * 1000,
    src: 'hand',
    cnm: mileage ? round3(c.new_value) : null,
    cneh: mileage ? null : round3(c.new_value),
    old_cnm: mileage ? round3(c.old_value) : null,
    old_cneh: mileage ? null : round3(c.old_value),
    shift_cnm: null,
    shift_cneh: null,
    st: 'accepted',
    reason: null,
    by: person(c.user_id, c.by_name, c.by_full_name),
    at: Number(c.tm),
    voided: null,
  };
}
