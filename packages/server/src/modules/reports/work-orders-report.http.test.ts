import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/**
 * The report "work orders with costs and downtime" (docs/product.md "Work orders"): the work orders
 * completed in the period, with their issues, services, line items' cost and downtime; exported as
 * CSV, XLSX and PDF like the other reports.
 */
describe('report: work orders', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let api: string;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    manager = await t.login('manager');
    api = `/api/fleets/${fx.fleetId}`;
  });
  afterAll(() => t?.close());

  it('lists the completed work orders of the period with cost and downtime, and exports them', async () => {
    const unitId = await fx.unit(20_000, 800);
    const issue = await manager.post(`${api}/issues`, {
      object_type: 'u',
      object_id: unitId,
      title: 'Leaking hose',
      reported_at: now() - 2 * 3600,
    });
    const svc = await manager.post(`${api}/services`, { n: 'Coolant', t: 'u', uid: unitId, f: 1 });
    const wo = await manager.post(`${api}/work-orders`, {
      object_type: 'u',
      object_id: unitId,
      title: 'Cooling repair',
      assignee_id: t.demo.users.mechanic,
      issue_ids: [issue.body.id],
      service_ids: [svc.body.id],
      li: [
        { n: 'Hose', t: 2, q: 1, c: 30.5 },
        { n: 'Labour', t: 1, q: 2, c: 50 },
      ],
    });
    expect(wo.status, JSON.stringify(wo.body)).toBe(200);
    // An open one is not on the report.
    await manager.post(`${api}/work-orders`, { object_type: 'u', object_id: unitId, title: 'Still open' });
    expect((await manager.post(`${api}/work-orders/${wo.body.id}/complete`, {})).status).toBe(200);

    const q = `from=${fx.iso(-1)}&to=${fx.iso(0)}`;
    const res = await manager.get(`${api}/reports/work-orders?${q}&ot=u&ids=${unitId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.columns.map((c: { key: string }) => c.key)).toEqual([
      'date',
      'object_type',
      'object',
      'work_order',
      'assignee',
      'issues_count',
      'services_count',
      'cost',
      'downtime_hours',
    ]);
    expect(res.body.rows).toHaveLength(1);
    const row = res.body.rows[0];
    expect(row).toMatchObject({
      date: fx.iso(0),
      object_type: 'u',
      work_order: 'Cooling repair',
      assignee: 'Mike Mechanic',
      issues_count: 1,
      services_count: 1,
      cost: 130.5,
      ot: 'u',
      oid: unitId,
    });
    expect(row.downtime_hours).toBeGreaterThanOrEqual(2);
    expect(row.downtime_hours).toBeLessThan(2.1);
    expect(res.body.totals).toMatchObject({ cost: 130.5, issues_count: 1, services_count: 1 });
    // Another unit's filter leaves it out.
    const other = await manager.get(`${api}/reports/work-orders?${q}&ot=u&ids=${await fx.unit()}`);
    expect(other.body.rows).toEqual([]);

    for (const [format, type] of [
      ['csv', 'text/csv'],
      ['xlsx', 'spreadsheetml'],
      ['pdf', 'application/pdf'],
    ] as const) {
      const file = await fetch(
        `${t.url}${api}/reports/work-orders/export?${q}&ot=u&ids=${unitId}&format=${format}`,
        {
          headers: { authorization: `SSID ${manager.ssid}` },
        },
      );
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toContain(type);
      if (format === 'csv') {
        const text = await file.text();
        expect(text).toContain('Work order');
        expect(text).toContain('Cooling repair');
      }
    }
  });
});
