// CONTRACT READY
import { z } from 'zod';
import { LANGUAGES, Limits } from '../constants.js';
import { MONTHDAY_LAST, REPORT_MAIL_EVERY } from '../reportmails.js';
import { acceptingReadOnly, flag, id, objectType, unixTime } from './common.js';
import { EMAIL_MAX } from './notification-channels.js';
import { REPORT_FORMATS, REPORT_GROUPS, REPORT_IDS_MAX, REPORT_TYPES } from './reports.js';

/**
 * Wire contracts of the report mails (spec §7 "Report mails": POST and GET
 * `/api/fleets/{fleetId}/reportmails`, GET, PUT and DELETE `.../reportmails/{id}`; PRODUCT.md "Reports":
 * a report definition with recipients, format and schedule sent by e-mail on schedule, and at once as a
 * test). Besides the spec's five calls: `POST .../reportmails/{id}/send` ("send now").
 *
 * Decisions:
 *
 * 1. Who may call (spec §6 names no report-mail right). Reading (list, one) needs `report.view`
 *    (viewService; reports are an operational screen). Creating, changing, deleting and "send now" need
 *    `report.mail`: viewService AND the admin bit, because a report mail sends fleet data to outside
 *    addresses on its own, and spec §6 says "Admins set up fleet notifications (... e-mail)".
 * 2. Whose rights a scheduled send uses: the mail's owner's, the user who last created or changed it
 *    (`owner_id`, read-only). When the owner no longer may view reports of the fleet, the send fails
 *    with that reason (a user who left the fleet sends no more data through an old mail).
 * 3. Period: fixed by the schedule, relative to the fleet-local day of the send (its slot, or the moment
 *    of "send now"): `daily` the day before, `weekly` the seven days before (Monday: the ISO week
 *    before), `monthly` the calendar month before (core `reportMailPeriod`).
 * 4. Schedule: `every` daily | weekly (`weekday` ISO 1 Monday … 7 Sunday) | monthly (`monthday` 1 … 28 or
 *    "last"), at `hour` 0 … 23 in the fleet's time zone, daylight saving included (core
 *    `nextReportMailDue`). `weekday` and `monthday` are kept (and answered) whatever `every` says.
 * 5. Sending: each scheduled slot is sent at most once, across instances and restarts. A slot is recorded
 *    (committed) before its mail is handed to SMTP; a process killed in between leaves the slot
 *    "interrupted", not sent again: a missed report is preferred to a duplicate. A failed send is not
 *    retried; the next slot sends the next period. After an outage only the latest missed slot is sent.
 *    `next_due` is null while the mail is switched off.
 * 6. The file is the report export (contracts/reports.ts decision 7) worded in the mail's `lang`, with the
 *    fleet's currency, units and zone; the mail's text is in `lang` too.
 * 7. "Send now" sends at once and answers the result `{ok, reason?}`; without `SMTP_URL` it answers
 *    409 `{error: 10, reason}` and records nothing. Its result is the mail's `last_result` as well.
 */

/** Recipients one report mail may name. */
export const REPORT_MAIL_RECIPIENTS_MAX = 20;
/** Report mails per fleet. */
export const REPORT_MAILS_MAX = 50;
/** Characters of a send's result text kept. */
export const REPORT_MAIL_RESULT_MAX = 500;

const email = z
  .string()
  .trim()
  .max(EMAIL_MAX)
  .pipe(z.email({ message: 'Must be an e-mail address' }));

const monthday = z
  .union([z.number().int().min(1).max(28), z.literal(MONTHDAY_LAST)])
  .describe('Day of the month 1 … 28, or "last"');

const reportMailFields = z.strictObject({
  name: z.string().trim().min(1).max(Limits.stringMax).describe('Name'),
  enabled: flag.default(1).describe('Switched on: sent on schedule'),
  recipients: z
    .array(email)
    .min(1)
    .max(REPORT_MAIL_RECIPIENTS_MAX)
    .describe(`E-mail addresses (at most ${REPORT_MAIL_RECIPIENTS_MAX})`),
  report: z.enum(REPORT_TYPES).describe('Report type (contracts/reports.ts)'),
  group: z.enum(REPORT_GROUPS).default('none').describe('Grouping: day, week, month or none'),
  ot: objectType.nullable().default(null).describe('Only objects of this type (null: every object)'),
  ids: z
    .array(id)
    .max(REPORT_IDS_MAX)
    .default([])
    .describe('Only these objects of type `ot` (empty: all of that type)'),
  format: z.enum(REPORT_FORMATS).describe('Attached file: xlsx, csv or pdf'),
  every: z.enum(REPORT_MAIL_EVERY).describe('daily, weekly or monthly'),
  weekday: z.number().int().min(1).max(7).default(1).describe('weekly: ISO weekday, 1 Monday … 7 Sunday'),
  monthday: monthday.default(1),
  hour: z.number().int().min(0).max(23).default(6).describe('Send hour in the fleet’s time zone'),
  lang: z.enum(LANGUAGES).describe('Language of the mail and the file'),
});

const idsNeedOt = (b: { ids?: number[]; ot?: string | null }) => !b.ids?.length || (b.ot ?? null) !== null;
const idsNeedOtIssue = { message: 'ids needs ot', path: ['ids'] };

/** `POST /api/fleets/{fid}/reportmails`. */
export const reportMailBody = reportMailFields.refine(idsNeedOt, idsNeedOtIssue);
export type ReportMailBody = z.output<typeof reportMailBody>;

/** Read-only fields of the reply, accepted and ignored on PUT (the GET → PUT round trip). */
export const REPORT_MAIL_READ_ONLY = [
  'id',
  'owner_id',
  'last_sent',
  'last_ok',
  'last_result',
  'next_due',
] as const;

/** `PUT /api/fleets/{fid}/reportmails/{id}`: any of the fields; the mail as read is accepted. */
export const reportMailUpdateBody = acceptingReadOnly(
  reportMailFields
    .partial()
    .extend({
      enabled: flag.optional(),
      group: z.enum(REPORT_GROUPS).optional(),
      ot: objectType.nullable().optional(),
      ids: z.array(id).max(REPORT_IDS_MAX).optional(),
      weekday: z.number().int().min(1).max(7).optional(),
      monthday: monthday.optional(),
      hour: z.number().int().min(0).max(23).optional(),
    })
    .refine(idsNeedOt, idsNeedOtIssue),
  REPORT_MAIL_READ_ONLY,
);
export type ReportMailUpdateBody = z.output<typeof reportMailUpdateBody>;

export const reportMailWire = z.object({
  id,
  name: z.string(),
  enabled: flag,
  recipients: z.array(z.string()),
  report: z.enum(REPORT_TYPES),
  group: z.enum(REPORT_GROUPS),
  ot: objectType.nullable(),
  ids: z.array(z.number().int()),
  format: z.enum(REPORT_FORMATS),
  every: z.enum(REPORT_MAIL_EVERY),
  weekday: z.number().int(),
  monthday: z.union([z.number().int(), z.literal(MONTHDAY_LAST)]),
  hour: z.number().int(),
  lang: z.string(),
  owner_id: z.number().int().describe('Whose rights the scheduled sends use (decision 2)'),
  next_due: unixTime.nullable().describe('The next scheduled send, Unix seconds (null: switched off)'),
  last_sent: unixTime.nullable().describe('The last send (scheduled or "send now"), Unix seconds'),
  last_ok: flag.nullable().describe('1 when the last send was handed to the mail server'),
  last_result: z.string().nullable().describe('The last send’s result: "sent", or why it failed'),
});
export type ReportMailWire = z.infer<typeof reportMailWire>;

export const reportMailListReply = z.object({
  reportmails: z.array(reportMailWire).describe('Ordered by name'),
});
export type ReportMailListReply = z.infer<typeof reportMailListReply>;

/** `POST .../reportmails/{id}/send`: the send's result. */
export const reportMailSendReply = z.object({
  ok: z.boolean(),
  reason: z.string().optional().describe('Why it failed (the mail server’s answer or the error)'),
  mail: reportMailWire.describe('The report mail with this send as its last one'),
});
export type ReportMailSendReply = z.infer<typeof reportMailSendReply>;
