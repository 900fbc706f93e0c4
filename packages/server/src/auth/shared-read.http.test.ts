import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../server.js';
import { Client, listenAnother, startTestServer, TEST_DB, type TestServer } from '../test/harness.js';

/**
 * The access and list revisions are read once for all the requests that arrive while a read is in
 * flight (auth/shared-read.ts). A request must still see every change acknowledged before it was sent:
 * here instance B is kept busy with concurrent reads (so that reads are always in flight and shared)
 * while sessions end and lists change through instance A; the very next request on B must see it.
 */
describe(`shared revision reads under load on ${TEST_DB}`, () => {
  let t: TestServer;
  let second: Server;
  let urlB: string;

  beforeAll(async () => {
    t = await startTestServer();
    ({ server: second, url: urlB } = await listenAnother({ ...t.config }));
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  const units = () => `/api/fleets/${t.demo.fleetId}/units`;

  /** Concurrent reads on B (tagged and plain routes) until `stop` is called. */
  async function busy(client: Client) {
    let running = true;
    const loops = Array.from({ length: 8 }, async (_, i) => {
      while (running) await client.get(i % 2 ? units() : '/api/fleets');
    });
    return async () => {
      running = false;
      await Promise.all(loops);
    };
  }

  it('a logout on A is refused by the next request on B while B is busy', async () => {
    const load = await busy(new Client(urlB, (await t.login('manager')).ssid));
    try {
      for (let round = 0; round < 10; round++) {
        const onA = await t.login('manager');
        const onB = new Client(urlB, onA.ssid);
        expect((await onB.get(units())).status).toBe(200);
        expect((await onB.get('/api/fleets')).status).toBe(200);
        expect((await onA.get('/api/logout')).status).toBe(200);
        const [tagged, plain] = await Promise.all([onB.get(units()), onB.get('/api/fleets')]);
        expect(tagged.status).toBe(401);
        expect(plain.status).toBe(401);
      }
    } finally {
      await load();
    }
  });

  it('a units change on A shows in the next tagged read on B while B is busy', async () => {
    const reader = await t.login('manager');
    const onB = new Client(urlB, reader.ssid);
    const load = await busy(new Client(urlB, reader.ssid));
    try {
      const first = (await onB.get(units())).body.units as { id: number; nm: string }[];
      const unit = first[0] as { id: number; nm: string };
      for (let round = 0; round < 10; round++) {
        const name = `shared read ${round}`;
        await t.server.ctx.db.kysely.updateTable('units').set({ name }).where('id', '=', unit.id).execute();
        const read = (await onB.get(units())).body.units as { id: number; nm: string }[];
        expect(read.find((u) => u.id === unit.id)?.nm).toBe(name);
      }
    } finally {
      await load();
    }
  });
});
