import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { remindDueDocuments } from '../../jobs/document-reminders.js';
import { eventsSince, outboxMark } from '../../test/domain-events.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * Documents through the real server (docs/product.md "Documents"): CRUD and the GET → PUT round trip,
 * the expiry states and filters, renewal keeping the old period in the history, fleet-defined types
 * with their reminder days, the reminder once per period, and another fleet's data answering 404.
 */
const DAY = 86_400;

describe('documents', () => {
  let t: TestServer;
  let manager: Client;
  let viewer: Client;
  let outsider: Client;
  let api: string;
  let unitId: number;
  let trailerId: number;
  let driverId: number;

  beforeAll(async () => {
    t = await startTestServer();
    manager = await t.login('manager');
    viewer = await t.login('viewer');
    outsider = await t.login('outsider');
    api = `/api/fleets/${t.demo.fleetId}`;
    const db = t.server.ctx.db.kysely;
    const first = (table: 'units' | 'trailers' | 'drivers') =>
      db
        .selectFrom(table)
        .select('id')
        .where('fleet_id', '=', t.demo.fleetId)
        .orderBy('id')
        .executeTakeFirstOrThrow();
    unitId = (await first('units')).id;
    trailerId = (await first('trailers')).id;
    driverId = (await first('drivers')).id;
  });
  afterAll(() => t?.close());

  const create = async (body: Record<string, unknown>) => {
    const res = await manager.post(`${api}/documents`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it('creates, reads, round-trips and deletes a document; refuses bad input', async () => {
    const at = now();
    const doc = await create({
      owner_type: 'u',
      owner_id: unitId,
      type: 'insurance',
      number: 'POL-1',
      issuer: 'Acme Insurance',
      valid_from: at - 10 * DAY,
      valid_to: at + 200 * DAY,
      cost: '1250.5',
    });
    expect(doc).toMatchObject({
      owner_type: 'u',
      owner_id: unitId,
      type: 'insurance',
      number: 'POL-1',
      cost: 1250.5,
      state: 'valid',
      reminder_days: 30,
      periods: [{ number: 'POL-1', cost: 1250.5, reminded: null }],
    });
    expect(doc.owner_name).not.toBe('');
    const read = await viewer.get(`${api}/documents/${doc.id}`);
    expect(read.status).toBe(200);
    const put = await manager.put(`${api}/documents/${doc.id}`, { ...read.body, issuer: 'Other' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ issuer: 'Other', number: 'POL-1', periods: [{ cost: 1250.5 }] });
    const moved = await manager.put(`${api}/documents/${doc.id}`, { ...read.body, owner_id: unitId + 1000 });
    expect(moved.status).toBe(400);
    const backwards = await manager.post(`${api}/documents`, {
      owner_type: 'u',
      owner_id: unitId,
      type: 'insurance',
      valid_from: at + 10,
      valid_to: at,
    });
    expect(backwards.status).toBe(400);
    const custom = await manager.post(`${api}/documents`, {
      owner_type: 'u',
      owner_id: unitId,
      type: 'custom',
      valid_to: at,
    });
    expect(custom.status).toBe(400);
    expect(custom.body.details).toEqual([expect.objectContaining({ field: 'body.type_id' })]);
    const noOwner = await manager.post(`${api}/documents`, {
      owner_type: 'd',
      owner_id: 999_999,
      type: 'licence',
      valid_to: at,
    });
    expect(noOwner.status).toBe(404);
    expect((await viewer.put(`${api}/documents/${doc.id}`, { issuer: 'x' })).status).toBe(403);
    expect((await manager.delete(`${api}/documents/${doc.id}`)).status).toBe(200);
    expect((await manager.get(`${api}/documents/${doc.id}`)).status).toBe(404);
  });

  it('answers the expiry states and filters by owner, type and state', async () => {
    const at = now();
    const valid = await create({
      owner_type: 't',
      owner_id: trailerId,
      type: 'registration',
      valid_to: at + 90 * DAY,
    });
    const expiring = await create({
      owner_type: 'd',
      owner_id: driverId,
      type: 'licence',
      valid_to: at + 10 * DAY,
    });
    const expired = await create({
      owner_type: 'u',
      owner_id: unitId,
      type: 'roadworthiness',
      valid_to: at - DAY,
    });
    expect([valid.state, expiring.state, expired.state]).toEqual(['valid', 'expiring', 'expired']);
    expect([9, 10]).toContain(expiring.days_left);
    const ids = async (q: string) =>
      ((await viewer.get(`${api}/documents?${q}`)).body.documents as { id: number }[]).map((d) => d.id);
    expect(await ids('state=expired')).toContain(expired.id);
    expect(await ids('state=expired')).not.toContain(expiring.id);
    expect(await ids('state=expiring')).toEqual(expect.arrayContaining([expiring.id]));
    expect(await ids('state=attention')).toEqual(expect.arrayContaining([expiring.id, expired.id]));
    expect(await ids('state=attention')).not.toContain(valid.id);
    expect(await ids(`owner_type=d&owner_id=${driverId}`)).toEqual([expiring.id]);
    expect(await ids('type=registration')).toEqual([valid.id]);
    const list = await viewer.get(`${api}/documents`);
    expect(list.body.total).toBe(list.body.documents.length);
    // Soonest end first.
    const ends = (list.body.documents as { valid_to: number }[]).map((d) => d.valid_to);
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    expect((await viewer.get(`${api}/documents?owner_id=${unitId}`)).status).toBe(400);
  });

  it('renews: a new current period, the old one in the history', async () => {
    const at = now();
    const doc = await create({
      owner_type: 'u',
      owner_id: unitId,
      type: 'tachograph',
      number: 'T-1',
      valid_from: at - 700 * DAY,
      valid_to: at + 5 * DAY,
      cost: 80,
    });
    expect(doc.state).toBe('expiring');
    const early = await manager.post(`${api}/documents/${doc.id}/renew`, { valid_to: at + DAY });
    expect(early.status).toBe(400);
    const renewed = await manager.post(`${api}/documents/${doc.id}/renew`, {
      valid_to: at + 735 * DAY,
      number: 'T-2',
      cost: '95.25',
    });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body).toMatchObject({
      number: 'T-2',
      state: 'valid',
      valid_from: at + 5 * DAY,
      cost: 95.25,
      periods: [
        { number: 'T-2', cost: 95.25, valid_to: at + 735 * DAY },
        { number: 'T-1', cost: 80, valid_to: at + 5 * DAY },
      ],
    });
    expect(renewed.body.period_id).toBe(renewed.body.periods[0].id);
  });

  it('fleet-defined types carry their reminder days; a used type cannot be deleted', async () => {
    const made = await manager.post(`${api}/document-types`, { name: 'ADR certificate', reminder_days: 60 });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const at = now();
    const doc = await create({
      owner_type: 'd',
      owner_id: driverId,
      type: 'custom',
      type_id: made.body.id,
      valid_to: at + 45 * DAY,
    });
    expect(doc).toMatchObject({
      type: 'custom',
      type_name: 'ADR certificate',
      reminder_days: 60,
      state: 'expiring',
    });
    const shorter = await manager.put(`${api}/document-types/${made.body.id}`, {
      name: 'ADR',
      reminder_days: 7,
    });
    expect(shorter.status).toBe(200);
    const again = await viewer.get(`${api}/documents/${doc.id}`);
    expect(again.body).toMatchObject({ type_name: 'ADR', reminder_days: 7, state: 'valid' });
    expect(
      (await viewer.get(`${api}/documents?state=valid`)).body.documents.map((d: { id: number }) => d.id),
    ).toContain(doc.id);
    const refused = await manager.delete(`${api}/document-types/${made.body.id}`);
    expect(refused.status).toBe(409);
    expect((await viewer.get(`${api}/document-types`)).body.types).toEqual([
      expect.objectContaining({ id: made.body.id, name: 'ADR', reminder_days: 7 }),
    ]);
  });

  it('reminds once per period when the window opens, again after a renewal', async () => {
    const db = t.server.ctx.db.kysely;
    const at = now();
    const doc = await create({
      owner_type: 't',
      owner_id: trailerId,
      type: 'insurance',
      number: 'R-1',
      valid_to: at + 40 * DAY,
    });
    const mark = await outboxMark(db);
    const mine = async () =>
      (await eventsSince(db, mark, ['document.expiring'])).filter(
        (e) => e.type === 'document.expiring' && e.documentId === doc.id,
      );
    await remindDueDocuments(t.server.ctx, at);
    expect(await mine()).toHaveLength(0);
    // Eleven days later the 30-day window is open: one event, and none on the next sweeps.
    await remindDueDocuments(t.server.ctx, at + 11 * DAY);
    await remindDueDocuments(t.server.ctx, at + 12 * DAY);
    const events = await mine();
    expect(events).toEqual([
      expect.objectContaining({
        type: 'document.expiring',
        fid: t.demo.fleetId,
        documentId: doc.id,
        periodId: doc.period_id,
        ownerType: 't',
        ownerId: trailerId,
        docType: 'insurance',
        number: 'R-1',
        validTo: at + 40 * DAY,
        reminderDays: 30,
      }),
    ]);
    // A renewal is a new period: its own reminder when its window opens.
    const renewed = await manager.post(`${api}/documents/${doc.id}/renew`, { valid_to: at + 100 * DAY });
    expect(renewed.body.periods[1].reminded).toBe(at + 11 * DAY);
    await remindDueDocuments(t.server.ctx, at + 50 * DAY);
    expect(await mine()).toHaveLength(1);
    await remindDueDocuments(t.server.ctx, at + 75 * DAY);
    await remindDueDocuments(t.server.ctx, at + 76 * DAY);
    expect(await mine()).toHaveLength(2);
    // A document made inside its window reminds at once, in the same write.
    const mark2 = await outboxMark(db);
    const soon = await create({
      owner_type: 'u',
      owner_id: unitId,
      type: 'registration',
      valid_to: now() + 3 * DAY,
    });
    expect(soon.periods[0].reminded).not.toBeNull();
    expect(await eventsSince(db, mark2, ['document.expiring'])).toHaveLength(1);
  });

  it('keeps other fleets out: 404 for their documents, owners and types, nothing listed', async () => {
    const db = t.server.ctx.db.kysely;
    const other = await db
      .selectFrom('units')
      .select(['id', 'fleet_id'])
      .where('fleet_id', '!=', t.demo.fleetId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const theirs = await manager.post(`${api}/documents`, {
      owner_type: 'u',
      owner_id: other.id,
      type: 'insurance',
      valid_to: now() + DAY,
    });
    expect(theirs.status).toBe(404);
    const mine = await create({
      owner_type: 'u',
      owner_id: unitId,
      type: 'insurance',
      valid_to: now() + 300 * DAY,
    });
    expect((await outsider.get(`${api}/documents/${mine.id}`)).status).toBe(403);
    // A document of the other fleet, asked for through this fleet's routes: not found, never listed.
    const at = now();
    const { id: theirId } = await db
      .insertInto('documents')
      .values({
        fleet_id: other.fleet_id as number,
        owner_type: 'u',
        owner_id: other.id,
        type: 'insurance',
        type_id: null,
        period_id: null,
        valid_from: null,
        valid_to: at - DAY,
        cost: 5000,
        remind_at: at - 31 * DAY,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await manager.get(`${api}/documents/${theirId}`)).status).toBe(404);
    expect((await manager.put(`${api}/documents/${theirId}`, { issuer: 'x' })).status).toBe(404);
    expect((await manager.post(`${api}/documents/${theirId}/renew`, { valid_to: at + DAY })).status).toBe(
      404,
    );
    expect((await manager.delete(`${api}/documents/${theirId}`)).status).toBe(404);
    const list = await manager.get(`${api}/documents?state=expired`);
    expect((list.body.documents as { id: number }[]).map((d) => d.id)).not.toContain(theirId);
  });

  it('a deleted unit takes its documents along', async () => {
    const db = t.server.ctx.db.kysely;
    const unit = await manager.post(`${api}/units`, { nm: 'Doc unit', uid: 'doc-unit-1', ut: null });
    expect(unit.status, JSON.stringify(unit.body)).toBe(200);
    const unitId = (unit.body.id ?? unit.body.unit?.id) as number;
    const doc = await create({
      owner_type: 'u',
      owner_id: unitId,
      type: 'registration',
      valid_to: now() + 900 * DAY,
    });
    expect((await manager.delete(`${api}/units/${unitId}`)).status).toBe(200);
    expect((await manager.get(`${api}/documents/${doc.id}`)).status).toBe(404);
    expect(
      await db.selectFrom('document_periods').select('id').where('document_id', '=', doc.id).execute(),
    ).toEqual([]);
  });

  it('a long list (more than 500 documents) names every owner and counts files', async () => {
    const db = t.server.ctx.db.kysely;
    const at = now();
    const rows = Array.from({ length: 520 }, (_, i) => ({
      fleet_id: t.demo.fleetId,
      owner_type: 'u',
      owner_id: unitId,
      type: 'registration',
      type_id: null,
      number: `LONG-${i}`,
      period_id: null,
      valid_from: null,
      valid_to: at + (1000 + i) * DAY,
      cost: null,
      remind_at: at + (970 + i) * DAY,
      created_at: at,
      updated_at: at,
    }));
    await db.insertInto('documents').values(rows).execute();
    // Each with its current period, as the writes keep them.
    const made = await db
      .selectFrom('documents')
      .select(['id', 'valid_to'])
      .where('number', 'like', 'LONG-%')
      .execute();
    for (const d of made) {
      const { id } = await db
        .insertInto('document_periods')
        .values({
          document_id: d.id,
          fleet_id: t.demo.fleetId,
          valid_from: null,
          valid_to: d.valid_to,
          cost: null,
          reminded_at: null,
          created_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.updateTable('documents').set({ period_id: id }).where('id', '=', d.id).execute();
    }
    const list = await viewer.get(`${api}/documents?owner_type=u&owner_id=${unitId}&type=registration`);
    expect(list.status).toBe(200);
    const long = (list.body.documents as { number: string; owner_name: string; ats: number }[]).filter((d) =>
      d.number.startsWith('LONG-'),
    );
    expect(long).toHaveLength(520);
    expect(long.every((d) => d.owner_name !== '' && d.ats === 0)).toBe(true);
    const ids = made.map((d) => d.id);
    await db.deleteFrom('document_periods').where('document_id', 'in', ids).execute();
    await db.deleteFrom('documents').where('id', 'in', ids).execute();
  });
});
