import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesSettled, eventsSince, outboxMark } from '../../test/domain-events.js';
import type { Client, TestServer } from '../../test/harness.js';
import {
  CHANNEL_PUBLIC_URL,
  startChannelServer,
  type startWebhookReceiver,
} from '../../test/webhook-receiver.js';

/**
 * A tread reading under the fleet's threshold reaches the notification channels as kind 4096: a real
 * HTTP webhook receiver gets one delivery naming the tyre, its unit and position, in the set-up's
 * language; a reading at or above the threshold sends nothing.
 */

const PUBLIC_URL = CHANNEL_PUBLIC_URL;

describe('components: tread low on the notification channels', () => {
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

  it('a reading under 3 mm reaches a webhook that takes kind 4096, in German', async () => {
    const db = t.server.ctx.db.kysely;
    const unit = await db
      .selectFrom('units')
      .select(['id', 'name'])
      .where('fleet_id', '=', t.demo.fleetId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const made = await manager.post(`${api}/webhooks`, {
      n: 'Tyre service',
      k: 4096,
      lang: 'de',
      url: `${hook.url}/tread`,
      secret: 'tread-secret',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const tyre = await manager.post(`${api}/components`, { kind: 'tyre', serial: 'DOT 0124' });
    expect(tyre.status).toBe(200);
    const id = tyre.body.id as number;
    expect(
      (await manager.post(`${api}/components/${id}/mount`, { unit_id: unit.id, position: '4RO' })).status,
    ).toBe(200);

    const mark = await outboxMark(db);
    expect((await manager.post(`${api}/components/${id}/treads`, { depth: 3 })).status).toBe(200);
    expect((await manager.post(`${api}/components/${id}/treads`, { depth: 2.4 })).status).toBe(200);
    await deliveriesSettled(t.server.ctx);

    const events = await eventsSince(db, mark, ['component.treadLow']);
    expect(events).toHaveLength(1);
    expect(hook.received).toHaveLength(1);
    const body = JSON.parse(hook.received[0]!.body);
    expect(hook.received[0]!.headers['x-fleetkeep-event']).toBe('component.treadLow');
    expect(body).toMatchObject({
      event: { id: events[0]!.id, kind: 4096, kind_name: 'treadLow' },
      service: null,
      object: { type: 'unit', id: unit.id, name: unit.name },
      component: { id, kind: 'tyre', serial: 'DOT 0124', position: '4RO', depth: 2.4, threshold: 3 },
      link: `${PUBLIC_URL}/components/${id}`,
    });
    expect(body.text.subject).toBe('Profil zu gering: DOT 0124 – 2,4 mm');
    const log = await manager.get(`${api}/deliveries`);
    expect(log.body.deliveries.map((d: any) => [d.kind, d.status])).toEqual([[4096, 'sent']]);
  });
});
