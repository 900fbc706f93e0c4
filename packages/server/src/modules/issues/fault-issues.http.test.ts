import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { deliveriesSettled } from '../../test/domain-events.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/** A Traccar forwarding body of a unit with its `dtcs` attribute (telematics/traccar.ts). */
function forwardBody(uniqueId: string, time: number, dtcs: string) {
  const iso = new Date(time * 1000).toISOString();
  return {
    position: {
      fixTime: iso,
      deviceTime: iso,
      latitude: 53.9,
      longitude: 27.56,
      speed: 0,
      course: 0,
      attributes: { sat: 9, dtcs },
    },
    device: { uniqueId },
  };
}

/** A critical fault code opens an issue on its unit, once while that issue is active (fault-issues.ts). */
describe('critical fault codes open issues', () => {
  let t: TestServer;
  let manager: Client;
  let outsider: Client;
  let unitId: number;
  let clock: number;
  const issuesUrl = () => `/api/fleets/${t.demo.fleetId}/issues`;
  const send = async (dtcs: string) => {
    const res = await t.anon.post('/api/ingest/traccar', forwardBody('demo-006', ++clock, dtcs));
    expect(res.status).toBe(200);
    await deliveriesSettled(t.server.ctx);
  };
  const dtcIssues = async () => {
    const res = await manager.get(`${issuesUrl()}?object_type=u&object_id=${unitId}&limit=500`);
    expect(res.status).toBe(200);
    return (res.body.issues as any[]).filter((i) => String(i.title).startsWith('DTC '));
  };

  beforeAll(async () => {
    t = await startTestServer();
    manager = await t.login('manager');
    outsider = await t.login('outsider');
    clock = now();
    const unit = await t.server.ctx.db.kysely
      .selectFrom('units')
      .select('id')
      .where('device_id', '=', 'demo-006')
      .executeTakeFirstOrThrow();
    unitId = unit.id;
    const res = await manager.put(`/api/fleets/${t.demo.fleetId}/critical-fault-codes`, { codes: ['P03'] });
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('opens a critical issue for a critical code only, reported by nobody, with the unit’s counters', async () => {
    expect(await dtcIssues()).toEqual([]);
    await send('P0300 P0171');
    const list = await dtcIssues();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      title: 'DTC P0300',
      priority: 'critical',
      status: 'open',
      object_type: 'u',
      object_id: unitId,
      reported_by: null,
    });
    // Another fleet does not see it.
    const other = await outsider.get(`/api/fleets/${t.demo.otherFleetId}/issues`);
    expect((other.body.issues as any[]).some((i) => i.title === 'DTC P0300')).toBe(false);
  });

  it('opens nothing more while that issue is active, even when the code is cleared and comes back', async () => {
    await send('P0300');
    const codes = await manager.get(`/api/fleets/${t.demo.fleetId}/units/${unitId}/fault-codes`);
    const p0300 = (codes.body.codes as any[]).find((c) => c.code === 'P0300');
    expect(
      (await manager.post(`/api/fleets/${t.demo.fleetId}/units/${unitId}/fault-codes/${p0300.id}/clear`, {}))
        .status,
    ).toBe(200);
    await send('P0300');
    expect(await dtcIssues()).toHaveLength(1);
  });

  it('opens a new one when the code comes back after its issue was closed', async () => {
    const [issue] = await dtcIssues();
    const closed = await manager.post(`${issuesUrl()}/${issue.id}/close`, { note: 'Sensor replaced' });
    expect(closed.status).toBe(200);
    const codes = await manager.get(`/api/fleets/${t.demo.fleetId}/units/${unitId}/fault-codes`);
    const p0300 = (codes.body.codes as any[]).find((c) => c.code === 'P0300');
    await manager.post(`/api/fleets/${t.demo.fleetId}/units/${unitId}/fault-codes/${p0300.id}/clear`, {});
    await send('P0300');
    const list = await dtcIssues();
    expect(list.map((i) => i.status).sort()).toEqual(['closed', 'open']);
  });
});
