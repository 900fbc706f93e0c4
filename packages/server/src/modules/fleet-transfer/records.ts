import {
  DEFAULT_BOT_BASE_URL,
  type FleetTransferDocument,
  type TransferNotificationSetup,
} from '@fleetkeep/core';
import type { Selectable } from 'kysely';
import type {
  AssignmentTable,
  CustomFieldTable,
  Database,
  FuelFillingTable,
  IntervalTable,
  LineItemTable,
  NotificationSetupTable,
  ServiceRow,
  UnitTable,
} from '../../db/schema.js';
import { vehicleProfileOf } from '../fleets/mappers.js';
import { configOf } from '../notification-channels/mappers.js';

/**
 * Rows → the records of a fleet export document (core contracts/fleet-transfer.ts), shared by the JSON
 * and the CSV export. Values are written as stored, so that an import into an empty fleet gives the
 * same document back (the round trip, modulo ids).
 */

type Doc = FleetTransferDocument;
export type Line = { name: string; kind: number; qty: number; cost: number };

const parse = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};
const cfOf = (text: string) => parse<{ id: number; v: string }[]>(text, []);
export const round3 = (v: number) => Math.round(v * 1000) / 1000;
/** Finished services (closed 8 or rejected 16) form the archive (spec §4 "Finished group"). */
export const isFinished = (f: number) => (f & 24) !== 0;

/**
 * What a unit's total counters add to become its actual ones (PRODUCT.md "Service objects and
 * counters": actual = total − base at joining + pulled history). The meter history stores totals.
 */
export const shiftOf = (u: {
  base_mileage: number;
  base_engine_hours: number;
  pulled_mileage: number;
  pulled_engine_hours: number;
}) => ({
  mileage: u.pulled_mileage - u.base_mileage,
  engineHours: u.pulled_engine_hours - u.base_engine_hours,
});

export const lineOut = (l: Line) => ({ name: l.name, kind: l.kind as 1 | 2 | 4, qty: l.qty, cost: l.cost });

export function unitOut(u: Selectable<UnitTable>): Doc['units'][number] {
  const shift = shiftOf(u);
  return {
    id: u.id,
    name: u.name,
    unit_type_id: u.unit_type_id,
    mileage: round3(u.mileage + shift.mileage),
    engine_hours: round3(u.engine_hours + shift.engineHours),
    total_mileage: round3(u.mileage),
    total_engine_hours: round3(u.engine_hours),
    device_id: u.device_id,
    cf: cfOf(u.cf),
    vp: vehicleProfileOf(u),
    attachments: [],
  };
}

export const personOut = (p: { id: number; name: string; ds: string; c: string; cf: string }) => ({
  id: p.id,
  name: p.name,
  ds: p.ds,
  c: p.c,
  cf: cfOf(p.cf),
});

export const fieldOut = (f: Selectable<CustomFieldTable>): Doc['custom_fields'][number] => ({
  id: f.id,
  name: f.name,
  type: f.type as 1 | 2,
  options: parse<string[]>(f.options, []),
  owner_type: f.owner_type as 'u' | 'd' | 't' | 's' | 'f',
});

export const libraryOut = (l: Selectable<LineItemTable>): Doc['line_items'][number] => ({
  id: l.id,
  name: l.name,
  kind: l.kind as 1 | 2 | 4,
  cost: l.cost,
});

export const intervalOut = (i: Selectable<IntervalTable>, li: Line[]): Doc['intervals'][number] => ({
  id: i.id,
  name: i.name,
  description: i.description,
  cnme: i.cnme,
  cnmd: i.cnmd,
  cnmo: i.cnmo,
  cnehe: i.cnehe,
  cnehd: i.cnehd,
  cneho: i.cneho,
  de: i.de,
  dd: i.dd,
  du: i.du as 'd' | 'w' | 'm' | 'y',
  do: i.do,
  created_at: i.created_at,
  updated_at: i.updated_at,
  li: li.map(lineOut),
});

export const assignmentOut = (a: Selectable<AssignmentTable>): Doc['assignments'][number] => ({
  id: a.id,
  interval_id: a.interval_id,
  object_type: a.object_type as 'u' | 'd' | 't',
  object_id: a.object_id,
  lcnm: a.lcnm,
  lceh: a.lceh,
  ltm: a.ltm,
  cnt: a.cnt,
});

/** A service without its attachments (streamed after it). */
export type ServiceRecord = Omit<Doc['services'][number], 'attachments'>;

export const serviceOut = (s: ServiceRow, li: Line[]): ServiceRecord => ({
  id: s.id,
  object_type: s.object_type as 'u' | 'd' | 't',
  object_id: s.object_id,
  interval_id: s.interval_id,
  assignment_id: s.assignment_id,
  f: s.f,
  name: s.name,
  description: s.description,
  created_at: s.created_at,
  updated_at: s.updated_at,
  start_date: s.start_date,
  end_date: s.end_date,
  planned_date: s.planned_date,
  forecast_date: s.forecast_date,
  limit_mileage: s.limit_mileage,
  limit_engine_hours: s.limit_engine_hours,
  last_date: s.last_date,
  last_mileage: s.last_mileage,
  last_engine_hours: s.last_engine_hours,
  mileage: s.mileage,
  engine_hours: s.engine_hours,
  manual_cost: s.manual_cost,
  notify_days: s.notify_days,
  cf: cfOf(s.cf),
  li: li.map(lineOut),
});

export type FuelRecord = Omit<Doc['fuel_fillings'][number], 'attachments'>;

export const fuelOut = (f: Selectable<FuelFillingTable>): FuelRecord => ({
  id: f.id,
  unit_id: f.unit_id,
  filled_at: f.filled_at,
  fuel_type: f.fuel_type,
  volume: f.volume,
  volume_unit: f.volume_unit as 1 | 2,
  price: f.price,
  manual_cost: f.manual_cost,
  total_cost: f.total_cost,
  mileage: f.mileage,
  full_tank: f.full_tank ? 1 : 0,
  station: f.station,
  description: f.description,
  cf: cfOf(f.cf),
  created_at: f.created_at,
  updated_at: f.updated_at,
});

type Shift = { mileage: number; engineHours: number };
const shifted = (v: number | null, by: number) => (v === null ? null : round3(Number(v) + by));

/** A meter history row with its reader's login; counters made actual with the unit's shift. */
export function readingOut(
  r: Selectable<Database['meter_readings']> & { by_name: string | null },
  shift: Shift,
): Doc['meter_readings'][number] {
  return {
    id: r.id,
    unit_id: r.unit_id,
    tm_ms: Number(r.tm_ms),
    received_at: Number(r.received_at),
    source: r.source === 'import' ? 'import' : 'device',
    status: r.status === 'refused' ? 'refused' : r.status === 'baseline' ? 'baseline' : 'accepted',
    mileage: shifted(r.mileage, shift.mileage),
    engine_hours: shifted(r.engine_hours, shift.engineHours),
    old_mileage: shifted(r.old_mileage, shift.mileage),
    old_engine_hours: shifted(r.old_engine_hours, shift.engineHours),
    reason: r.reason,
    payload: r.payload === null ? null : r.payload.slice(0, 10_000),
    device_id: r.device_id,
    accepted_by: r.accepted_by === null ? null : r.by_name,
    accepted_at: r.accepted_at === null ? null : Number(r.accepted_at),
  };
}

export function correctionOut(
  c: Selectable<Database['counter_corrections']> & { by_name: string | null },
  shift: Shift,
): Doc['counter_corrections'][number] {
  const by = c.field === 'mileage' ? shift.mileage : shift.engineHours;
  return {
    id: c.id,
    unit_id: c.unit_id,
    tm: Number(c.tm),
    field: c.field === 'mileage' ? 'mileage' : 'engine_hours',
    old_value: round3(c.old_value + by),
    new_value: round3(c.new_value + by),
    by: c.by_name,
  };
}

/** An in-app set-up: its user ids become logins (`names`), so that another instance can map them. */
export function inAppSetupOut(
  s: Selectable<NotificationSetupTable>,
  names: Map<number, string>,
): TransferNotificationSetup {
  const ids = parse<unknown[]>(s.users, []).filter((u): u is number => typeof u === 'number');
  return {
    id: s.id,
    channel: 'inapp',
    name: s.name,
    enabled: s.enabled ? 1 : 0,
    kinds: s.kinds,
    users: ids.flatMap((u) => (names.has(u) ? [names.get(u)!] : [])),
  };
}

/** An e-mail, bot or webhook set-up, without its secret (core `transferNotificationSetup`). */
export function channelSetupOut(s: Selectable<Database['channel_setups']>): TransferNotificationSetup {
  const c = configOf(s);
  const base = { id: s.id, name: s.name, enabled: s.enabled ? 1 : 0, kinds: s.kinds } as const;
  const lang = (s.lang ?? 'en') as 'en';
  if (s.channel === 'mail') return { ...base, channel: 'mail', lang, recipients: c.recipients };
  const secret_set = s.secret ? 1 : 0;
  if (s.channel === 'bot')
    return { ...base, channel: 'bot', lang, url: c.url || DEFAULT_BOT_BASE_URL, chats: c.chats, secret_set };
  return { ...base, channel: 'webhook', lang: s.lang as 'en' | null, url: c.url, secret_set };
}
