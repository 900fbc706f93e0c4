import type { ReportFormat, ReportQuery, ReportType } from '@fleetkeep/core';
import type { Actor } from '../../../auth/actor.js';
import type { AppContext } from '../../../context.js';
import { formatterFor } from '../../../i18n/formatter.js';
import { storedSettings } from '../../user/settings.js';
import { buildReport } from '../service.js';
import { reportCsv } from './csv.js';
import { reportPdf } from './pdf.js';
import { exportTable } from './table.js';
import { reportXlsx } from './xlsx.js';

const CONTENT_TYPES: Record<ReportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
};

/**
 * GET .../reports/{type}/export: the report of `query` as a file in the caller's language, date and
 * time formats (user settings) and the fleet's currency, units and zone (server i18n `formatterFor`).
 */
export async function exportReport(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  type: ReportType,
  query: ReportQuery,
  format: ReportFormat,
  signal?: AbortSignal,
): Promise<{ name: string; contentType: string; data: Buffer }> {
  const { fleet, report } = await buildReport(ctx, actor, fleetId, type, query);
  const settings = await storedSettings(ctx, actor.userId);
  const f = formatterFor({
    lang: settings.lang,
    dateFormat: settings.dateFormat,
    timeFormat: settings.timeFormat,
    fleet,
  });
  const table = exportTable(report, f, fleet.name, fleet.cur);
  const data =
    format === 'xlsx'
      ? await reportXlsx(table, settings.dateFormat, signal)
      : format === 'csv'
        ? reportCsv(table, signal)
        : await reportPdf(table, signal);
  return { name: table.fileName(format), contentType: CONTENT_TYPES[format], data };
}
