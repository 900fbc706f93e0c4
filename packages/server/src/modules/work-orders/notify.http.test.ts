import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesSettled, eventsSince, outboxMark } from '../../test/domain-events.js';
import type { Client, TestServer } from '../../test/harness.js';
import {
  CHANNEL_PUBLIC_URL,
  startChannelServer,
  type startWebhookReceiver,
} from '../../test/webhook-receiver.js';

/**
 * A work order assigned (kind 128) and completed (kind 256) reach the notification channels: a real
 * HTTP webhook receiver that checks the signature gets one delivery of each, in the set-up's language.
 */

const PUBLIC_URL = CHANNEL_PUBLIC_URL;

describe('work orders: notification channels', () => {
  let t: TestServer;
  let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let manager: Client;
  let api: string;

  beforeAll(async () => {
    ({ hook, t, manager, api } = await startChannelServer());
  });
  afterAll(async () => {
    await t?.close();
    await hook?.close();
  });

  it('assigned and completed reach a webhook that takes kinds 128 and 256, signed, in German', async () => {
    const db = t.server.ctx.db.kysely;
    const unit = await db
      .selectFrom('units')
      .select(['id', 'name', 'mileage'])
      .where('fleet_id', '=', t.demo.fleetId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const secret = 'wo-hook-secret';
    const made = await manager.post(`${api}/webhooks`, {
      n: 'Workshop ERP',
      k: 128 | 256,
      lang: 'de',
      url: `${hook.url}/wo`,
      secret,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);

    const mark = await outboxMark(db);
    const wo = await manager.post(`${api}/work-orders`, {
      object_type: 'u',
      object_id: unit.id,
      title: 'Replace wipers',
      assignee_id: t.demo.users.mechanic,
      li: [{ n: 'Wiper blade', t: 2, q: 2, c: 12.5 }],
    });
    expect(wo.status, JSON.stringify(wo.body)).toBe(200);
    // A change that keeps the assignee notifies no one again.
    expect((await manager.put(`${api}/work-orders/${wo.body.id}`, { description: 'both' })).status).toBe(200);
    const done = await manager.post(`${api}/work-orders/${wo.body.id}/complete`, { mileage: 123_456 });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    await deliveriesSettled(t.server.ctx);

    const events = await eventsSince(db, mark, ['workOrder.assigned', 'workOrder.completed']);
    expect(events.map((e: any) => e.type)).toEqual(['workOrder.assigned', 'workOrder.completed']);
    expect(hook.received).toHaveLength(2);
    for (const r of hook.received) {
      const expected = `sha256=${createHmac('sha256', secret)
        .update(`${r.headers['x-fleetkeep-timestamp']}.${r.body}`)
        .digest('hex')}`;
      expect(r.headers['x-fleetkeep-signature']).toBe(expected);
    }
    const [assigned, completed] = hook.received.map((r) => JSON.parse(r.body));
    expect(hook.received[0]!.headers['x-fleetkeep-event']).toBe('workOrder.assigned');
    expect(assigned).toMatchObject({
      event: { id: events[0]!.id, kind: 128, kind_name: 'workOrderAssigned' },
      service: null,
      object: { type: 'unit', id: unit.id, name: unit.name },
      work_order: { id: wo.body.id, title: 'Replace wipers', assignee: 'Mike Mechanic', cost: 25 },
      link: `${PUBLIC_URL}/work-orders/${wo.body.id}`,
    });
    expect(assigned.text.subject).toBe(`Arbeitsauftrag zugewiesen: Replace wipers – ${unit.name}`);
    expect(completed).toMatchObject({
      event: { id: events[1]!.id, kind: 256, kind_name: 'workOrderCompleted' },
      work_order: { id: wo.body.id, status: 'completed', mileage: 123_456 },
    });
    expect(completed.text.subject).toBe(`Arbeitsauftrag abgeschlossen: Replace wipers – ${unit.name}`);
    const log = await manager.get(`${api}/deliveries`);
    expect(log.body.deliveries.map((d: any) => [d.kind, d.status]).sort()).toEqual([
      [128, 'sent'],
      [256, 'sent'],
    ]);
  });
});
