import type { APIRequestContext, Page } from '@playwright/test';
import { apiSession, expect, login, screenshotsAtBothWidths, test } from './fixtures.ts';

/**
 * Numbers, money and consumption as the reader reads them (docs/product.md "Numbers, money and times",
 * "Consumption of machines"): the services list, a unit page and the fuel and cost reports of the demo
 * fleet in English and in German, with screenshots at 1280 and 375 px.
 */

async function setLanguage(request: APIRequestContext, lang: string) {
  const api = await apiSession(request, 'manager');
  const res = await request.patch('/api/user/settings', { headers: api.headers, data: { lang } });
  expect(res.ok()).toBe(true);
  return api;
}

async function unitId(request: APIRequestContext, name: string): Promise<number> {
  const api = await apiSession(request, 'manager');
  const body = await (await request.get(`/api/fleets/${api.fid}/units`, { headers: api.headers })).json();
  const list: { id: number; nm: string }[] = Array.isArray(body) ? body : (body.units ?? body.items ?? []);
  const unit = list.find((u) => u.nm === name);
  expect(unit, name).toBeTruthy();
  return unit!.id;
}

async function shoot(page: Page, lang: string, forklift: number, truck: number) {
  await page.goto('/services');
  await expect(page.getByTestId('data-table').or(page.getByRole('table')).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await screenshotsAtBothWidths(page, `formats-services-${lang}`);

  await page.goto(`/unit/${truck}`);
  await expect(page.getByTestId('ind-total-mileage-value')).toContainText(/\d km/);
  await page.waitForLoadState('networkidle');
  await screenshotsAtBothWidths(page, `formats-unit-${lang}`);
  await page.goto(`/unit/${truck}?tab=intervals`);
  await page.waitForLoadState('networkidle');
  await screenshotsAtBothWidths(page, `formats-unit-intervals-${lang}`);

  await page.goto(`/unit/${forklift}?tab=fuel&period=year`);
  await page.waitForLoadState('networkidle');
  await screenshotsAtBothWidths(page, `formats-unit-fuel-forklift-${lang}`);

  await page.goto('/reports?type=fuel&period=quarter');
  await expect(page.getByTestId('report-table')).toBeVisible();
  await expect(page.getByTestId('report-chart')).toHaveAttribute('data-ready', '1');
  await screenshotsAtBothWidths(page, `formats-report-fuel-${lang}`);

  await page.goto('/reports?type=cost-per-distance&period=quarter');
  await expect(page.getByTestId('report-table')).toBeVisible();
  await expect(page.getByTestId('report-chart')).toHaveAttribute('data-ready', '1');
  await screenshotsAtBothWidths(page, `formats-report-costs-${lang}`);
}

test('numbers, money and consumption in English and in German', async ({ page, request }) => {
  const forklift = await unitId(request, 'Forklift FL-3');
  const truck = await unitId(request, 'Volvo FH16 #1');
  try {
    await setLanguage(request, 'en');
    await login(page, 'manager');
    await page.waitForURL((url) => !url.pathname.includes('/login'));
    await shoot(page, 'en', forklift, truck);
    // The fuel report: money with its minor units; the forklift's consumption per engine hour.
    await page.goto('/reports?type=fuel&period=quarter');
    const table = page.getByTestId('report-table');
    await expect(table.getByRole('columnheader', { name: 'Consumption per engine hour, L/h' })).toBeVisible();
    const row = table.getByRole('row', { name: /Forklift FL-3/ });
    await expect(row).toContainText(/\d\.\d(?!\d)/);
    await expect(page.getByTestId('report-totals')).toContainText(/€[\d,]+\.\d\d(?!\d)/);

    // The unit page: whole kilometres with English grouping.
    await page.goto(`/unit/${truck}`);
    await expect(page.getByTestId('ind-total-mileage-value')).toHaveText(/^\d{1,3}(,\d{3})* km$/);

    await setLanguage(request, 'de');
    await page.reload();
    await shoot(page, 'de', forklift, truck);
    // German grouping: '412.345 km' is four hundred thousand kilometres, never a decimal.
    await page.goto(`/unit/${truck}`);
    await expect(page.getByTestId('ind-total-mileage-value')).toHaveText(/^\d{1,3}(\.\d{3})* km$/);
    await page.goto('/reports?type=fuel&period=quarter');
    await expect(table.getByRole('columnheader', { name: 'Verbrauch je Motorstunde, l/h' })).toBeVisible();
    await expect(page.getByTestId('report-totals')).toContainText(/[\d.]+,\d\d\s€/);
  } finally {
    await setLanguage(request, 'en');
  }
});
