import { ServiceFlag, type ServiceWire } from '@fleetkeep/core';

/**
 * Test data of the services screens' rules: a service on the wire, an open Due unit service with nothing
 * recorded unless a test says otherwise. Not part of the app (only tests import it).
 */
export function serviceWire(...patches: Partial<ServiceWire>[]): ServiceWire {
  return Object.assign(
    {
      id: 1,
      uid: 10,
      t: 'u',
      f: ServiceFlag.upcoming,
      n: 'Oil change',
      description: '',
      cid: null,
      ivid: null,
      eid: null,
      tm: 0,
      updated: 0,
      start_date: null,
      end_date: null,
      limit_date: null,
      forecast_date: null,
      limit_mileage: null,
      limit_engine_hours: null,
      last_date: null,
      last_mileage: null,
      last_engine_hours: null,
      current_mileage: null,
      current_engine_hours: null,
      mileage: null,
      engine_hours: null,
      total_cost: 0,
      manual_cost: null,
      notify_days: null,
      li: [],
      ats: 0,
      ins: 0,
      cf: [],
    } satisfies ServiceWire,
    ...patches,
  );
}
