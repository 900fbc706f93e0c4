import {
  DEFAULT_SETTINGS,
  type ReportFormat,
  type ReportGroup,
  type ReportMailEvery,
  type ReportType,
  reportMailPeriod,
} from '@fleetkeep/core';
import nodemailer from 'nodemailer';
import { type Actor, FULL_MASK } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { formatterFor } from '../../i18n/formatter.js';
import {
  escapeHtml,
  MAIL_NOT_CONFIGURED,
  mailFrom,
  REASON_MAX,
  SMTP_TIMEOUT_MS,
} from '../notification-channels/senders.js';
import { reportCsv } from '../reports/export/csv.js';
import { reportPdf } from '../reports/export/pdf.js';
import { exportTable } from '../reports/export/table.js';
import { reportXlsx } from '../reports/export/xlsx.js';
import { buildReport } from '../reports/service.js';
import { idsOf, recipientsOf } from './mappers.js';
import type { ReportMailRow } from './tables.js';

/**
 * One report mail sent (core contracts/reportmails.ts decisions 2, 3 and 6): the report
 * of the period before the send's day built with the reports module (as the user `actor` may see it),
 * exported in the mail's language with the fleet's currency, units and zone, and mailed through
 * `SMTP_URL` with the file attached. Answers `{ok, reason?}`; writes nothing (the scheduler and "send
 * now" record the result).
 */

export interface ReportMailResult {
  ok: boolean;
  reason?: string;
}

/** The result text of a send that reached the mail server. */
export const SENT = 'sent';
export const OWNER_GONE = 'The report mail’s owner no longer exists or is deactivated';
export const OWNER_DENIED = 'The report mail’s owner may no longer view reports of this fleet';

const CONTENT_TYPES: Record<ReportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
};

const clip = (text: string) => (text.length > REASON_MAX ? `${text.slice(0, REASON_MAX)}…` : text);
const failure = (reason: string): ReportMailResult => ({ ok: false, reason: clip(reason) });

/** The mail's owner as an actor with a password login's rights (decision 2); null when gone. */
export async function ownerActor(ctx: AppContext, row: ReportMailRow): Promise<Actor | null> {
  const u = await ctx.db.kysely
    .selectFrom('users')
    .select(['id', 'name', 'account_id', 'su', 'admin', 'active'])
    .where('id', '=', row.owner_id)
    .executeTakeFirst();
  if (!u || u.active === 0) return null;
  return {
    userId: u.id,
    name: u.name,
    accountId: u.account_id,
    su: Boolean(u.su),
    admin: Boolean(u.admin),
    sessionId: null,
    aclMask: FULL_MASK,
    apiTokenId: null,
  };
}

/** The attachment of a report mail: the export of its report for the period before `at`. */
export async function reportMailFile(ctx: AppContext, actor: Actor, row: ReportMailRow, at: number) {
  const tzRow = await ctx.db.kysely
    .selectFrom('fleets')
    .select('tz')
    .where('id', '=', row.fleet_id)
    .executeTakeFirstOrThrow();
  const period = reportMailPeriod(tzRow.tz, row.every as ReportMailEvery, at);
  const ids = idsOf(row);
  const { fleet, report } = await buildReport(ctx, actor, row.fleet_id, row.report as ReportType, {
    ...period,
    group: row.grouping as ReportGroup,
    ...(row.ot ? { ot: row.ot as 'u' | 'd' | 't' } : {}),
    ...(row.ot && ids.length ? { ids: ids.join(',') } : {}),
  });
  const f = formatterFor({ lang: row.lang, fleet });
  const table = exportTable(report, f, fleet.name, fleet.cur);
  const format = row.format as ReportFormat;
  const data =
    format === 'xlsx'
      ? await reportXlsx(table, DEFAULT_SETTINGS.dateFormat)
      : format === 'csv'
        ? reportCsv(table)
        : await reportPdf(table);
  return {
    name: table.fileName(format),
    contentType: CONTENT_TYPES[format],
    data,
    f,
    fleetName: fleet.name,
    period,
  };
}

/** Builds and mails a report mail for the send at `at` as `actor` (the owner when null is passed). */
export async function sendReportMail(
  ctx: AppContext,
  row: ReportMailRow,
  at: number,
  actor?: Actor,
): Promise<ReportMailResult> {
  const { config } = ctx;
  if (!config.smtpUrl) return failure(MAIL_NOT_CONFIGURED);
  const who = actor ?? (await ownerActor(ctx, row));
  if (!who) return failure(OWNER_GONE);
  let file: Awaited<ReturnType<typeof reportMailFile>>;
  try {
    file = await reportMailFile(ctx, who, row, at);
  } catch (err) {
    if (err instanceof AppError && err.status === 403) return failure(OWNER_DENIED);
    return failure(`The report could not be made: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { f } = file;
  const values = {
    name: row.name,
    report: f.t(`reports.type.${row.report}`),
    fleet: file.fleetName,
    from: f.day(file.period.from),
    to: f.day(file.period.to),
  };
  const subject = f.t('reportMails.mail.subject', values);
  const intro = f.t('reportMails.mail.body', values);
  const text = `${intro}\n\n${file.name}\n`;
  const html = `<!doctype html><html><body style="font-family:sans-serif"><p>${escapeHtml(intro)}</p><p>${escapeHtml(file.name)}</p></body></html>`;
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  try {
    await transport.sendMail({
      from: mailFrom(config),
      to: recipientsOf(row),
      subject,
      text,
      html,
      attachments: [{ filename: file.name, content: file.data, contentType: file.contentType }],
    });
    return { ok: true };
  } catch (err) {
    return failure(err instanceof Error ? err.message : String(err));
  } finally {
    transport.close();
  }
}
