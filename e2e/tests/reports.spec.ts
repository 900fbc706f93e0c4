import fs from 'node:fs';
import path from 'node:path';
import type { Page, Request } from '@playwright/test';
import { apiSession, cpuThrottle, expect, expectNoPageScroll, fleetDay, login, test } from './fixtures.ts';

/**
 * Spec §2 /reports, PRODUCT.md "Reports": the demo manager opens every report type,
 * sees its table (or the empty state), exports each in XLSX, CSV and PDF from the server (the file named
 * by the server, not empty; the CSV's header line has the column titles), cancels a long export, and
 * changes the grouping, the period and the objects, each change asking the server again and kept in the
 * URL over a reload.
 */

const SHOTS = '/tmp/shots-rweb';

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** English titles of the types and columns (the locale file the server serves). */
const EN = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../../packages/core/locales/en.json'), 'utf8'),
) as { reports: { type: Record<string, string>; col: Record<string, string> } };

/** The types in the order the screen offers them, with their first column (core REPORT_COLUMNS). */
const TYPES: [type: string, firstColumn: string][] = [
  ['service-costs-by-object', 'object_type'],
  ['service-costs-by-line-item', 'line_item'],
  ['service-costs-by-interval', 'interval'],
  ['services-performed', 'date'],
  ['upcoming-overdue', 'planned_date'],
  ['fuel', 'object'],
  ['cost-per-distance', 'object'],
];

const isReport = (type: string) => (r: Request) =>
  r.method() === 'GET' && new URL(r.url()).pathname.endsWith(`/reports/${type}`);

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The report shown is of `type` and no longer loading. */
async function shown(page: Page, type: string) {
  const result = page.getByTestId('report-result');
  await expect(result).toHaveAttribute('data-type', type);
  await expect(result).toHaveAttribute('data-loading', '0');
}

test('a manager reads and exports every report, changing grouping, period and objects', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const units: { id: number; nm: string; uid: string }[] = (
    await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()
  ).units;
  const unit = units.find((u) => u.uid === 'demo-020') ?? units[0];
  if (!unit) throw new Error('demo data missing');
  // Two fuel fillings of one unit in the period, so the fuel report has a row of ours.
  const fillings: number[] = [];
  const fill = async (volume: number, cost: number, date: string) => {
    const res = await request.post(`/api/fleets/${fid}/fuel-fillings`, {
      headers,
      data: { uid: unit.id, volume, manual_cost: cost, date },
    });
    expect(res.ok(), await res.text()).toBe(true);
    fillings.push((await res.json()).id);
  };

  try {
    await fill(40, 71.5, `${fleetDay(-3)} 10:00:00`);
    await fill(35.5, 63.25, `${fleetDay(-1)} 09:30:00`);
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');

    // The plain /reports: the first type, the default month, every object, no grouping.
    const first = page.waitForRequest(isReport(TYPES[0]?.[0] ?? ''));
    await page.goto('/reports');
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
    const firstUrl = new URL((await first).url());
    expect(firstUrl.searchParams.get('from')).toBe(fleetDay(-29));
    expect(firstUrl.searchParams.get('to')).toBe(fleetDay(0));
    expect(firstUrl.searchParams.get('group')).toBeNull();
    expect(firstUrl.searchParams.get('ot')).toBeNull();

    for (const [index, [type, firstColumn]] of TYPES.entries()) {
      // The first type is the one shown; each other one is asked for when chosen.
      if (index > 0) {
        const asked = page.waitForRequest(isReport(type));
        await choose(page, 'report-type', EN.reports.type[type] ?? type);
        await asked;
      }
      await shown(page, type);
      // A table with its column titles, or the empty state.
      const table = page.getByTestId('report-table');
      const empty = page.getByTestId('report-table-empty');
      await expect(table.or(empty)).toBeVisible();
      if (await table.isVisible()) {
        await expect(table.getByRole('columnheader').first()).toContainText(
          EN.reports.col[firstColumn] ?? '',
        );
        await expect(page.getByTestId('report-table-count')).toContainText('Rows:');
      }
      if (type === 'fuel') {
        // Ours is there: the unit's row, the volume in litres in its title.
        await expect(table.getByRole('row', { name: new RegExp(escaped(unit.nm)) })).toBeVisible();
        await expect(table.getByRole('columnheader', { name: /Fuel volume, L/ })).toBeVisible();
        await expect(page.getByTestId('report-totals')).toBeVisible();
        await expect(page.getByTestId('report-chart')).toHaveAttribute('data-ready', '1');
      }

      // Every format: the server's file, named by the server, not empty.
      for (const format of ['xlsx', 'csv', 'pdf'] as const) {
        const downloading = page.waitForEvent('download');
        await page.getByTestId(`report-export-${format}`).click();
        const download = await downloading;
        expect(download.suggestedFilename()).toBe(`${type}-${fleetDay(-29)}-${fleetDay(0)}.${format}`);
        const file = await download.path();
        const bytes = fs.readFileSync(file);
        expect(bytes.length).toBeGreaterThan(0);
        if (format === 'csv') {
          const header =
            bytes
              .toString('utf8')
              .replace(/^\ufeff/, '')
              .split(/\r?\n/)[0] ?? '';
          expect(header).toContain(EN.reports.col[firstColumn] ?? firstColumn);
        }
        if (format === 'pdf') expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        if (format === 'xlsx') expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
        await expect(page.getByTestId('report-export-saved')).toContainText(download.suggestedFilename());
      }
    }
    await expect(page).toHaveURL('/reports?type=cost-per-distance');

    // The fuel report grouped by week: the server is asked with group=week, rows get the period column.
    await choose(page, 'report-type', EN.reports.type.fuel ?? 'fuel');
    await shown(page, 'fuel');
    let asked = page.waitForRequest(
      (r) => isReport('fuel')(r) && new URL(r.url()).searchParams.get('group') === 'week',
    );
    await choose(page, 'report-group', 'By week');
    await asked;
    await shown(page, 'fuel');
    await expect(page.getByTestId('report-table').getByRole('columnheader').first()).toContainText('Period');
    await shot(page, 'fuel-week-1280');

    // The period: a week ending today.
    asked = page.waitForRequest((r) => {
      const q = new URL(r.url()).searchParams;
      return isReport('fuel')(r) && q.get('from') === fleetDay(-6) && q.get('group') === 'week';
    });
    await choose(page, 'report-period', 'Week');
    await asked;
    await shown(page, 'fuel');

    // Only our unit: ot=u&ids=<id>.
    await choose(page, 'report-kind', 'Units');
    await shown(page, 'fuel');
    asked = page.waitForRequest((r) => {
      const q = new URL(r.url()).searchParams;
      return isReport('fuel')(r) && q.get('ot') === 'u' && q.get('ids') === String(unit.id);
    });
    await page.getByTestId('report-objects').click();
    await page.getByRole('option', { name: unit.nm, exact: true }).click();
    await asked;
    await page.keyboard.press('Escape');
    await shown(page, 'fuel');
    await expect(
      page.getByTestId('report-table').getByRole('row', { name: new RegExp(escaped(unit.nm)) }),
    ).toHaveCount(await page.getByTestId('report-table').locator('tbody tr[data-index]').count());
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
      type: 'fuel',
      period: 'week',
      group: 'week',
      ot: 'u',
      obj: String(unit.id),
    });

    // A reload shows the same report.
    const again = page.waitForRequest((r) => {
      const q = new URL(r.url()).searchParams;
      return isReport('fuel')(r) && q.get('group') === 'week' && q.get('ids') === String(unit.id);
    });
    await page.reload();
    await again;
    await shown(page, 'fuel');
    await expect(page.getByTestId('report-type')).toHaveValue(EN.reports.type.fuel ?? '');
    await expect(page.getByTestId('report-group')).toHaveValue('By week');
    await expect(page.getByTestId('report-period')).toHaveValue('Week');

    // A long export can be cancelled: the server's answer is held back, Cancel stops it, nothing is saved.
    let held: (() => Promise<void>) | null = null;
    await page.route('**/reports/fuel/export?*', (route) => {
      held = () => route.abort();
    });
    let saved = false;
    page.on('download', () => {
      saved = true;
    });
    await page.getByTestId('report-export-pdf').click();
    await expect(page.getByTestId('report-export-progress')).toBeVisible();
    await expect(page.getByTestId('report-export-pdf')).toBeDisabled();
    await page.getByTestId('report-export-cancel').click();
    await expect(page.getByTestId('report-export-progress')).toBeHidden();
    await expect(page.getByTestId('report-export-pdf')).toBeEnabled();
    await expect(page.getByTestId('report-export-error')).toHaveCount(0);
    await (held as (() => Promise<void>) | null)?.().catch(() => undefined);
    await page.unroute('**/reports/fuel/export?*');
    expect(saved).toBe(false);

    // A refused export shows the server's reason.
    await page.route('**/reports/fuel/export?*', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: '{"error":4,"reason":"Invalid input"}',
      }),
    );
    await page.getByTestId('report-export-csv').click();
    await expect(page.getByTestId('report-export-error')).toContainText('The export failed: Invalid input');
    await page.unroute('**/reports/fuel/export?*');
    expect(saved).toBe(false);

    // Phone width: the controls stack, the table scrolls in its box, nothing sticks out.
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoPageScroll(page);
    await shot(page, 'fuel-week-375');

    // A second type at both widths: services performed, no grouping.
    await choose(page, 'report-type', EN.reports.type['services-performed'] ?? '');
    await choose(page, 'report-group', 'No grouping');
    await choose(page, 'report-kind', 'All objects');
    await choose(page, 'report-period', 'Year');
    await shown(page, 'services-performed');
    await expectNoPageScroll(page);
    await shot(page, 'services-performed-375');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'services-performed-1280');
  } finally {
    for (const id of fillings) await request.delete(`/api/fleets/${fid}/fuel-fillings/${id}`, { headers });
  }
});

test('the fleet administrator is kept out of the reports (an operational screen)', async ({ page }) => {
  await login(page, 'admin');
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/reports');
  await expect(page).not.toHaveURL(/\/reports/);
  await expect(page.getByTestId('report-type')).toHaveCount(0);
});
