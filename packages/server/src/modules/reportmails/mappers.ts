import {
  MONTHDAY_LAST,
  type ObjectType,
  type ReportFormat,
  type ReportGroup,
  type ReportMailEvery,
  type ReportMailSchedule,
  type ReportMailWire,
  type ReportType,
} from '@fleetkeep/core';
import type { ReportMailRow } from './tables.js';

/** Row ↔ wire of the report mails (core contracts/reportmails.ts). */

const parseList = <T>(text: string): T[] => {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
};

export const monthdayOf = (text: string): number | typeof MONTHDAY_LAST =>
  text === MONTHDAY_LAST ? MONTHDAY_LAST : Number(text);

export function scheduleOf(row: ReportMailRow): ReportMailSchedule {
  return {
    every: row.every as ReportMailEvery,
    weekday: row.weekday,
    monthday: monthdayOf(row.monthday),
    hour: row.hour,
  };
}

export const recipientsOf = (row: ReportMailRow) => parseList<string>(row.recipients);
export const idsOf = (row: ReportMailRow) => parseList<number>(row.ids);

export function reportMailToWire(row: ReportMailRow): ReportMailWire {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled === 1 ? 1 : 0,
    recipients: recipientsOf(row),
    report: row.report as ReportType,
    group: row.grouping as ReportGroup,
    ot: (row.ot as ObjectType | null) ?? null,
    ids: idsOf(row),
    format: row.format as ReportFormat,
    every: row.every as ReportMailEvery,
    weekday: row.weekday,
    monthday: monthdayOf(row.monthday),
    hour: row.hour,
    lang: row.lang,
    owner_id: row.owner_id,
    next_due: row.next_due,
    last_sent: row.last_sent,
    last_ok: row.last_ok === null ? null : row.last_ok === 1 ? 1 : 0,
    last_result: row.last_result,
  };
}
