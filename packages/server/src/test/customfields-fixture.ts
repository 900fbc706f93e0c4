import type { CustomFieldWire } from '@fleetkeep/core';
import { expect } from 'vitest';
import { type Client, startTestServer, type TestServer } from './harness.js';

/** A field definition as the custom-fields routes answer it (spec §3 "Custom field"). */
export type FieldWire = CustomFieldWire;

/**
 * The custom-fields HTTP tests' server: the demo fleet with its members signed in, the fleet's first unit
 * and driver, and helpers that define fields and create services through the API.
 */
export interface CustomFieldsFixture {
  t: TestServer;
  manager: Client;
  mechanic: Client;
  viewer: Client;
  outsider: Client;
  fid: number;
  /** `/api/fleets/{fid}/custom-fields`. */
  base: string;
  unitId: number;
  driverId: number;
  /** A name not used before in this server. */
  unique(name: string): string;
  /** Defines a field (expects 200). */
  define(body: Record<string, unknown>, client?: Client, url?: string): Promise<FieldWire>;
  /** A Due service of the unit with these values (the raw reply). */
  newService(cf?: { id: number; v: string }[]): Promise<{ status: number; body: any }>;
}

/** The fields named by an error reply's details, sorted. */
export const issueFields = (body: any): string[] =>
  body.details.map((d: { field: string }) => d.field).sort();

export async function startCustomFieldsServer(): Promise<CustomFieldsFixture> {
  const t = await startTestServer();
  const [manager, mechanic, viewer, outsider] = await Promise.all([
    t.login('manager'),
    t.login('mechanic'),
    t.login('viewer'),
    t.login('outsider'),
  ]);
  const fid = t.demo.fleetId;
  const base = `/api/fleets/${fid}/custom-fields`;
  const db = t.server.ctx.db.kysely;
  const first = async (table: 'units' | 'drivers') =>
    (
      await db
        .selectFrom(table)
        .select('id')
        .where('fleet_id', '=', fid)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
  const unitId = await first('units');
  const driverId = await first('drivers');
  let seq = 0;
  const unique = (name: string) => `${name} ${++seq}`;
  return {
    t,
    manager,
    mechanic,
    viewer,
    outsider,
    fid,
    base,
    unitId,
    driverId,
    unique,
    async define(body, client = manager, url = base) {
      const res = await client.post(url, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as FieldWire;
    },
    newService: (cf = []) =>
      manager.post(`/api/fleets/${fid}/services`, { t: 'u', uid: unitId, f: 1, n: unique('cf svc'), cf }),
  };
}
