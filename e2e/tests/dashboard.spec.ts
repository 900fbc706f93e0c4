import type { Page } from '@playwright/test';
import { apiSession, expect, expectNoPageScroll, fleetDay, login, screenshot, test } from './fixtures.ts';

/** A number as the screen shows it to an English reader (docs/product.md): at most `decimals` digits. */
function shown(value: number, decimals: number): string {
  return new Intl.NumberFormat('en', { maximumFractionDigits: decimals }).format(value);
}

/** The ids of the sections on screen, in order. */
const sectionOrder = (page: Page) =>
  page
    .locator('[data-testid^="dash-section-"]')
    .evaluateAll((els) => els.map((e) => (e.getAttribute('data-testid') ?? '').replace('dash-section-', '')));

async function choosePeriod(page: Page, name: string) {
  await page.getByTestId('dash-period').click();
  await page.getByRole('option', { name, exact: true }).click();
}

test('the dashboard shows the fleet figures of a period and keeps the layout per user', async ({
  page,
  request,
}) => {
  const { fid, headers } = await apiSession(request, 'manager');
  const reset = () => request.patch('/api/user/settings', { headers, data: { dashboard: null } });
  await reset();
  const fleets: { id: number; cur: string }[] = (await (await request.get('/api/fleets', { headers })).json())
    .fleets;
  const cur = fleets.find((f) => f.id === fid)?.cur ?? '';
  // Money with the currency's minor units when the fleet's currency is an ISO code (docs/product.md).
  const money = (v: number) =>
    /^[A-Z]{3}$/.test(cur)
      ? new Intl.NumberFormat('en', { style: 'currency', currency: cur }).format(v)
      : new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v) +
        (cur ? ` ${cur}` : '');
  const open: { f: number }[] = (await (await request.get(`/api/fleets/${fid}/services`, { headers })).json())
    .services;
  const units: { id: number; nm: string; uid: string; ins: number }[] = (
    await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()
  ).units;
  // Fuel costs of two units: one today, one 20 days ago (in the month, not in the week).
  const [near, far] = [units.find((u) => u.uid === 'demo-020'), units.find((u) => u.uid === 'demo-021')];
  if (!near || !far) throw new Error('demo data missing');
  const fillings: number[] = [];
  const fill = async (uid: number, cost: number, date?: string) => {
    const res = await request.post(`/api/fleets/${fid}/fuel-fillings`, {
      headers,
      data: { uid, volume: 10, manual_cost: cost, ...(date ? { date } : {}) },
    });
    expect(res.ok(), await res.text()).toBe(true);
    fillings.push((await res.json()).id);
  };
  const stats = async (from: string, to: string) => {
    const res = await request.get(`/api/fleets/${fid}/statistics?from=${from}&to=${to}`, { headers });
    expect(res.ok(), await res.text()).toBe(true);
    return (await res.json()) as {
      total_cost: number;
      services_cost: number;
      fuel_cost: number;
      units: { uid: number; total_cost: number }[];
    };
  };

  try {
    await fill(near.id, 98765.4);
    await fill(far.id, 45678.9, `${fleetDay(-20)} 12:00:00`);
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    for (const id of [
      'status',
      'objects',
      'intervals',
      'costs',
      'perDistance',
      'costChart',
      'topUnits',
      'attention',
    ]) {
      await expect(page.getByTestId(`dash-section-${id}`)).toBeVisible();
    }
    // Services by status: the open services, the total in the donut's centre.
    await expect(page.getByTestId('dash-status-total')).toHaveText(shown(open.length, 0));
    await expect(page.getByTestId('dash-status-chart')).toHaveAttribute('data-ready', '1');
    await expect(page.getByTestId('dash-objects-units-active')).toHaveText(
      shown(units.filter((u) => u.ins === 0).length, 0),
    );
    await expect(page.getByTestId('dash-intervals-value')).toHaveText(/^\d/);
    await expect(page.getByTestId('dash-per-distance-value')).toContainText(/(^-$)|\d/);

    // Three periods: week and month per day, year per week; the costs are the statistics call's.
    const periods = [
      { name: 'Week', days: 7, step: 'Per day' },
      { name: 'Month', days: 30, step: 'Per day' },
      { name: 'Year', days: 365, step: 'Per week' },
    ];
    for (const p of periods) {
      await choosePeriod(page, p.name);
      const s = await stats(fleetDay(1 - p.days), fleetDay(0));
      await expect(page.getByTestId('dash-total-cost-value')).toHaveText(money(s.total_cost));
      await expect(page.getByTestId('dash-services-cost-value')).toHaveText(money(s.services_cost));
      await expect(page.getByTestId('dash-fuel-cost-value')).toHaveText(money(s.fuel_cost));
      await expect(page.getByTestId('dash-chart-step')).toHaveText(p.step);
      await expect(page.getByTestId('dash-cost-chart')).toHaveAttribute('data-ready', '1');
      // Ours are counted: the week holds the near one, the month and year both.
      expect(s.fuel_cost).toBeGreaterThanOrEqual(p.days === 7 ? 98765.4 : 98765.4 + 45678.9);
      // The demo's own fuel and services add to both units (demo/maintenance.ts): their totals are the
      // statistics call's, ours in them.
      const total = (id: number) => s.units.find((u) => u.uid === id)?.total_cost ?? 0;
      expect(total(near.id)).toBeGreaterThanOrEqual(98765.4);
      const top = page.getByTestId('dash-top-unit');
      await expect(top.first()).toContainText(near.nm);
      await expect(top.first()).toContainText(money(total(near.id)));
      if (p.days === 7) expect(total(far.id)).toBeLessThan(45678.9);
      else {
        expect(total(far.id)).toBeGreaterThanOrEqual(45678.9);
        await expect(top.filter({ hasText: far.nm })).toContainText(money(total(far.id)));
      }
    }
    await expect(page).toHaveURL('/dashboard?period=year');
    await screenshot(page, 'dashboard-h8-1280');

    // Hide a section and move another; both stay after a reload.
    const before = await sectionOrder(page);
    expect(before.slice(0, 4)).toEqual(['status', 'objects', 'intervals', 'costs']);
    await page.getByTestId('dash-customize').click();
    const dialog = page.getByRole('dialog', { name: 'Dashboard sections' });
    let saved = page.waitForResponse((r) => r.url().endsWith('/api/user/settings') && r.ok());
    await dialog.getByRole('checkbox', { name: 'Needs attention' }).uncheck();
    await saved;
    saved = page.waitForResponse((r) => r.url().endsWith('/api/user/settings') && r.ok());
    await dialog.getByRole('button', { name: 'Move Costs up' }).click();
    await saved;
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('dash-section-attention')).toHaveCount(0);
    const expected = ['status', 'objects', 'costs', 'intervals'];
    expect((await sectionOrder(page)).slice(0, 4)).toEqual(expected);

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page.getByTestId('dash-section-status')).toBeVisible();
    await expect(page.getByTestId('dash-section-attention')).toHaveCount(0);
    expect((await sectionOrder(page)).slice(0, 4)).toEqual(expected);

    // At 375 px: one column, no sideways scroll.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/dashboard?period=month');
    await expect(page.getByTestId('dash-cost-chart')).toHaveAttribute('data-ready', '1');
    const boxes = await Promise.all(
      ['status', 'objects'].map((id) => page.getByTestId(`dash-section-${id}`).boundingBox()),
    );
    expect(boxes[0]?.x).toBe(boxes[1]?.x);
    await expectNoPageScroll(page, 375);
    await screenshot(page, 'dashboard-h8-375');

    // Back to the default layout through the dialog.
    await page.getByTestId('dash-customize').click();
    await expect(dialog.getByRole('checkbox', { name: 'Needs attention' })).not.toBeChecked();
    await screenshot(page, 'dashboard-h8-customize-375');
    saved = page.waitForResponse((r) => r.url().endsWith('/api/user/settings') && r.ok());
    await dialog.getByRole('button', { name: 'Default layout' }).click();
    await saved;
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(page.getByTestId('dash-section-attention')).toBeVisible();
    expect((await sectionOrder(page)).slice(0, 4)).toEqual(before.slice(0, 4));
  } finally {
    await reset();
    for (const id of fillings) await request.delete(`/api/fleets/${fid}/fuel-fillings/${id}`, { headers });
  }
});
