import { latestReportMailSlot, nextReportMailDue, REPORT_MAIL_RESULT_MAX } from '@fleetkeep/core';
import { type AppContext, now } from '../../context.js';
import { Poller, perContext } from '../../jobs/poller.js';
import { scheduleOf } from './mappers.js';
import { type ReportMailResult, SENT, sendReportMail } from './send.js';
import { type ReportMailDb, type ReportMailRow, rmDb } from './tables.js';

/**
 * The report-mail scheduler (core contracts/reportmails.ts decision 5): started with
 * the server, stopped on close, it looks every `REPORT_MAIL_POLL_MS` for switched-on mails whose
 * `next_due` has come. In one short transaction it locks them (`FOR UPDATE SKIP LOCKED` on PostgreSQL,
 * so several instances never take the same mail; SQLite has one instance), records the slot in
 * `report_mail_sends` ('sending'; the unique (mail, slot) key refuses a second record of a slot) and
 * advances `next_due` past now. Only after that commit is the mail built and handed to SMTP, and the
 * result recorded. At most once: a process killed after the commit and before the result leaves the
 * slot 'sending'; after `REPORT_MAIL_SEND_LEASE_SECONDS` a later round marks it 'interrupted' and it is
 * not sent again (a missed report is preferred to a duplicate).
 */

/** How often the scheduler looks for due report mails. */
export const REPORT_MAIL_POLL_MS = 60_000;
/** Mails claimed per round. */
export const REPORT_MAIL_CLAIM_BATCH = 10;
/** How long a send may stay 'sending' before it counts as interrupted (longer than any one send). */
export const REPORT_MAIL_SEND_LEASE_SECONDS = 30 * 60;
/** The result of a send whose process stopped before it recorded one. */
export const INTERRUPTED = 'Interrupted before the result was known; not sent again to avoid a duplicate';

interface Claimed {
  row: ReportMailRow;
  sendId: number;
  slot: number;
}

const clip = (text: string) => text.slice(0, REPORT_MAIL_RESULT_MAX);

/** Records a send's result on its log row and as the mail's last send. */
export async function recordSend(
  db: ReportMailDb,
  row: ReportMailRow,
  sendId: number,
  result: ReportMailResult,
): Promise<void> {
  const text = clip(result.ok ? SENT : (result.reason ?? 'Failed'));
  const t = now();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('report_mail_sends')
      .set({ state: result.ok ? 'sent' : 'failed', finished_at: t, result: text })
      .where('id', '=', sendId)
      .execute();
    await trx
      .updateTable('report_mails')
      .set({ last_sent: t, last_ok: result.ok ? 1 : 0, last_result: text })
      .where('id', '=', row.id)
      .where('fleet_id', '=', row.fleet_id)
      .execute();
  });
}

export class ReportMailScheduler extends Poller {
  constructor(ctx: AppContext) {
    super(ctx, { name: 'report mails', everyMs: REPORT_MAIL_POLL_MS, batch: REPORT_MAIL_CLAIM_BATCH });
  }

  /** Sends left 'sending' by a process that died are marked first. */
  protected override prepare(): Promise<void> {
    return this.sweep();
  }

  protected async round(): Promise<number> {
    const claimed = await this.claim();
    for (const c of claimed) {
      let result: ReportMailResult;
      try {
        result = await sendReportMail(this.ctx, c.row, c.slot);
      } catch (err) {
        result = { ok: false, reason: err instanceof Error ? err.message : String(err) };
      }
      await recordSend(rmDb(this.ctx), c.row, c.sendId, result);
    }
    return claimed.length;
  }

  /** Locks due mails, records one slot each and advances `next_due`, all in one committed transaction. */
  private async claim(): Promise<Claimed[]> {
    const { ctx } = this;
    const t = now();
    return rmDb(ctx)
      .transaction()
      .execute(async (trx) => {
        const rows = await ctx.db.ops
          .forUpdateSkipLocked(
            trx
              .selectFrom('report_mails')
              .selectAll()
              .where('enabled', '=', 1)
              .where('next_due', 'is not', null)
              .where('next_due', '<=', t)
              .orderBy('next_due')
              .orderBy('id')
              .limit(REPORT_MAIL_CLAIM_BATCH),
          )
          .execute();
        const out: Claimed[] = [];
        for (const row of rows) {
          const fleet = await trx
            .selectFrom('fleets')
            .select('tz')
            .where('id', '=', row.fleet_id)
            .executeTakeFirst();
          const tz = fleet?.tz ?? 0;
          const schedule = scheduleOf(row);
          const slot = latestReportMailSlot(tz, schedule, row.next_due as number, t);
          const sent = await trx
            .insertInto('report_mail_sends')
            .values({ fleet_id: row.fleet_id, mail_id: row.id, slot, state: 'sending', started_at: t })
            .onConflict((oc) => oc.columns(['mail_id', 'slot']).doNothing())
            .returning('id')
            .executeTakeFirst();
          await trx
            .updateTable('report_mails')
            .set({ next_due: nextReportMailDue(tz, schedule, slot) })
            .where('id', '=', row.id)
            .execute();
          if (sent) out.push({ row, sendId: sent.id, slot });
        }
        return out;
      });
  }

  /** Sends left 'sending' beyond the lease (their process died) become 'interrupted'; never re-sent. */
  private async sweep(): Promise<void> {
    const db = rmDb(this.ctx);
    const t = now();
    const stale = await db
      .updateTable('report_mail_sends')
      .set({ state: 'interrupted', finished_at: t, result: INTERRUPTED })
      .where('state', '=', 'sending')
      .where('started_at', '<', t - REPORT_MAIL_SEND_LEASE_SECONDS)
      .returning(['mail_id', 'slot', 'started_at'])
      .execute();
    for (const s of stale)
      await db
        .updateTable('report_mails')
        .set({ last_sent: s.started_at, last_ok: 0, last_result: INTERRUPTED })
        .where('id', '=', s.mail_id)
        .where((eb) => eb.or([eb('last_sent', 'is', null), eb('last_sent', '<', s.started_at)]))
        .execute();
  }
}

/** The instance's report-mail scheduler (made on first use). */
export const reportMailScheduler = perContext((ctx) => new ReportMailScheduler(ctx));

/** Starts the report-mail scheduler of a server instance (server.ts); `close()` stops it. */
export function startReportMailScheduler(ctx: AppContext): ReportMailScheduler {
  const s = reportMailScheduler(ctx);
  s.start();
  return s;
}
