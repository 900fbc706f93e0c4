import type { AddressInfo } from 'node:net';
import { fleetZoneLabel, type ReportMailWire, reportMailPeriod, tzOffsetMinutes } from '@fleetkeep/core';
import ExcelJS from 'exceljs';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { translator } from '../../i18n/translator.js';
import { createServer } from '../../server.js';
import { type Client, startTestServer, TEST_DB, type TestServer } from '../../test/harness.js';
import { MAIL_NOT_CONFIGURED } from '../notification-channels/senders.js';
import { INTERRUPTED, REPORT_MAIL_SEND_LEASE_SECONDS, reportMailScheduler } from './scheduler.js';
import { OWNER_DENIED } from './send.js';
import { rmDb } from './tables.js';

/**
 * Report mails through the real server (decisions in core contracts/reportmails.ts):
 * CRUD and its validation, other fleets invisible, "send now" and the scheduler delivering the export
 * to a real SMTP server (smtp-server), each scheduled slot once — across a restart, and with two
 * instances on PostgreSQL.
 */

/** A real SMTP server keeping what arrives, parsed. */
async function startSmtp() {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((m) => {
          mails.push(m);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    mails,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const body = (over: Record<string, unknown> = {}) => ({
  name: 'Weekly costs',
  recipients: ['boss@example.com', 'fleet@example.com'],
  report: 'service-costs-by-object',
  format: 'xlsx',
  every: 'weekly',
  weekday: 1,
  hour: 7,
  lang: 'de',
  ...over,
});

describe('report mails', () => {
  let t: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let manager: Client;
  let viewer: Client;
  let mechanic: Client;
  let api: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestServer({ config: { smtpUrl: smtp.url } });
    manager = await t.login('manager');
    viewer = await t.login('viewer');
    mechanic = await t.login('mechanic');
    api = `/api/fleets/${t.demo.fleetId}/reportmails`;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const db = () => rmDb(t.server.ctx);
  beforeEach(async () => {
    await db().deleteFrom('report_mail_sends').execute();
    await db().deleteFrom('report_mails').execute();
    smtp.mails.length = 0;
  });

  async function create(over: Record<string, unknown> = {}): Promise<ReportMailWire> {
    const r = await manager.post(api, body(over));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  }
  /** Makes a mail due a minute ago, as if its slot had come. */
  async function makeDue(id: number, at = now() - 60) {
    await db().updateTable('report_mails').set({ next_due: at }).where('id', '=', id).execute();
    return at;
  }
  const fleetTz = async () =>
    (await db().selectFrom('fleets').select('tz').where('id', '=', t.demo.fleetId).executeTakeFirstOrThrow())
      .tz;
  const sends = (mailId: number) =>
    db().selectFrom('report_mail_sends').selectAll().where('mail_id', '=', mailId).orderBy('id').execute();

  describe('set-up', () => {
    it('creates, reads, lists, changes (GET → PUT round trip) and deletes', async () => {
      const created = await create();
      expect(created).toMatchObject({
        name: 'Weekly costs',
        enabled: 1,
        recipients: ['boss@example.com', 'fleet@example.com'],
        report: 'service-costs-by-object',
        group: 'none',
        ot: null,
        ids: [],
        format: 'xlsx',
        every: 'weekly',
        weekday: 1,
        monthday: 1,
        hour: 7,
        lang: 'de',
        owner_id: t.demo.users.manager,
        last_sent: null,
        last_ok: null,
        last_result: null,
      });
      // The next Monday 07:00 in the fleet zone, within a week.
      expect(created.next_due).toBeGreaterThan(now());
      expect(created.next_due).toBeLessThanOrEqual(now() + 7 * 86400);

      expect((await viewer.get(`${api}/${created.id}`)).body).toEqual(created);
      expect((await viewer.get(api)).body).toEqual({ reportmails: [created] });

      const read = (await manager.get(`${api}/${created.id}`)).body;
      const put = await manager.put(`${api}/${created.id}`, {
        ...read,
        every: 'monthly',
        monthday: 'last',
        hour: 9,
        format: 'pdf',
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body).toMatchObject({
        id: created.id,
        every: 'monthly',
        monthday: 'last',
        hour: 9,
        format: 'pdf',
      });
      expect(put.body.next_due).not.toBe(created.next_due);
      // Read-only fields sent back are ignored, not written.
      const forged = await manager.put(`${api}/${created.id}`, {
        owner_id: 999,
        last_result: 'x',
        name: 'N',
      });
      expect(forged.body).toMatchObject({ owner_id: t.demo.users.manager, last_result: null, name: 'N' });

      const off = await manager.put(`${api}/${created.id}`, { enabled: 0 });
      expect(off.body).toMatchObject({ enabled: 0, next_due: null });
      const on = await manager.put(`${api}/${created.id}`, { enabled: 1 });
      expect(on.body.next_due).toBeGreaterThan(now());

      expect((await manager.delete(`${api}/${created.id}`)).body).toEqual({ error: 0 });
      expect((await manager.get(`${api}/${created.id}`)).status).toBe(404);
      expect((await manager.delete(`${api}/${created.id}`)).status).toBe(404);
    });

    it('keeps the object filter consistent: ids need ot, a new ot drops old ids', async () => {
      const m = await create({ ot: 'u', ids: [5, 5, 7], group: 'month' });
      expect(m).toMatchObject({ ot: 'u', ids: [5, 7], group: 'month' });
      const changed = await manager.put(`${api}/${m.id}`, { ot: 'd' });
      expect(changed.body).toMatchObject({ ot: 'd', ids: [] });
      const cleared = await manager.put(`${api}/${m.id}`, { ot: null });
      expect(cleared.body).toMatchObject({ ot: null, ids: [] });
    });

    it.each([
      ['no recipients', { recipients: [] }, 'body.recipients'],
      ['a bad address', { recipients: ['boss@example.com', 'not an address'] }, 'body.recipients.1'],
      [
        'too many recipients',
        { recipients: Array.from({ length: 21 }, (_, i) => `u${i}@example.com`) },
        'body.recipients',
      ],
      ['an unknown report', { report: 'everything' }, 'body.report'],
      ['an unknown format', { format: 'docx' }, 'body.format'],
      ['an unknown schedule', { every: 'hourly' }, 'body.every'],
      ['hour 24', { hour: 24 }, 'body.hour'],
      ['weekday 0', { weekday: 0 }, 'body.weekday'],
      ['month day 29', { monthday: 29 }, 'body.monthday'],
      ['an unknown language', { lang: 'xx' }, 'body.lang'],
      ['ids without ot', { ids: [1] }, 'body.ids'],
      ['an empty name', { name: ' ' }, 'body.name'],
      ['an unknown field', { bcc: ['x@example.com'] }, 'body.bcc'],
    ])('refuses %s (400, nothing written)', async (_label, over, field) => {
      const r = await manager.post(api, body(over));
      expect(r.status).toBe(400);
      expect(r.body.error).toBe(4);
      expect(r.body.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(await db().selectFrom('report_mails').selectAll().execute()).toEqual([]);
    });

    it('refuses a bad change and a change of nothing, keeping the mail', async () => {
      const m = await create();
      expect((await manager.put(`${api}/${m.id}`, { hour: -1 })).status).toBe(400);
      expect((await manager.put(`${api}/${m.id}`, { recipients: ['x'] })).status).toBe(400);
      expect((await manager.put(`${api}/${m.id}`, {})).status).toBe(400);
      expect((await manager.get(`${api}/${m.id}`)).body).toEqual(m);
    });

    it('reads with report.view, writes with report.mail (viewService and admin)', async () => {
      const m = await create();
      expect((await viewer.get(api)).status).toBe(200);
      expect((await mechanic.get(`${api}/${m.id}`)).status).toBe(200);
      expect((await viewer.post(api, body())).status).toBe(403);
      expect((await mechanic.post(api, body())).status).toBe(403);
      expect((await mechanic.put(`${api}/${m.id}`, { name: 'x' })).status).toBe(403);
      expect((await mechanic.delete(`${api}/${m.id}`)).status).toBe(403);
      expect((await viewer.post(`${api}/${m.id}/send`)).status).toBe(403);
      expect(smtp.mails).toHaveLength(0);
      expect((await manager.get(`${api}/${m.id}`)).body.name).toBe('Weekly costs');
    });

    it("keeps another fleet's report mails invisible", async () => {
      const other = t.demo.otherFleetId;
      const t0 = now();
      const row = await db()
        .insertInto('report_mails')
        .values({
          fleet_id: other,
          owner_id: t.demo.users.outsider as number,
          name: 'Northwind',
          enabled: 1,
          recipients: '["nw@example.com"]',
          report: 'fuel',
          grouping: 'none',
          ot: null,
          ids: '[]',
          format: 'csv',
          every: 'daily',
          weekday: 1,
          monthday: '1',
          hour: 6,
          lang: 'en',
          next_due: t0 + 3600,
          last_sent: null,
          last_ok: null,
          last_result: null,
          created_at: t0,
          updated_at: t0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect((await manager.get(api)).body).toEqual({ reportmails: [] });
      expect((await manager.get(`${api}/${row.id}`)).status).toBe(404);
      expect((await manager.put(`${api}/${row.id}`, { name: 'Mine' })).status).toBe(404);
      expect((await manager.delete(`${api}/${row.id}`)).status).toBe(404);
      expect((await manager.post(`${api}/${row.id}/send`)).status).toBe(404);
      expect((await manager.get(`/api/fleets/${other}/reportmails`)).status).toBe(403);
      expect((await manager.post(`/api/fleets/${other}/reportmails`, body())).status).toBe(403);
      const kept = await db()
        .selectFrom('report_mails')
        .select('name')
        .where('id', '=', row.id)
        .executeTakeFirst();
      expect(kept?.name).toBe('Northwind');
      expect(smtp.mails).toHaveLength(0);
    });
  });

  describe('sending', () => {
    it('"send now" mails the XLSX export in the mail’s language and records the result', async () => {
      const m = await create();
      const r = await manager.post(`${api}/${m.id}/send`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.ok).toBe(true);
      expect(r.body.mail).toMatchObject({ id: m.id, last_ok: 1, last_result: 'sent' });
      expect(r.body.mail.last_sent).toBeGreaterThanOrEqual(now() - 5);
      expect((await viewer.get(`${api}/${m.id}`)).body.last_result).toBe('sent');

      expect(smtp.mails).toHaveLength(1);
      const mail = smtp.mails[0]!;
      const de = translator('de');
      expect(mail.subject).toContain(
        `${de('reportMails.mail.subject', { name: 'Weekly costs', from: '', to: '' }).split(':')[0]}`,
      );
      expect(mail.text).toContain(de('reports.type.service-costs-by-object'));
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : []).toEqual([
        'boss@example.com',
        'fleet@example.com',
      ]);
      expect(mail.attachments).toHaveLength(1);
      const file = mail.attachments[0]!;
      expect(file.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      // Weekly: the seven days before today in the fleet zone.
      const week = reportMailPeriod(await fleetTz(), 'weekly', now());
      expect(file.filename).toBe(`service-costs-by-object-${week.from}-${week.to}.xlsx`);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(file.content as unknown as ArrayBuffer);
      const sheet = book.worksheets[0]!;
      const cells = sheet.getSheetValues().flat().map(String);
      expect(cells).toContain(de('reports.type.service-costs-by-object'));
      // One clock (docs/product.md): "generated" on the fleet's clock, its zone named, whatever the
      // server's own zone (a mail's reader's clock is unknown).
      const tz = await fleetTz();
      const sent = now();
      const onFleetClock = (at: number) => {
        const d = new Date((at + tzOffsetMinutes(tz, at) * 60) * 1000);
        const two = (n: number) => String(n).padStart(2, '0');
        return `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} (${fleetZoneLabel(tz, at)})`;
      };
      const generated = cells[cells.indexOf(de('reports.export.generated')) + 1];
      expect([onFleetClock(sent), onFleetClock(sent - 60)]).toContain(generated);
      expect((await sends(m.id)).map((s) => [s.slot, s.state])).toEqual([[null, 'sent']]);
    });

    it('"send now" mails CSV and PDF files that open', async () => {
      const csv = await create({ name: 'CSV', format: 'csv', report: 'fuel', every: 'daily', lang: 'en' });
      const pdf = await create({ name: 'PDF', format: 'pdf', report: 'upcoming-overdue', every: 'monthly' });
      expect((await manager.post(`${api}/${csv.id}/send`)).body.ok).toBe(true);
      expect((await manager.post(`${api}/${pdf.id}/send`)).body.ok).toBe(true);
      expect(smtp.mails).toHaveLength(2);
      const [c, p] = smtp.mails.map((x) => x.attachments[0]!);
      expect(c!.contentType).toBe('text/csv');
      // Daily: yesterday in the fleet's zone (not the UTC date: near midnight they differ).
      const day = reportMailPeriod(await fleetTz(), 'daily', now());
      expect(c!.filename).toBe(`fuel-${day.from}-${day.to}.csv`);
      const text = c!.content.toString('utf8');
      expect(text.charCodeAt(0)).toBe(0xfeff);
      expect(text).toContain(translator('en')('reports.col.fuel_volume'));
      expect(p!.contentType).toBe('application/pdf');
      expect(p!.filename).toMatch(/^upcoming-overdue-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.pdf$/);
      expect(p!.content.subarray(0, 5).toString()).toBe('%PDF-');
      expect(p!.content.subarray(-8).toString()).toContain('%%EOF');
    });

    it('"send now" without SMTP_URL answers 409 and records nothing', async () => {
      const m = await create();
      const config = t.server.ctx.config;
      const url = config.smtpUrl;
      config.smtpUrl = undefined;
      try {
        const r = await manager.post(`${api}/${m.id}/send`);
        expect(r.status).toBe(409);
        expect(r.body).toEqual({ error: 10, reason: MAIL_NOT_CONFIGURED });
      } finally {
        config.smtpUrl = url;
      }
      expect(await sends(m.id)).toEqual([]);
      expect((await manager.get(`${api}/${m.id}`)).body.last_sent).toBeNull();
    });

    it('"send now" answers the mail server’s refusal and records it as the last send', async () => {
      const m = await create();
      const config = t.server.ctx.config;
      const url = config.smtpUrl;
      // Nothing listens on the discard port.
      config.smtpUrl = 'smtp://127.0.0.1:9';
      try {
        const r = await manager.post(`${api}/${m.id}/send`);
        expect(r.status).toBe(200);
        expect(r.body.ok).toBe(false);
        expect(r.body.reason).toMatch(/ECONNREFUSED|connect/i);
        expect(r.body.mail).toMatchObject({ last_ok: 0, last_result: r.body.reason });
      } finally {
        config.smtpUrl = url;
      }
      expect((await sends(m.id)).map((s) => s.state)).toEqual(['failed']);
    });

    it('the scheduler sends a due mail once, with its attachment, and moves next_due on', async () => {
      const m = await create({ every: 'daily', format: 'csv', lang: 'en' });
      const slot = await makeDue(m.id);
      const scheduler = reportMailScheduler(t.server.ctx);
      await scheduler.drain();
      await scheduler.drain();
      expect(smtp.mails).toHaveLength(1);
      // The day before the slot's day, in the fleet zone.
      const day = reportMailPeriod(await fleetTz(), 'daily', slot);
      expect(smtp.mails[0]!.attachments[0]!.filename).toBe(
        `service-costs-by-object-${day.from}-${day.to}.csv`,
      );
      const after = (await manager.get(`${api}/${m.id}`)).body;
      expect(after).toMatchObject({ last_ok: 1, last_result: 'sent' });
      expect(after.next_due).toBeGreaterThan(now());
      expect((await sends(m.id)).map((s) => [s.slot, s.state])).toEqual([[slot, 'sent']]);
    });

    it('after an outage sends only the latest missed slot', async () => {
      const m = await create({ every: 'daily', format: 'csv', lang: 'en' });
      await makeDue(m.id, now() - 3 * 86400 - 60);
      await reportMailScheduler(t.server.ctx).drain();
      expect(smtp.mails).toHaveLength(1);
      const [s] = await sends(m.id);
      expect(s!.slot).toBeGreaterThan(now() - 86400);
    });

    it('never sends a slot that is already recorded (a racing instance or a restart)', async () => {
      const m = await create({ every: 'daily', format: 'csv', lang: 'en' });
      const slot = await makeDue(m.id);
      // Another instance recorded this slot and died before advancing (or is still sending it).
      await db()
        .insertInto('report_mail_sends')
        .values({ fleet_id: t.demo.fleetId, mail_id: m.id, slot, state: 'sending', started_at: now() })
        .execute();
      await reportMailScheduler(t.server.ctx).drain();
      expect(smtp.mails).toHaveLength(0);
      expect((await manager.get(`${api}/${m.id}`)).body.next_due).toBeGreaterThan(now());
    });

    it('marks a send left unfinished by a killed process as interrupted, without sending it again', async () => {
      const m = await create({ every: 'daily', format: 'csv', lang: 'en' });
      const started = now() - REPORT_MAIL_SEND_LEASE_SECONDS - 60;
      await db()
        .insertInto('report_mail_sends')
        .values({
          fleet_id: t.demo.fleetId,
          mail_id: m.id,
          slot: started,
          state: 'sending',
          started_at: started,
        })
        .execute();
      await reportMailScheduler(t.server.ctx).drain();
      expect(smtp.mails).toHaveLength(0);
      expect((await sends(m.id)).map((s) => s.state)).toEqual(['interrupted']);
      expect((await manager.get(`${api}/${m.id}`)).body).toMatchObject({
        last_sent: started,
        last_ok: 0,
        last_result: INTERRUPTED,
      });
    });

    it('records "not configured" without SMTP_URL and keeps going', async () => {
      const m = await create({ every: 'daily', format: 'csv', lang: 'en' });
      await makeDue(m.id);
      const config = t.server.ctx.config;
      const url = config.smtpUrl;
      config.smtpUrl = undefined;
      try {
        await reportMailScheduler(t.server.ctx).drain();
      } finally {
        config.smtpUrl = url;
      }
      const after = (await manager.get(`${api}/${m.id}`)).body;
      expect(after).toMatchObject({ last_ok: 0, last_result: MAIL_NOT_CONFIGURED });
      expect(after.next_due).toBeGreaterThan(now());
      expect((await sends(m.id)).map((s) => s.state)).toEqual(['failed']);
    });

    it('stops sending for an owner who may no longer view reports', async () => {
      const m = await create({ every: 'daily', format: 'csv', lang: 'en' });
      await makeDue(m.id);
      // The account admin holds the admin bit only: no viewService.
      await db()
        .updateTable('report_mails')
        .set({ owner_id: t.demo.users.admin as number })
        .where('id', '=', m.id)
        .execute();
      await reportMailScheduler(t.server.ctx).drain();
      expect(smtp.mails).toHaveLength(0);
      expect((await manager.get(`${api}/${m.id}`)).body).toMatchObject({
        last_ok: 0,
        last_result: OWNER_DENIED,
      });
    });

    it('switched-off mails are not sent', async () => {
      const m = await create({ every: 'daily', enabled: 0 });
      await makeDue(m.id);
      await reportMailScheduler(t.server.ctx).drain();
      expect(smtp.mails).toHaveLength(0);
    });

    // Several instances share one database only on PostgreSQL (SQLite: one instance).
    if (TEST_DB === 'postgres')
      it('two instances on one PostgreSQL send each due mail exactly once, also after a restart', async () => {
        const ids: number[] = [];
        for (let i = 0; i < 4; i++)
          ids.push((await create({ name: `Shared ${i}`, every: 'daily', format: 'csv', lang: 'en' })).id);
        for (const id of ids) await makeDue(id);
        const second = await createServer(t.config);
        try {
          await Promise.all([
            reportMailScheduler(t.server.ctx).drain(),
            reportMailScheduler(second.ctx).drain(),
            reportMailScheduler(second.ctx).drain(),
          ]);
        } finally {
          await second.close();
        }
        expect(smtp.mails).toHaveLength(4);
        expect(new Set(smtp.mails.map((x) => x.subject)).size).toBe(4);
        // A restarted instance finds nothing left to send.
        const third = await createServer(t.config);
        try {
          await reportMailScheduler(third.ctx).drain();
        } finally {
          await third.close();
        }
        expect(smtp.mails).toHaveLength(4);
        for (const id of ids) expect((await sends(id)).map((s) => s.state)).toEqual(['sent']);
      });
  });
});
