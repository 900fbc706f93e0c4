import type { ReportMailWire } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { schemaProblems } from '../../../lib/coreResolver.ts';
import {
  draftOf,
  mailBody,
  mailSchema,
  type ReportMailDraft,
  recipientList,
  scheduleParts,
  serverFieldOf,
  weekdayName,
} from './rules.ts';

/** The form's problems: the draft's body under the core contract of a new mail, by field. */
function draftProblems(draft: ReportMailDraft) {
  const found = schemaProblems(mailSchema(null), mailBody(draft), serverFieldOf);
  return Object.fromEntries(Object.entries(found.fields).map(([field, p]) => [field, p?.problem]));
}

const MAIL: ReportMailWire = {
  id: 3,
  name: 'Costs',
  enabled: 0,
  recipients: ['a@example.com', 'b@example.com'],
  report: 'fuel',
  group: 'month',
  ot: 'u',
  ids: [4, 9],
  format: 'pdf',
  every: 'monthly',
  weekday: 2,
  monthday: 'last',
  hour: 18,
  lang: 'de',
  owner_id: 1,
  next_due: null,
  last_sent: null,
  last_ok: null,
  last_result: null,
};
const t = (key: string, values?: Record<string, unknown>) =>
  values ? `${key}:${JSON.stringify(values)}` : key;

describe('report-mail editor rules', () => {
  it('reads recipients one per line or separated by commas and semicolons, each once', () => {
    expect(recipientList(' a@x.com,b@x.com;\n a@x.com  c@x.com\n\n')).toEqual([
      'a@x.com',
      'b@x.com',
      'c@x.com',
    ]);
    expect(recipientList('   ')).toEqual([]);
  });

  it('round-trips a mail through the draft into the same body', () => {
    const body = mailBody(draftOf(MAIL, 'en', 'fuel'));
    expect(body).toEqual({
      name: 'Costs',
      enabled: 0,
      recipients: MAIL.recipients,
      report: 'fuel',
      group: 'month',
      ot: 'u',
      ids: [4, 9],
      format: 'pdf',
      every: 'monthly',
      weekday: 2,
      monthday: 'last',
      hour: 18,
      lang: 'de',
    });
    expect(mailBody({ ...draftOf(MAIL, 'en', 'fuel'), monthday: '12', ot: null }).monthday).toBe(12);
    expect(mailBody({ ...draftOf(MAIL, 'en', 'fuel'), ot: null }).ids).toEqual([]);
  });

  it('starts a new mail weekly on Monday at 06:00 in the user’s language and the shown report', () => {
    expect(draftOf(null, 'fr', 'upcoming-overdue')).toMatchObject({
      every: 'weekly',
      weekday: 1,
      hour: 6,
      lang: 'fr',
      report: 'upcoming-overdue',
      enabled: true,
    });
  });

  it('finds the problems of a draft with the core contract before sending it', () => {
    const d = draftOf(null, 'en', 'fuel');
    expect(draftProblems(d)).toEqual({ name: 'required', recipients: 'required' });
    expect(draftProblems({ ...d, name: 'x'.repeat(129), recipients: 'a@x.com, nope' })).toEqual({
      name: 'tooLong',
      recipients: 'invalid',
    });
    const many = Array.from({ length: 21 }, (_, i) => `u${i}@x.com`).join('\n');
    expect(draftProblems({ ...d, name: 'N', recipients: many })).toEqual({ recipients: 'tooMany' });
    expect(draftProblems({ ...d, name: 'N', recipients: 'a@x.com' })).toEqual({});
  });

  it('maps server issues onto the form fields', () => {
    expect(serverFieldOf(['recipients', '2'])).toBe('recipients');
    expect(serverFieldOf(['monthday'])).toBe('monthday');
    expect(serverFieldOf(['report'])).toBeNull();
  });

  it('words the schedule with localised weekday names', () => {
    expect(weekdayName(1, 'en')).toBe('Monday');
    expect(weekdayName(7, 'de')).toBe('Sonntag');
    expect(scheduleParts({ every: 'daily', weekday: 1, monthday: 1, hour: 6 }, 'en', t)).toEqual([
      'reportMails.every_daily',
      '06:00',
    ]);
    expect(scheduleParts({ every: 'weekly', weekday: 3, monthday: 1, hour: 18 }, 'en', t)).toEqual([
      'reportMails.every_weekly',
      'Wednesday',
      '18:00',
    ]);
    expect(scheduleParts(MAIL, 'en', t)).toEqual([
      'reportMails.every_monthly',
      'reportMails.monthdayLast',
      '18:00',
    ]);
    expect(scheduleParts({ ...MAIL, monthday: 9 }, 'en', t)[1]).toBe('reportMails.dayN:{"day":9}');
  });
});
