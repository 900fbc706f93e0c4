import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { apiSession, cpuThrottle, expect, fleetDay, login, screenshot, test } from './fixtures.ts';

/** Spec §2 /items and the object pages /unit/{id}, /driver/{id}, /trailer/{id}. */

interface Unit {
  id: number;
  nm: string;
  ut: number | null;
}

async function relogin(page: Page, user: 'manager' | 'viewer') {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await login(page, user);
  await expect(page).toHaveURL('/dashboard');
}

/** No horizontal page scroll (tables scroll inside their own box). */
async function expectNoPageScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test('service objects: filters, search, sort, unit page tabs with remaining values, bulk interval', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const { fid, headers, unitTypes } = await apiSession(request, 'manager');
  const units: Unit[] = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units;
  const tractorType = unitTypes.find((t) => t.n === 'tractor');
  const tractor = units.find((u) => u.nm === 'John Deere 6155R');
  const daf = units.find((u) => u.nm === 'DAF XF 480');
  if (!tractorType || !tractor || !daf) throw new Error('demo data missing');
  // Another journey may have changed its type: the tractor is a tractor again.
  await request.put(`/api/fleets/${fid}/units/${tractor.id}`, { headers, data: { ut: tractorType.id } });

  const tag = `e2e${Date.now().toString(36)}`;
  const base = `/api/fleets/${fid}/intervals`;
  const created = await request.post(base, {
    headers,
    data: { n: `${tag} Gearbox oil`, cnme: 1, cnmd: 10000, cnmo: 1000, de: 1, dd: 1, du: 'y', do: 30 },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const intervalId = (await created.json()).id as number;
  try {
    const assign = await request.put(`${base}/${intervalId}/units`, {
      headers,
      data: { units: [{ id: tractor.id, t: 'u' }] },
    });
    expect(assign.ok(), await assign.text()).toBe(true);

    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto('/items');
    await expect(page.getByRole('heading', { level: 1, name: 'Service objects' })).toBeVisible();
    const table = page.getByTestId('objects');
    const row = (name: string) => table.getByRole('row').filter({ hasText: name });
    // Natural name order: the first rows mix units, drivers and trailers.
    await expect(row('DAF XF 480')).toBeVisible();
    await expect(row('Anna Kowalska')).toBeVisible();
    await expect(row('Fliegl tipper 05')).toBeVisible();
    await expect(row('DAF XF 480')).toContainText(/\d km/);
    await expect(row('DAF XF 480')).toContainText(/e\.h\./);
    await expect(row('DAF XF 480')).toContainText(/Active|In service/);
    await expect(row('DAF XF 480')).toContainText('Lorry');
    await expect(row('Anna Kowalska').getByRole('link', { name: 'Anna Kowalska' })).toHaveAttribute(
      'href',
      /^\/driver\/\d+$/,
    );

    // Kind filter: drivers only, kept in the URL.
    await page.getByTestId('objects-kind').click();
    await page.getByRole('option', { name: 'Drivers' }).click();
    await expect(page).toHaveURL(/kind=d/);
    await expect(row('DAF XF 480')).toHaveCount(0);
    await expect(row('Anna Kowalska')).toBeVisible();
    await page.getByTestId('objects-kind').click();
    await page.getByRole('option', { name: 'Units' }).click();
    await expect(row('Anna Kowalska')).toHaveCount(0);

    // Unit type filter: tractors only.
    await page.getByTestId('objects-unit-types').click();
    await page.getByRole('option', { name: 'Tractor' }).click();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(new RegExp(`ut=${tractorType.id}`));
    await expect(row('John Deere 6155R')).toBeVisible();
    await expect(row('DAF XF 480')).toHaveCount(0);
    await screenshot(page, 'objects-items-filtered-1280');

    // Search and sort: the trailers named Krone, natural order, then descending.
    await page.goto('/items?kind=t');
    await page.getByRole('searchbox', { name: 'Search' }).fill('krone');
    await expect(page).toHaveURL(/q=krone/);
    await expect(row('Krone SD 01')).toBeVisible();
    await expect(row('Wielton NS 04')).toHaveCount(0);
    const firstRow = table.getByRole('row').nth(1);
    await expect(firstRow).toContainText('Krone reefer 06');
    await table.getByRole('button', { name: 'Name' }).click();
    await table.getByRole('button', { name: 'Name' }).click();
    await expect(page).toHaveURL(/sort=name\.desc/);
    await expect(firstRow).toContainText('Krone SD 01');

    await page.goto('/items');
    await expect(row('DAF XF 480')).toBeVisible();
    await screenshot(page, 'objects-items-1280');

    // The unit page: general indicators, the intervals tab with the remaining value.
    await page.goto('/items?kind=u');
    await row('John Deere 6155R').getByRole('link', { name: 'John Deere 6155R' }).click();
    await expect(page).toHaveURL(`/unit/${tractor.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'John Deere 6155R' })).toBeVisible();
    await expect(page.getByTestId('ind-total-mileage-value')).toContainText(/\d km/);
    await expect(page.getByTestId('ind-actual-engine-hours-value')).toContainText('e.h.');
    // The demo's fuel of the tractor counts (demo/maintenance.ts); the figures are checked against the
    // statistics call in the unit-page test below.
    await expect(page.getByTestId('ind-fuel-cost-value')).toHaveText(/^€\d/);
    await expect(page.getByTestId('ind-cost-per-distance')).toContainText('Cost per 1 km');
    await expect(page.getByRole('button', { name: 'Create service' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create fuel filling' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Fleet map' })).toBeVisible();
    await screenshot(page, 'objects-unit-general-1280');

    await page.getByRole('tab', { name: 'Intervals' }).click();
    await expect(page).toHaveURL(/tab=intervals/);
    const ivRow = page.getByTestId('object-intervals').getByRole('row').filter({ hasText: tag });
    await expect(ivRow.getByRole('link', { name: `${tag} Gearbox oil` })).toHaveAttribute(
      'href',
      `/interval/${intervalId}`,
    );
    // The baseline is the unit's counters at assignment: the whole frequency remains.
    await expect(ivRow.getByTestId('remaining-mileage')).toHaveText(/^In: (10,000|9,\d{3}) km$/);
    await expect(ivRow.getByTestId('remaining-days')).toHaveText(/^In: 36[56] days$/);
    await expect(ivRow).toContainText('12,400 km');

    // Live: a baseline set back by hand makes the interval overdue without a reload, and the status
    // engine's overdue service shows on the services tab.
    const bases = await request.put(`/api/fleets/${fid}/units/${tractor.id}/bases`, {
      headers,
      data: { bases: [{ ivid: intervalId, lcnm: 0 }] },
    });
    expect(bases.ok(), await bases.text()).toBe(true);
    await expect(ivRow.getByTestId('remaining-mileage')).toHaveText(/^Overdue: 2,\d{3} km$/);
    await screenshot(page, 'objects-unit-intervals-1280');

    await page.getByRole('tab', { name: 'Services' }).click();
    await expect(page.getByRole('heading', { name: 'Open services' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Archive' })).toBeVisible();
    const open = page.getByTestId('object-open-services').getByRole('row').filter({ hasText: tag });
    await expect(open).toContainText('Overdue');
    await expect(open.getByRole('link')).toHaveAttribute('href', /^\/service\/\d+$/);
    await screenshot(page, 'objects-unit-services-1280');

    await page.getByRole('tab', { name: 'Profile' }).click();
    await expect(page.getByTestId('profile-unit-type')).toHaveValue('Tractor');
    await screenshot(page, 'objects-unit-profile-1280');
    // The unit type is editable with manage rights (PUT /api/fleets/{fid}/units/{id}); put it back after.
    await page.getByTestId('profile-unit-type').click();
    await page.getByRole('option', { name: 'Type not selected' }).click();
    await expect
      .poll(async () => {
        const list: Unit[] = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json())
          .units;
        return list.find((u) => u.id === tractor.id)?.ut;
      })
      .toBeNull();
    await expect(page.getByTestId('profile-unit-type')).toHaveValue('Type not selected');
    await page.getByTestId('profile-unit-type').click();
    await page.getByRole('option', { name: 'Tractor' }).click();
    await expect
      .poll(async () => {
        const list: Unit[] = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json())
          .units;
        return list.find((u) => u.id === tractor.id)?.ut;
      })
      .toBe(tractorType.id);

    await page.getByRole('tab', { name: 'Fuel fillings' }).click();
    // The demo seeds a year of fuel for every unit (demo/maintenance.ts): the tab shows its table.
    await expect(page.getByTestId('object-fuel')).toBeVisible();

    // The same tabs at 375 px: no page scroll sideways (tables scroll inside their box).
    await page.setViewportSize({ width: 375, height: 800 });
    for (const tab of ['general', 'intervals', 'services', 'profile'] as const) {
      await page.goto(`/unit/${tractor.id}?tab=${tab}`);
      await expect(page.getByRole('tab', { name: 'General' })).toBeVisible();
      if (tab === 'general') await expect(page.getByRole('region', { name: 'Fleet map' })).toBeVisible();
      if (tab === 'intervals') await expect(page.getByTestId('object-intervals')).toContainText(tag);
      if (tab === 'services') await expect(page.getByTestId('object-open-services')).toContainText(tag);
      await expectNoPageScroll(page);
      await screenshot(page, `objects-unit-${tab}-375`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // A driver's page: no map, no fuel tab.
    await page.goto('/items?kind=d');
    await row('Anna Kowalska').getByRole('link').click();
    await expect(page).toHaveURL(/\/driver\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Anna Kowalska' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Fuel fillings' })).toHaveCount(0);
    await expect(page.getByTestId('ind-service-cost')).toBeVisible();

    // Bulk mode: two units → Create interval with their ids in the navigation state.
    await page.goto('/items?kind=u');
    await page.getByTestId('objects-bulk').click();
    await page.getByRole('checkbox', { name: 'Select: John Deere 6155R' }).check();
    await page.getByRole('checkbox', { name: 'Select: DAF XF 480' }).check();
    await expect(page.getByTestId('objects-bulk-actions')).toContainText('Selected: 2');
    await expect(page.getByRole('button', { name: 'Create services' })).toBeEnabled();
    await screenshot(page, 'objects-items-bulk-1280');
    await page.getByRole('button', { name: 'Create interval' }).click();
    await expect(page).toHaveURL('/interval/new');
    const state = await page.evaluate(() => history.state);
    const assigned = (state?.usr?.assign ?? []) as { id: number; t: string }[];
    expect(assigned).toHaveLength(2);
    expect(assigned).toEqual(
      expect.arrayContaining([
        { id: tractor.id, t: 'u' },
        { id: daf.id, t: 'u' },
      ]),
    );

    // Create services carries the objects for the service editor.
    await page.goto('/items?kind=u');
    await page.getByTestId('objects-bulk').click();
    await page.getByRole('checkbox', { name: 'Select: DAF XF 480' }).check();
    await page.getByRole('button', { name: 'Create services' }).click();
    await expect(page).toHaveURL('/service/new');
    const services = await page.evaluate(() => history.state);
    expect(services?.usr?.objects).toEqual([{ id: daf.id, t: 'u' }]);
  } finally {
    await request.delete(`${base}/${intervalId}`, { headers });
  }
});

test('service objects at 375 px, the viewer without bulk actions, an unknown unit goes to /items', async ({
  page,
  request,
}) => {
  const { fid, headers } = await apiSession(request, 'manager');
  const units: Unit[] = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units;
  const tractor = units.find((u) => u.nm === 'John Deere 6155R');
  if (!tractor) throw new Error('demo data missing');

  await page.setViewportSize({ width: 375, height: 800 });
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/items');
  await expect(
    page.getByTestId('objects').getByRole('row').filter({ hasText: 'Anna Kowalska' }),
  ).toBeVisible();
  await expectNoPageScroll(page);
  await screenshot(page, 'objects-items-375');
  await page.goto('/items?kind=u');
  await page.getByTestId('objects-bulk').click();
  await page.getByRole('checkbox', { name: 'Select: DAF XF 480' }).check();
  await expectNoPageScroll(page);
  await screenshot(page, 'objects-items-bulk-375');

  await page.goto('/unit/99999999');
  await expect(page).toHaveURL('/items');

  await page.setViewportSize({ width: 1280, height: 800 });
  await relogin(page, 'viewer');
  await page.goto('/items');
  await expect(
    page.getByTestId('objects').getByRole('row').filter({ hasText: 'Anna Kowalska' }),
  ).toBeVisible();
  await expect(page.getByTestId('objects-bulk')).toHaveCount(0);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await download;
  expect(csv.suggestedFilename()).toBe('service-objects.csv');
  const text = fs.readFileSync((await csv.path()) as string, 'utf8');
  // Plate and tags: the vehicle profile (docs/product.md "The vehicle profile").
  expect(text).toContain('Name,Kind,Unit type,Licence plate,Tags,State,Driver,Mileage,Engine hours');
  // The CSV keeps plain numbers; the screen shows them in the user's language (docs/product.md).
  expect(text).toMatch(/DAF XF 480,Unit,Lorry,,,(Active|In service),[^,]*,\d+,\d+\r?\n/);
  await expect(page.getByRole('button', { name: 'Create interval' })).toHaveCount(0);
  await page.goto(`/unit/${tractor.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'John Deere 6155R' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create service' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create fuel filling' })).toHaveCount(0);
  await page.goto(`/unit/${tractor.id}?tab=profile`);
  await expect(page.getByTestId('profile-unit-type')).toHaveText('Tractor');
  await page.goto('/driver/99999999');
  await expect(page).toHaveURL('/items');
});

/** A number as the screen shows it to an English reader: at most `decimals` fraction digits. */
function shown(value: number, decimals: number): string {
  // The user's language (English here) groups the digits (docs/product.md "Numbers, money and times").
  return new Intl.NumberFormat('en', { maximumFractionDigits: decimals }).format(value);
}

test('unit page: distance, costs and cost per km of the period come from the statistics call', async ({
  page,
  request,
}) => {
  const { fid, headers } = await apiSession(request, 'manager');
  const units: (Unit & { uid: string; cnm: number })[] = (
    await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()
  ).units;
  // demo-014: no other journey drives it.
  const skoda = units.find((u) => u.uid === 'demo-014');
  if (!skoda) throw new Error('demo data missing');
  const week = `from=${fleetDay(-6)}&to=${fleetDay(0)}`;
  const stats = async () => {
    const res = await request.get(`/api/fleets/${fid}/units/${skoda.id}/statistics?${week}`, { headers });
    expect(res.ok(), await res.text()).toBe(true);
    return (await res.json()) as { mileage: number; services_cost: number; fuel_cost: number };
  };
  const value = (id: string) => page.getByTestId(`ind-${id}-value`);

  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto(`/unit/${skoda.id}?period=week`);
  await expect(page.getByRole('heading', { level: 1, name: skoda.nm })).toBeVisible();
  // The demo's counter history: a week of driving, not the unit's whole mileage.
  const before = await stats();
  expect(before.mileage).toBeGreaterThan(0);
  expect(before.mileage).toBeLessThan(skoda.cnm);
  await expect(value('period-mileage')).toHaveText(`${shown(before.mileage, 0)} km`);
  await expect(value('period-engine-hours')).toContainText('e.h.');

  // A reading 123.4 km further on: the distance of the period follows live.
  const timestamp = Math.floor(Date.now() / 1000) + 1;
  const reading = await request.get(
    `/api/ingest/osmand?id=demo-014&lat=53.95&lon=27.6&timestamp=${timestamp}&odometer=${Math.round((skoda.cnm + 123.4) * 1000)}`,
  );
  expect(await reading.json()).toEqual({ ok: true });
  const driven = await stats();
  expect(driven.mileage).toBeCloseTo(before.mileage + 123.4, 1);
  await expect(value('period-mileage')).toHaveText(`${shown(driven.mileage, 0)} km`);

  // A service closed today with a hand total: its cost and the cost per km of the period follow.
  const created = await request.post(`/api/fleets/${fid}/services`, {
    headers,
    data: {
      n: `e2e${Date.now().toString(36)} statistics`,
      t: 'u',
      uid: skoda.id,
      f: 8,
      start_date: fleetDay(0),
      end_date: fleetDay(0),
      manual_cost: 250.5,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const serviceId = (await created.json()).id as number;
  try {
    const costed = await stats();
    expect(costed.services_cost).toBeCloseTo(before.services_cost + 250.5, 3);
    const total = costed.services_cost + costed.fuel_cost;
    // Money with the currency's minor units, a rate with 3 decimals, in the user's language (docs/product.md).
    const euro = new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' });
    const rate = new Intl.NumberFormat('en', {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: 2,
      maximumFractionDigits: 3,
    });
    await expect(value('service-cost')).toHaveText(euro.format(costed.services_cost));
    await expect(value('total-cost')).toHaveText(euro.format(total));
    await expect(value('cost-per-distance')).toHaveText(rate.format(total / costed.mileage));
    await screenshot(page, 'objects-unit-period-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(value('cost-per-distance')).toBeVisible();
    await expectNoPageScroll(page);
    await screenshot(page, 'objects-unit-period-375');
  } finally {
    await request.delete(`/api/fleets/${fid}/services/archived/${serviceId}`, { headers });
  }
});
