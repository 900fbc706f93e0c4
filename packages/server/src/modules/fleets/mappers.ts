import {
  type FleetWire,
  type PersonWire,
  type UnitWire,
  VEHICLE_FUEL_TYPES,
  type VehicleProfileWire,
} from '@fleetkeep/core';
import type { FleetRow, PersonRow, UnitRow } from '../../db/schema.js';

/**
 * Explicit mappers from rows to the wire names of spec §3, typed by the core contracts (contracts/fleets.ts);
 * raw rows never leave the server.
 */

export function fleetToWire(fleet: FleetRow, acl: number, active: boolean): FleetWire {
  return {
    id: fleet.id,
    n: fleet.name,
    acl,
    tz: fleet.tz,
    cur: fleet.cur,
    ms: fleet.ms,
    fm: fleet.fm,
    mdd: fleet.meter_daily_distance_max,
    aid: fleet.account_id,
    s: active ? 1 : 0,
  };
}

const json = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

/** Mileage goes out in km and engine hours in hours; the client converts for fleets in miles. */
export function unitToWire(u: UnitRow): UnitWire {
  const params = json<Record<string, unknown>>(u.params, {});
  return {
    id: u.id,
    nm: u.name,
    fid: u.fleet_id,
    uid: u.device_id,
    ut: u.unit_type_id,
    cnm: round3(u.mileage),
    cneh: round3(u.engine_hours),
    acnm: round3(u.mileage - u.base_mileage + u.pulled_mileage),
    aceh: round3(u.engine_hours - u.base_engine_hours + u.pulled_engine_hours),
    prp: json<Record<string, unknown>>(u.props, {}),
    prms: params,
    lmsg: u.last_time === null ? null : { t: u.last_time, p: params },
    pos:
      u.last_time === null || u.lat === null || u.lon === null
        ? null
        : { t: u.last_time, y: u.lat, x: u.lon, s: u.speed, c: u.course, z: u.altitude },
    cf: json<{ id: number; v: string }[]>(u.cf, []),
    ins: u.ins,
    vp: vehicleProfileOf(u),
    ph: u.photo_id,
  };
}

const fuelTypes = new Set<string>(VEHICLE_FUEL_TYPES);

/** The vehicle profile of a unit row (migration 031); tank capacity from thousandths. */
export function vehicleProfileOf(u: UnitRow): VehicleProfileWire {
  const tags = json<unknown>(u.tags, []);
  return {
    vin: u.vin,
    mk: u.make,
    md: u.model,
    yr: u.model_year,
    pl: u.plate,
    ft: fuelTypes.has(u.fuel_type) ? (u.fuel_type as VehicleProfileWire['ft']) : '',
    tc: u.tank_capacity === null ? null : u.tank_capacity / 1000,
    tu: u.tank_capacity === null ? null : u.tank_unit === 2 ? 2 : 1,
    tg: Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [],
    nt: u.notes,
  };
}

export function personToWire(p: PersonRow): PersonWire {
  return {
    id: p.id,
    fid: p.fleet_id,
    n: p.name,
    ds: p.ds,
    c: p.c,
    cf: json<{ id: number; v: string }[]>(p.cf, []),
    ins: p.ins,
  };
}

export function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
