import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { remindDueDocuments } from '../../jobs/document-reminders.js';
import { deliveriesSettled } from '../../test/domain-events.js';
import type { Client, TestServer } from '../../test/harness.js';
import {
  CHANNEL_PUBLIC_URL,
  startChannelServer,
  type startWebhookReceiver,
} from '../../test/webhook-receiver.js';

/**
 * A document nearing its expiry (kind 2048) reaches the notification channels once per period: a real
 * HTTP webhook receiver gets one delivery, in the set-up's language, and none on the next sweeps.
 */

const PUBLIC_URL = CHANNEL_PUBLIC_URL;
const DAY = 86_400;

describe('documents: notification channels', () => {
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

  it('a document entering its reminder window reaches a webhook of kind 2048 once, in German', async () => {
    const db = t.server.ctx.db.kysely;
    const trailer = await db
      .selectFrom('trailers')
      .select(['id', 'name'])
      .where('fleet_id', '=', t.demo.fleetId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const made = await manager.post(`${api}/webhooks`, {
      n: 'Compliance',
      k: 2048,
      lang: 'de',
      url: `${hook.url}/docs`,
      secret: 'doc-hook-secret',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const at = now();
    const doc = await manager.post(`${api}/documents`, {
      owner_type: 't',
      owner_id: trailer.id,
      type: 'insurance',
      number: 'INS-77',
      valid_to: at + 45 * DAY,
    });
    expect(doc.status, JSON.stringify(doc.body)).toBe(200);
    await deliveriesSettled(t.server.ctx);
    expect(hook.received).toHaveLength(0);

    await remindDueDocuments(t.server.ctx, at + 20 * DAY);
    await remindDueDocuments(t.server.ctx, at + 21 * DAY);
    await deliveriesSettled(t.server.ctx);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.headers['x-fleetkeep-event']).toBe('document.expiring');
    const body = JSON.parse(hook.received[0]!.body);
    expect(body).toMatchObject({
      event: { kind: 2048, kind_name: 'documentExpiring' },
      service: null,
      object: { type: 'trailer', id: trailer.id, name: trailer.name },
      document: {
        id: doc.body.id,
        type: 'insurance',
        number: 'INS-77',
        valid_to: at + 45 * DAY,
        reminder_days: 30,
      },
      link: `${PUBLIC_URL}/documents/${doc.body.id}`,
    });
    expect(body.text.subject).toBe(`Dokument läuft ab: Versicherung – ${trailer.name}`);
    const log = await manager.get(`${api}/deliveries`);
    expect(log.body.deliveries.map((d: { kind: number; status: string }) => [d.kind, d.status])).toEqual([
      [2048, 'sent'],
    ]);
  });
});
