import {
  MONTHDAY_LAST,
  type ReportFormat,
  type ReportGroup,
  type ReportMailEvery,
  type ReportMailWire,
  type ReportType,
  type RouteBody,
  reportMailBody,
  reportMailUpdateBody,
  type routes,
} from '@fleetkeep/core';
import type { CoreSchema } from '../../../lib/coreResolver.ts';

/**
 * Pure rules of the report-mail editor (core contracts/reportmails.ts): the form's draft from a mail (or
 * the defaults of a new one), the core contract it is checked with, the request body, and which form
 * field a server issue belongs to.
 */

export interface ReportMailDraft {
  name: string;
  enabled: boolean;
  /** The recipients as typed: one per line or separated by commas or semicolons. */
  recipients: string;
  report: ReportType;
  group: ReportGroup;
  ot: 'u' | 'd' | 't' | null;
  ids: number[];
  format: ReportFormat;
  every: ReportMailEvery;
  weekday: number;
  /** '1' … '28' or 'last', as the select holds it. */
  monthday: string;
  hour: number;
  lang: string;
}

export type DraftField = 'name' | 'recipients' | 'hour' | 'weekday' | 'monthday' | 'ids';

/** A new mail: weekly on Monday at 06:00, XLSX, in the user's language. */
export function draftOf(mail: ReportMailWire | null, lang: string, report: ReportType): ReportMailDraft {
  if (!mail)
    return {
      name: '',
      enabled: true,
      recipients: '',
      report,
      group: 'none',
      ot: null,
      ids: [],
      format: 'xlsx',
      every: 'weekly',
      weekday: 1,
      monthday: '1',
      hour: 6,
      lang,
    };
  return {
    name: mail.name,
    enabled: mail.enabled === 1,
    recipients: mail.recipients.join('\n'),
    report: mail.report,
    group: mail.group,
    ot: mail.ot,
    ids: mail.ids,
    format: mail.format,
    every: mail.every,
    weekday: mail.weekday,
    monthday: String(mail.monthday),
    hour: mail.hour,
    lang: mail.lang,
  };
}

/** The addresses of the recipients text, each once, in the order typed. */
export function recipientList(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const v = part.trim();
    if (v && !out.includes(v)) out.push(v);
  }
  return out;
}

/**
 * The core contract a save is checked with before it is sent: the POST body of a new mail, the PUT body
 * of a saved one.
 */
export function mailSchema(mail: ReportMailWire | null): CoreSchema {
  return mail ? reportMailUpdateBody : reportMailBody;
}

/** The body of a create or change (core `reportMailBody`; the change takes the same fields). */
export type ReportMailSendBody = RouteBody<typeof routes.reportmails.create>;

/** The POST or PUT body of a draft (a PUT sends every field: the form holds them all). */
export function mailBody(d: ReportMailDraft): ReportMailSendBody {
  return {
    name: d.name.trim(),
    enabled: d.enabled ? 1 : 0,
    recipients: recipientList(d.recipients),
    report: d.report,
    group: d.group,
    ot: d.ot,
    ids: d.ot ? d.ids : [],
    format: d.format,
    every: d.every,
    weekday: d.weekday,
    monthday: d.monthday === MONTHDAY_LAST ? MONTHDAY_LAST : Number(d.monthday),
    hour: d.hour,
    // The language select offers the app's languages only (core LANGUAGES); the server checks it.
    lang: d.lang as ReportMailSendBody['lang'],
  };
}

/** The form field of a server issue on the body (`recipients.3` → recipients), or null. */
export function serverFieldOf(path: readonly string[]): DraftField | null {
  const head = path[0];
  if (head === 'name' || head === 'recipients' || head === 'hour' || head === 'weekday') return head;
  if (head === 'monthday' || head === 'ids') return head;
  return null;
}

/** "06:00": an hour of the day as the schedule shows it. */
export const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** The name of an ISO weekday (1 Monday … 7 Sunday) in a language. */
export function weekdayName(weekday: number, lang: string): string {
  // 2024-01-01 was a Monday.
  const day = new Date(Date.UTC(2024, 0, weekday));
  try {
    return new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' }).format(day);
  } catch {
    return new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' }).format(day);
  }
}

/** The parts of a schedule's text: how often, on which day (none for daily), at which hour. */
export function scheduleParts(
  m: Pick<ReportMailWire, 'every' | 'weekday' | 'monthday' | 'hour'>,
  lang: string,
  t: (key: string, values?: Record<string, unknown>) => string,
): string[] {
  const parts = [t(`reportMails.every_${m.every}`)];
  if (m.every === 'weekly') parts.push(weekdayName(m.weekday, lang));
  if (m.every === 'monthly')
    parts.push(
      m.monthday === MONTHDAY_LAST
        ? t('reportMails.monthdayLast')
        : t('reportMails.dayN', { day: m.monthday }),
    );
  parts.push(hourText(m.hour));
  return parts;
}
