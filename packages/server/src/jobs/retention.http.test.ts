import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../context.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { INGEST_LOG_DAYS, pruneIngestLog } from './retention.js';

describe('ingest log retention', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it(`deletes rows older than ${INGEST_LOG_DAYS} days and keeps the rest`, async () => {
    const db = t.server.ctx.db.kysely;
    const t0 = now();
    const row = (age: number) => ({
      received_at: t0 - age,
      device_id: `probe-${age}`,
      unit_id: null,
      msg_time: null,
      reason: 'Unknown device',
      payload: '{}',
    });
    await db
      .insertInto('ingest_log')
      .values([row(INGEST_LOG_DAYS * 86400 + 10), row(INGEST_LOG_DAYS * 86400 - 10), row(5)])
      .execute();
    expect(await pruneIngestLog(t.server.ctx, t0)).toBe(1);
    const left = await db
      .selectFrom('ingest_log')
      .select('device_id')
      .where('device_id', 'like', 'probe-%')
      .execute();
    expect(left.map((r) => r.device_id).sort()).toEqual([`probe-${INGEST_LOG_DAYS * 86400 - 10}`, 'probe-5']);
    expect(await pruneIngestLog(t.server.ctx, t0)).toBe(0);
  });
});
