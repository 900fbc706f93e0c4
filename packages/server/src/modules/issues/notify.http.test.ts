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
 * An issue reported notifies the channels (kind 64, docs/product.md "Issues"): high and critical at
 * once, low and medium not at all, through a real HTTP webhook receiver that checks the signature.
 */

const PUBLIC_URL = CHANNEL_PUBLIC_URL;

describe('issue reported: notification channels', () => {
  let t: TestServer;
  let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let manager: Client;
  let viewer: Client;
  let api: string;

  beforeAll(async () => {
    ({ hook, t, manager, api } = await startChannelServer());
    viewer = await t.login('viewer');
  });
  afterAll(async () => {
    await t?.close();
    await hook?.close();
  });

  it('a critical issue reaches a webhook that takes kind 64, signed, in the set-up’s language; low and medium do not', async () => {
    const db = t.server.ctx.db.kysely;
    const unit = await db
      .selectFrom('units')
      .select(['id', 'name'])
      .where('fleet_id', '=', t.demo.fleetId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const secret = 'issue-hook-secret';
    const made = await manager.post(`${api}/webhooks`, {
      n: 'Workshop ERP',
      k: 64,
      lang: 'de',
      url: `${hook.url}/issues`,
      secret,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const services = await manager.post(`${api}/webhooks`, {
      n: 'Services',
      k: 31,
      url: `${hook.url}/services`,
    });
    expect(services.status).toBe(200);

    const mark = await outboxMark(db);
    for (const priority of ['low', 'medium'] as const) {
      const res = await viewer.post(`${api}/issues`, {
        object_type: 'u',
        object_id: unit.id,
        title: priority,
        priority,
      });
      expect(res.status).toBe(200);
    }
    const critical = await viewer.post(`${api}/issues`, {
      object_type: 'u',
      object_id: unit.id,
      title: 'Brakes fail',
      description: 'Pedal goes to the floor',
      priority: 'critical',
    });
    expect(critical.status).toBe(200);
    await deliveriesSettled(t.server.ctx);

    const reported = (await eventsSince(db, mark, ['issue.reported'])).find(
      (e: any) => e.issueId === critical.body.id,
    )!;
    expect(hook.received.map((r) => r.path)).toEqual(['/issues']);
    const r = hook.received[0]!;
    const expected = `sha256=${createHmac('sha256', secret)
      .update(`${r.headers['x-fleetkeep-timestamp']}.${r.body}`)
      .digest('hex')}`;
    expect(r.headers['x-fleetkeep-signature']).toBe(expected);
    expect(r.headers['x-fleetkeep-event']).toBe('issue.reported');
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({
      event: { id: reported.id, kind: 64, kind_name: 'issueReported' },
      fleet: { id: t.demo.fleetId },
      service: null,
      object: { type: 'unit', id: unit.id, name: unit.name },
      issue: {
        id: critical.body.id,
        title: 'Brakes fail',
        description: 'Pedal goes to the floor',
        priority: 'critical',
        reporter: 'Vera Viewer',
      },
      link: `${PUBLIC_URL}/issues/${critical.body.id}`,
    });
    expect(body.text.subject).toBe(`Mangel (kritisch): Brakes fail – ${unit.name}`);
    const log = await manager.get(`${api}/deliveries`);
    expect(log.body.deliveries).toEqual([
      expect.objectContaining({ kind: 64, status: 'sent', event_id: reported.id }),
    ]);
  });
});
