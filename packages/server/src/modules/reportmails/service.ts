import {
  nextReportMailDue,
  REPORT_MAILS_MAX,
  type ReportMailBody,
  type ReportMailSendReply,
  type ReportMailUpdateBody,
} from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { conflict, notFound } from '../../http/errors.js';
import { MAIL_NOT_CONFIGURED } from '../notification-channels/senders.js';
import { reportMailToWire, scheduleOf } from './mappers.js';
import { recordSend } from './scheduler.js';
import { type ReportMailResult, sendReportMail } from './send.js';
import { type ReportMailTable, rmDb, rmTrx } from './tables.js';

/**
 * The fleet's report mails (spec §7 "Report mails"; decisions in core
 * contracts/reportmails.ts): read with `report.view`, written and sent with `report.mail`, only the
 * fleet's own mails (another fleet's id answers 404 like a missing one).
 */

const NOT_FOUND = 'Report mail not found';

async function mailRow(ctx: AppContext, fleetId: number, id: number) {
  const row = await rmDb(ctx)
    .selectFrom('report_mails')
    .selectAll()
    .where('id', '=', id)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

/** The next slot after now, or null while switched off. */
function nextDue(
  tz: number,
  row: Pick<ReportMailTable, 'enabled' | 'every' | 'weekday' | 'monthday' | 'hour'>,
) {
  if (row.enabled !== 1) return null;
  return nextReportMailDue(tz, scheduleOf(row as never), now());
}

export async function listReportMails(ctx: AppContext, actor: Actor, fleetId: number) {
  await requireFleet(ctx, actor, fleetId, 'report.view');
  const rows = await rmDb(ctx)
    .selectFrom('report_mails')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return { reportmails: rows.map(reportMailToWire) };
}

export async function getReportMail(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'report.view');
  return reportMailToWire(await mailRow(ctx, fleetId, id));
}

export async function createReportMail(ctx: AppContext, actor: Actor, fleetId: number, b: ReportMailBody) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'report.mail');
  const t = now();
  const fields = {
    fleet_id: fleetId,
    owner_id: actor.userId,
    name: b.name,
    enabled: b.enabled,
    recipients: JSON.stringify([...new Set(b.recipients)]),
    report: b.report,
    grouping: b.group,
    ot: b.ot,
    ids: JSON.stringify(b.ot ? [...new Set(b.ids)] : []),
    format: b.format,
    every: b.every,
    weekday: b.weekday,
    monthday: String(b.monthday),
    hour: b.hour,
    lang: b.lang,
    last_sent: null,
    last_ok: null,
    last_result: null,
    created_at: t,
    updated_at: t,
  };
  const row = await unitOfWork(ctx, async (db) => {
    const trx = rmTrx(db);
    const count = await trx
      .selectFrom('report_mails')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('fleet_id', '=', fleetId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= REPORT_MAILS_MAX)
      throw conflict(`A fleet has at most ${REPORT_MAILS_MAX} report mails`);
    return trx
      .insertInto('report_mails')
      .values({ ...fields, next_due: nextDue(fleet.tz, fields) })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return reportMailToWire(row);
}

export async function updateReportMail(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
  b: ReportMailUpdateBody,
) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'report.mail');
  const row = await unitOfWork(ctx, async (db) => {
    const trx = rmTrx(db);
    const before = await ctx.db.ops
      .forUpdate(
        trx.selectFrom('report_mails').selectAll().where('id', '=', id).where('fleet_id', '=', fleetId),
      )
      .executeTakeFirst();
    if (!before) throw notFound(NOT_FOUND);
    const ot = b.ot === undefined ? before.ot : b.ot;
    // A new object type (or none) drops the chosen objects unless new ones are sent.
    const ids = b.ids ?? (ot === before.ot ? JSON.parse(before.ids) : []);
    const next = {
      name: b.name ?? before.name,
      enabled: b.enabled ?? before.enabled,
      recipients: b.recipients ? JSON.stringify([...new Set(b.recipients)]) : before.recipients,
      report: b.report ?? before.report,
      grouping: b.group ?? before.grouping,
      ot,
      ids: JSON.stringify(ot ? [...new Set(ids as number[])] : []),
      format: b.format ?? before.format,
      every: b.every ?? before.every,
      weekday: b.weekday ?? before.weekday,
      monthday: b.monthday === undefined ? before.monthday : String(b.monthday),
      hour: b.hour ?? before.hour,
      lang: b.lang ?? before.lang,
    };
    const scheduleChanged =
      next.enabled !== before.enabled ||
      next.every !== before.every ||
      next.weekday !== before.weekday ||
      next.monthday !== before.monthday ||
      next.hour !== before.hour ||
      (next.enabled === 1 && before.next_due === null);
    return trx
      .updateTable('report_mails')
      .set({
        ...next,
        owner_id: actor.userId,
        next_due: scheduleChanged ? nextDue(fleet.tz, next) : before.next_due,
        updated_at: now(),
      })
      .where('id', '=', id)
      .where('fleet_id', '=', fleetId)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return reportMailToWire(row);
}

export async function deleteReportMail(ctx: AppContext, actor: Actor, fleetId: number, id: number) {
  await requireFleet(ctx, actor, fleetId, 'report.mail');
  await unitOfWork(ctx, async (db) => {
    const trx = rmTrx(db);
    await trx
      .deleteFrom('report_mail_sends')
      .where('mail_id', '=', id)
      .where('fleet_id', '=', fleetId)
      .execute();
    const gone = await trx
      .deleteFrom('report_mails')
      .where('id', '=', id)
      .where('fleet_id', '=', fleetId)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) throw notFound(NOT_FOUND);
  });
  return { error: 0 as const };
}

/**
 * "Send now" (PRODUCT.md "sent at once as a test"): the report of the period before today, as the
 * caller may see it, mailed at once; the result is the reply and the mail's last send. Without
 * `SMTP_URL`: 409 and nothing recorded.
 */
export async function sendReportMailNow(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: number,
): Promise<ReportMailSendReply> {
  await requireFleet(ctx, actor, fleetId, 'report.mail');
  const row = await mailRow(ctx, fleetId, id);
  if (!ctx.config.smtpUrl) throw conflict(MAIL_NOT_CONFIGURED);
  const db = rmDb(ctx);
  const t = now();
  const send = await db
    .insertInto('report_mail_sends')
    .values({ fleet_id: fleetId, mail_id: id, slot: null, state: 'sending', started_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  let result: ReportMailResult;
  try {
    result = await sendReportMail(ctx, row, t, actor);
  } catch (err) {
    result = { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
  await recordSend(db, row, send.id, result);
  const mail = reportMailToWire(await mailRow(ctx, fleetId, id));
  return result.reason === undefined
    ? { ok: result.ok, mail }
    : { ok: result.ok, reason: result.reason, mail };
}
