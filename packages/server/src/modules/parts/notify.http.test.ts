import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesSettled, eventsSince, outboxMark } from '../../test/domain-events.js';
import type { Client, TestServer } from '../../test/harness.js';
import {
  CHANNEL_PUBLIC_URL,
  startChannelServer,
  type startWebhookReceiver,
} from '../../test/webhook-receiver.js';

/**
 * A part's stock going low reaches the notification channels as kind 1024 (docs/product.md "Parts and
 * stock"): a real webhook receiver gets one delivery naming the part, the location and the stock, in the
 * set-up's language; moves that stay above the threshold, or stay under it, send nothing.
 */

const PUBLIC_URL = CHANNEL_PUBLIC_URL;

describe('parts: low stock on the notification channels', () => {
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

  it('stock reaching its threshold reaches a webhook that takes kind 1024, in German', async () => {
    const db = t.server.ctx.db.kysely;
    const made = await manager.post(`${api}/webhooks`, {
      n: 'Stores',
      k: 1024,
      lang: 'de',
      url: `${hook.url}/stock`,
      secret: 'stock-secret',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const loc = await manager.post(`${api}/stock-locations`, { name: 'Van 3', kind: 'van' });
    expect(loc.status).toBe(200);
    const part = await manager.post(`${api}/parts`, {
      number: 'OF-77',
      name: 'Oil filter',
      unit: 'pcs',
      cost: 9.5,
    });
    expect(part.status).toBe(200);
    const [pid, lid] = [part.body.id as number, loc.body.id as number];
    expect((await manager.put(`${api}/parts/${pid}/stock/${lid}`, { threshold: 2 })).status).toBe(200);
    const adjust = async (delta: number) =>
      expect(
        (await manager.post(`${api}/parts/${pid}/adjust`, { location_id: lid, delta, reason: 'count' }))
          .status,
      ).toBe(200);

    const mark = await outboxMark(db);
    await adjust(5);
    await adjust(-2);
    await adjust(-1.5);
    await adjust(-0.5);
    await deliveriesSettled(t.server.ctx);

    const events = await eventsSince(db, mark, ['part.lowStock']);
    expect(events).toHaveLength(1);
    expect(hook.received).toHaveLength(1);
    const body = JSON.parse(hook.received[0]!.body);
    expect(hook.received[0]!.headers['x-fleetkeep-event']).toBe('part.lowStock');
    expect(body).toMatchObject({
      event: { id: events[0]!.id, kind: 1024, kind_name: 'lowStock' },
      service: null,
      part: {
        id: pid,
        number: 'OF-77',
        name: 'Oil filter',
        unit: 'pcs',
        location: 'Van 3',
        qty: 1.5,
        threshold: 2,
      },
      link: `${PUBLIC_URL}/parts/${pid}`,
    });
    expect(body.text.subject).toBe('Niedriger Bestand: Oil filter (OF-77) in Van 3');
    const log = await manager.get(`${api}/deliveries`);
    expect(log.body.deliveries.map((d: any) => [d.kind, d.status])).toEqual([[1024, 'sent']]);
  });
});
