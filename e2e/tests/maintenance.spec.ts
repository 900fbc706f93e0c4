import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  type ApiSession,
  apiSession,
  cpuThrottle,
  expect,
  expectNoPageScroll,
  fleetDay,
  login,
  screenshot,
  test,
} from './fixtures.ts';
import { rowOf, saveClosed } from './services-support.ts';

/**
 * The maintenance journey, end to end in the browser, at desktop and at phone width: an interval by
 * mileage with an advance notice, a unit assigned, OsmAnd readings until the status engine makes the
 * service Due and then Overdue (seen live, without a reload), line items and an attachment, In progress
 * (the unit is In service), closed (archived, the unit Active, the interval's baseline reset), another
 * rejected, and three closed in one batch. Each width works on its own demo units.
 */

interface Unit {
  id: number;
  uid: string;
  nm: string;
  cnm: number;
  pos: { y: number; x: number } | null;
}

const WIDTHS = [
  { width: 1280, units: ['demo-010', 'demo-011', 'demo-012', 'demo-013'] },
  { width: 375, units: ['demo-006', 'demo-007', 'demo-008', 'demo-009'] },
] as const;

async function unitsByDevice(request: APIRequestContext, s: ApiSession): Promise<Map<string, Unit>> {
  const { units } = (await (
    await request.get(`/api/fleets/${s.fid}/units`, { headers: s.headers })
  ).json()) as { units: Unit[] };
  return new Map(units.map((u) => [u.uid, u]));
}

/**
 * One OsmAnd reading with a total odometer (metres), as a tracker sends it. The unit stays where it is:
 * other journeys look at the fleet's map and must not find it moved across the continent.
 */
let clock = 0;
async function drive(request: APIRequestContext, unit: Unit, odometerKm: number): Promise<void> {
  clock += 5;
  const at = unit.pos ?? { y: 52.52, x: 13.4 };
  const res = await request.get(
    `/api/ingest/osmand?id=${unit.uid}&lat=${at.y}&lon=${at.x}&timestamp=${clock}&odometer=${Math.round(odometerKm * 1000)}`,
  );
  expect(await res.json()).toEqual({ ok: true });
}

/** The main menu link, through the burger at phone width. */
async function openMenu(page: Page, name: string): Promise<void> {
  const burger = page.getByRole('button', { name: 'Navigation' });
  if (await burger.isVisible()) await burger.click();
  await page.getByRole('link', { name, exact: true }).filter({ visible: true }).first().click();
}

for (const { width, units: devices } of WIDTHS) {
  test(`maintenance journey at ${width} px: interval, live Due and Overdue, line items, attachment, In progress, close, reject, batch close`, async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000 * cpuThrottle());
    // Readings must be newer than the unit's last message (the server's start, moments ago) and at most
    // five minutes ahead of the server's clock: a few seconds apart from now on.
    clock = Math.floor(Date.now() / 1000);
    await page.setViewportSize({ width, height: 900 });
    const s = await apiSession(request, 'manager');
    const byDevice = await unitsByDevice(request, s);
    const [main, ...batch] = devices.map((d) => {
      const u = byDevice.get(d);
      if (!u) throw new Error(`no unit ${d}`);
      return u;
    }) as [Unit, Unit, Unit, Unit];
    const tag = `mj${width}${Date.now().toString(36)}`;
    const libraryItem = `${tag} spark plug`;
    const lib = await request.post(`/api/fleets/${s.fid}/line_items`, {
      headers: s.headers,
      data: { n: libraryItem, t: 2, c: 7.25 },
    });
    expect(lib.ok(), await lib.text()).toBe(true);

    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');

    // 1. An interval by mileage: every 1 000 km, 100 km of advance notice; the unit assigned.
    await openMenu(page, 'Intervals');
    await page.getByTestId('interval-new').click();
    await expect(page).toHaveURL('/interval/new');
    await page.getByLabel('Name').fill(`${tag} Oil service`);
    await page.getByRole('switch', { name: 'By mileage' }).check({ force: true });
    await page.getByTestId('mileage-every').fill('1000');
    await page.getByTestId('mileage-notice').fill('100');
    await page.getByTestId('tab-units').click();
    await page.getByTestId('assign-objects').click();
    await page.getByTestId('assign-objects').fill(main.nm);
    await page.getByRole('option', { name: `${main.nm} (Unit)` }).click();
    await page.getByTestId('assign-add').click();
    const card = page.getByTestId(`assignment-u-${main.id}`);
    await expect(card).toBeVisible();
    // The baseline is the unit's counter at this moment (PRODUCT.md "Intervals").
    const baseline = Number(await card.getByLabel('Last mileage').inputValue());
    expect(Math.abs(baseline - main.cnm)).toBeLessThan(1);
    await page.getByTestId('interval-save').click();
    await expect(page).toHaveURL(/\/interval\/\d+/);
    const intervalId = Number(/\/interval\/(\d+)/.exec(page.url())?.[1]);

    // 2. The services list is open; readings arrive; the engine creates the service and it shows live.
    await openMenu(page, 'Services');
    await expect(page).toHaveURL(/\/services/);
    await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
    await page.evaluate(() => {
      (window as unknown as { journeyMarker: number }).journeyMarker = 1;
    });
    await drive(request, main, baseline + 500);
    await expect(rowOf(page, `${tag} Oil service`)).toHaveCount(0);
    await drive(request, main, baseline + 950);
    const service = rowOf(page, `${tag} Oil service`);
    await expect(service).toBeVisible();
    await expect(service).toContainText('Due');
    await expect(service).toContainText(/In: 50 km/);
    // Past the frequency (strictly): overdue by mileage, still without a reload.
    await drive(request, main, baseline + 1001.5);
    await expect(service).toContainText('Overdue by mileage');
    await expect(service.locator('[data-overdue]')).toHaveCount(1);
    expect(await page.evaluate(() => (window as unknown as { journeyMarker?: number }).journeyMarker)).toBe(
      1,
    );
    await expectNoPageScroll(page, Math.max(width, 375));
    await screenshot(page, `maintenance-overdue-${width}`);

    // 3. Open it: line items from the library and a new one, then an attachment.
    await service.getByRole('link', { name: `${tag} Oil service` }).click();
    await expect(page).toHaveURL(/\/service\/\d+$/);
    const serviceId = Number(page.url().split('/').pop());
    await expect(page.getByTestId('service-badge')).toHaveText('Overdue');
    await page.getByRole('tab', { name: /Line items/ }).click();
    await page.getByTestId('service-add-line').click();
    const first = page.getByTestId('service-line').nth(0);
    await first.getByRole('textbox', { name: 'Name' }).fill(libraryItem);
    await page.getByRole('option', { name: libraryItem, exact: true }).click();
    await expect(first.getByRole('textbox', { name: 'Cost' })).toHaveValue('7.25');
    await first.getByRole('textbox', { name: 'Quantity' }).fill('4');
    await page.getByTestId('service-add-line').click();
    const second = page.getByTestId('service-line').nth(1);
    await second.getByRole('textbox', { name: 'Name' }).fill(`${tag} oil change labour`);
    await page.getByRole('option', { name: `Create "${tag} oil change labour"` }).click();
    await second.getByText('Labour').click();
    await second.getByRole('textbox', { name: 'Quantity' }).fill('1.5');
    await second.getByRole('textbox', { name: 'Cost' }).fill('40');
    await expect(page.getByTestId('service-lines-total')).toHaveText('Total: €89.00');
    await page.getByTestId('service-save').click();
    await expect(page.getByTestId('service-saved')).toBeVisible();
    await page.getByRole('tab', { name: /Attachments/ }).click();
    await page.locator('input[type=file]').setInputFiles({
      name: `${tag}-invoice.txt`,
      mimeType: 'text/plain',
      buffer: Buffer.from(`invoice ${tag}`),
    });
    const files = page.getByTestId('service-attachments');
    await expect(files.getByRole('row').filter({ hasText: `${tag}-invoice.txt` })).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      files.getByRole('button', { name: `${tag}-invoice.txt`, exact: true }).click(),
    ]);
    expect(fs.readFileSync(await download.path(), 'utf8')).toBe(`invoice ${tag}`);

    // 4. In progress: the unit is In service.
    await page.getByRole('tab', { name: 'Main data' }).click();
    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'In progress', exact: true }).click();
    await page.getByTestId('service-save').click();
    await expect(page.getByTestId('service-badge')).toHaveText('In progress');
    await page.goto(`/unit/${main.id}`);
    await expect(page.getByTestId('object-state')).toHaveText(/In service/i);
    await expectNoPageScroll(page, Math.max(width, 375));

    // 5. Closed today at the unit's counter: archived, the unit Active, the baseline reset to it.
    await page.goto(`/service/${serviceId}`);
    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'Closed', exact: true }).click();
    const end = page.getByRole('textbox', { name: 'End date', exact: true });
    await end.click();
    await end.fill(fleetDay());
    await end.blur();
    await page.getByTestId('service-fill-counters').click();
    await saveClosed(page);
    const closed = await (
      await request.get(`/api/fleets/${s.fid}/services/${serviceId}`, { headers: s.headers })
    ).json();
    expect(closed.f & 8).toBe(8);
    expect(closed.total_cost).toBe(89);
    expect(closed.mileage).toBeCloseTo(baseline + 1001.5, 3);

    await page.goto(`/services?tab=archive&q=${tag}`);
    await expect(rowOf(page, `${tag} Oil service`)).toContainText('Closed');
    await page.getByTestId('services-tab-upcoming').click();
    await expect(rowOf(page, `${tag} Oil service`)).toHaveCount(0);
    await page.goto(`/unit/${main.id}`);
    await expect(page.getByTestId('object-state')).toHaveText(/Active/i);
    await page.goto(`/interval/${intervalId}?tab=units`);
    const reset = page.getByTestId(`assignment-u-${main.id}`);
    await expect(reset.getByLabel('Executions')).toHaveValue('1');
    expect(Number(await reset.getByLabel('Last mileage').inputValue())).toBeCloseTo(baseline + 1001.5, 3);

    // 6. Another one rejected from the list (a Due service planned in two days).
    const made = await request.post(`/api/fleets/${s.fid}/services`, {
      headers: s.headers,
      data: { t: 'u', uid: batch[0].id, f: 1, n: `${tag} Tyre check`, limit_date: fleetDay(2) },
    });
    expect(made.ok(), await made.text()).toBe(true);
    const rejectId = (await made.json()).id as number;
    await page.goto(`/services?q=${tag}`);
    await page.getByTestId(`service-menu-${rejectId}`).click();
    await page.getByRole('menuitem', { name: 'Reject' }).click();
    await page.getByRole('dialog', { name: 'Reject services' }).getByRole('button', { name: 'OK' }).click();
    await expect(rowOf(page, `${tag} Tyre check`)).toHaveCount(0);

    // 7. Three closed in one batch, each at its unit's current counter.
    const three: number[] = [];
    for (const [i, u] of batch.entries()) {
      const res = await request.post(`/api/fleets/${s.fid}/services`, {
        headers: s.headers,
        data: { t: 'u', uid: u.id, f: 1, n: `${tag} Batch ${i + 1}`, limit_date: fleetDay(1) },
      });
      expect(res.ok(), await res.text()).toBe(true);
      three.push((await res.json()).id as number);
    }
    await page.goto(`/services?q=${tag}`);
    for (const i of [1, 2, 3])
      await page.getByRole('checkbox', { name: `Select: ${tag} Batch ${i}` }).check();
    await page.getByTestId('services-bulk-close').click();
    await expect(page).toHaveURL('/services/close');
    await expect(page.getByTestId('close-all')).toHaveText('Close all (3)');
    await expectNoPageScroll(page, Math.max(width, 375));
    await screenshot(page, `maintenance-close-${width}`);
    await page.getByTestId('close-all').click();
    await expect(page).toHaveURL(/tab=archive/);
    await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
    for (const i of [1, 2, 3]) await expect(rowOf(page, `${tag} Batch ${i}`)).toContainText('Closed');
    await expect(rowOf(page, `${tag} Tyre check`)).toContainText('Rejected');
    for (const id of three) {
      const body = await (
        await request.get(`/api/fleets/${s.fid}/services/${id}`, { headers: s.headers })
      ).json();
      expect(body.f & 8).toBe(8);
    }
    await screenshot(page, `maintenance-archive-${width}`);

    // Tidy up what other journeys might count: the interval and the archived services.
    await request.delete(`/api/fleets/${s.fid}/intervals/${intervalId}`, { headers: s.headers });
    await request.delete(`/api/fleets/${s.fid}/services/archived/batch`, {
      headers: s.headers,
      data: { services: [serviceId, rejectId, ...three] },
    });
  });
}
