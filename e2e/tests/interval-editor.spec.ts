import type { Page } from '@playwright/test';
import { apiSession, cpuThrottle, expect, login, screenshot, test } from './fixtures.ts';

interface UnitWire {
  id: number;
  nm: string;
  cnm: number;
}

/** No horizontal page scroll (spec: usable at 375 px). */
async function expectNoPageScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

async function shootTabs(page: Page, width: number) {
  await page.setViewportSize({ width, height: 900 });
  for (const tab of ['general', 'units', 'lines'] as const) {
    await page.getByTestId(`tab-${tab}`).click();
    await expect(page.getByTestId(`tab-${tab}`)).toHaveAttribute('aria-selected', 'true');
    await expectNoPageScroll(page);
    await screenshot(page, `interval-editor-${tab}-${width}`);
  }
  await page.getByTestId('tab-general').click();
}

test('manager creates an interval with an assignment, a baseline and line items; all kept over a reload', async ({
  page,
  request,
}) => {
  // One long journey (create, reload, four tabs at two widths, a duplicate name): about 30 s on a busy
  // 2-core machine, so it gets the longer limit the other long journeys have.
  test.setTimeout(60_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const tag = `ie${Date.now().toString(36)}`;
  const name = `${tag} Oil change`;
  const libraryName = `${tag} Oil filter`;
  const typedName = `${tag} Fitting work`;
  const { units } = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()) as {
    units: UnitWire[];
  };
  const unit = units[2] as UnitWire;
  const lib = await request.post(`/api/fleets/${fid}/line_items`, {
    headers,
    data: { n: libraryName, t: 2, c: 12.5 },
  });
  expect(lib.ok(), await lib.text()).toBe(true);
  let intervalId: number | null = null;
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto('/intervals');
    await page.getByTestId('interval-new').click();
    await expect(page).toHaveURL('/interval/new');
    await expect(page.getByRole('heading', { level: 1, name: 'New interval' })).toBeVisible();

    // General: name and mileage with advance notice.
    await page.getByLabel('Name').fill(name);
    await page.getByRole('switch', { name: 'By mileage' }).check({ force: true });
    await page.getByTestId('mileage-every').fill('15000');
    await page.getByTestId('mileage-notice').fill('1000');

    // Assigned units: pick the unit, see the defaults, set a baseline by hand.
    await page.getByTestId('tab-units').click();
    await expect(page.getByTestId('assigned-empty')).toBeVisible();
    await page.getByTestId('assign-objects').click();
    await page.getByTestId('assign-objects').fill(unit.nm);
    await page.getByRole('option', { name: `${unit.nm} (Unit)` }).click();
    await page.getByTestId('assign-add').click();
    const card = page.getByTestId(`assignment-u-${unit.id}`);
    await expect(card).toBeVisible();
    await expect(card.getByTestId('assignment-new-hint')).toBeVisible();
    // Defaults: the unit's current mileage (it may have moved a little) and no executions.
    const shownDefault = Number(await card.getByLabel('Last mileage').inputValue());
    expect(Math.abs(shownDefault - unit.cnm)).toBeLessThan(50);
    await expect(card.getByLabel('Executions')).toHaveValue('0');
    await expect(card.getByTestId('remaining-mileage')).toContainText('Mileage: In:');
    const baseline = Math.round(unit.cnm) - 100;
    await card.getByLabel('Last mileage').fill(String(baseline));
    await card.getByLabel('Executions').fill('2');
    await expect(card.getByTestId('remaining-mileage')).toHaveText(/^Mileage: In: 14,[89]\d\d km$/);

    // Line items: one from the library, one typed (joins the library).
    await page.getByTestId('tab-lines').click();
    await page.getByTestId('line-add').click();
    const first = page.getByTestId('line').nth(0);
    await first.getByLabel('Name').fill(libraryName.slice(0, -3));
    await page.getByRole('option', { name: libraryName, exact: true }).click();
    await expect(first.getByLabel('Cost')).toHaveValue('12.5');
    await first.getByLabel('Quantity').fill('2');
    await expect(first.getByTestId('line-total')).toHaveText('€25.00');
    await page.getByTestId('line-add').click();
    const second = page.getByTestId('line').nth(1);
    await second.getByLabel('Name').fill(typedName);
    await page.getByRole('option', { name: `Create "${typedName}"` }).click();
    await second.getByLabel('Type').click();
    await page.getByRole('option', { name: 'Labour' }).click();
    await second.getByLabel('Quantity').fill('1.5');
    await second.getByLabel('Cost').fill('30.5');
    await expect(second.getByTestId('line-total')).toHaveText('€45.75');
    await expect(page.getByTestId('lines-total')).toHaveText('Total: €70.75');

    await page.getByTestId('interval-save').click();
    await expect(page).toHaveURL(/\/interval\/\d+\?tab=lines$/);
    intervalId = Number(/\/interval\/(\d+)/.exec(page.url())?.[1]);
    await expect(page.getByTestId('interval-title')).toHaveText(name);

    // Everything is kept over a reload.
    await page.reload();
    await expect(page.getByTestId('line')).toHaveCount(2);
    await expect(page.getByTestId('line').nth(0).getByLabel('Name')).toHaveValue(libraryName);
    await expect(page.getByTestId('line').nth(1).getByLabel('Name')).toHaveValue(typedName);
    await expect(page.getByTestId('line').nth(1).getByLabel('Type')).toHaveValue('Labour');
    await expect(page.getByTestId('lines-total')).toHaveText('Total: €70.75');
    await page.getByTestId('tab-units').click();
    const kept = page.getByTestId(`assignment-u-${unit.id}`);
    await expect(kept.getByLabel('Last mileage')).toHaveValue(String(baseline));
    await expect(kept.getByLabel('Executions')).toHaveValue('2');
    await expect(kept.getByTestId('assignment-new-hint')).toHaveCount(0);
    await page.getByTestId('tab-general').click();
    await expect(page.getByLabel('Name')).toHaveValue(name);
    await expect(page.getByTestId('mileage-every')).toHaveValue('15000');
    await expect(page.getByTestId('mileage-notice')).toHaveValue('1000');
    await expect(page.getByRole('switch', { name: 'By engine hours' })).not.toBeChecked();

    // The typed name joined the library.
    const library = (await (await request.get(`/api/fleets/${fid}/line_items`, { headers })).json()) as {
      line_items: { n: string; t: number }[];
    };
    expect(library.line_items.some((i) => i.n === typedName && i.t === 1)).toBe(true);

    await shootTabs(page, 1280);
    await shootTabs(page, 375);
    await page.setViewportSize({ width: 1280, height: 900 });

    // The same name again: the duplicate error on the name field.
    await page.goto('/interval/new');
    await page.getByLabel('Name').fill(name.toUpperCase());
    await page.getByRole('switch', { name: 'By time' }).check({ force: true });
    await page.getByTestId('time-every').fill('6');
    await page.getByTestId('interval-save').click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'An interval with this name exists' }),
    ).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL('/interval/new');

    // Leaving with unsaved changes asks first (spec §2).
    await page.getByRole('link', { name: '← Intervals' }).click();
    const dialog = page.getByRole('dialog', { name: 'Warning!' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await expect(page).toHaveURL('/interval/new');
    await expect(page.getByLabel('Name')).toHaveValue(name.toUpperCase());
    await page.getByRole('link', { name: '← Intervals' }).click();
    await page.getByRole('dialog', { name: 'Warning!' }).getByRole('button', { name: 'Leave' }).click();
    await expect(page).toHaveURL('/intervals');

    // Delete with the confirm dialog.
    await page.goto(`/interval/${intervalId}`);
    await page.getByTestId('interval-delete').click();
    const confirm = page.getByRole('dialog', { name: 'Delete interval' });
    await expect(confirm).toContainText(name);
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL('/intervals');
    const after = await request.get(`/api/fleets/${fid}/intervals/${intervalId}/units`, { headers });
    expect(after.status()).toBe(404);
    intervalId = null;
  } finally {
    if (intervalId !== null) await request.delete(`/api/fleets/${fid}/intervals/${intervalId}`, { headers });
    const library = (await (await request.get(`/api/fleets/${fid}/line_items`, { headers })).json()) as {
      line_items: { id: number; n: string }[];
    };
    for (const item of library.line_items.filter((i) => i.n.startsWith(tag)))
      await request.delete(`/api/fleets/${fid}/line_items/${item.id}`, { headers });
  }
});

test('/interval/new preselects the objects passed in navigation state', async ({ page, request }) => {
  const { fid, headers } = await apiSession(request, 'manager');
  const { units } = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()) as {
    units: UnitWire[];
  };
  const { drivers } = (await (await request.get(`/api/fleets/${fid}/drivers`, { headers })).json()) as {
    drivers: { id: number; n: string }[];
  };
  const unit = units[4] as UnitWire;
  const driver = drivers[0] as { id: number; n: string };
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/intervals');
  await expect(page.getByTestId('interval-new')).toBeVisible();
  // Navigate inside the app with state, as the /items bulk mode does (react-router keeps it in `usr`).
  await page.evaluate(
    ({ unitId, driverId }) => {
      const idx = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
      const usr = {
        assign: [
          { id: unitId, t: 'u' },
          { id: driverId, t: 'd' },
          { id: 987654, t: 'u' },
        ],
      };
      window.history.pushState({ usr, key: 'assign', idx }, '', '/interval/new');
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    },
    { unitId: unit.id, driverId: driver.id },
  );
  await expect(page).toHaveURL('/interval/new');
  await expect(page.getByTestId('tab-units')).toContainText('2');
  await page.getByTestId('tab-units').click();
  const unitCard = page.getByTestId(`assignment-u-${unit.id}`);
  await expect(unitCard).toContainText(unit.nm);
  await expect(unitCard.getByTestId('assignment-new-hint')).toBeVisible();
  await expect(page.getByTestId(`assignment-d-${driver.id}`)).toContainText(driver.n);
  // Drivers have no counters: only the date and executions.
  await expect(page.getByTestId(`assignment-d-${driver.id}`).getByLabel('Last mileage')).toHaveCount(0);
  await expect(page.getByTestId('assignment-u-987654')).toHaveCount(0);

  // Save needs a name and a kind: the errors show, the General tab opens.
  await page.getByTestId('interval-save').click();
  await expect(page.getByTestId('tab-general')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('kinds-error')).toBeVisible();
});

test('viewer sees the interval read-only; /interval/new and unknown ids redirect', async ({
  page,
  request,
}) => {
  const { fid, headers } = await apiSession(request, 'manager');
  const tag = `iev${Date.now().toString(36)}`;
  const { units } = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()) as {
    units: UnitWire[];
  };
  const created = await request.post(`/api/fleets/${fid}/intervals`, {
    headers,
    data: {
      n: `${tag} Brakes`,
      de: 1,
      dd: 6,
      du: 'm',
      do: 14,
      u: [{ id: (units[5] as UnitWire).id, t: 'u' }],
      li: [{ n: `${tag} Pads`, t: 2, q: 1, c: 80 }],
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const id = (await created.json()).id as number;
  try {
    await login(page, 'viewer');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/interval/${id}`);
    await expect(page.getByTestId('interval-title')).toHaveText(`${tag} Brakes`);
    await expect(page.getByTestId('interval-readonly')).toBeVisible();
    await expect(page.getByTestId('interval-save')).toHaveCount(0);
    await expect(page.getByTestId('interval-delete')).toHaveCount(0);
    await expect(page.getByLabel('Name')).toHaveAttribute('readonly', '');
    await expect(page.getByRole('switch', { name: 'By time' })).toBeDisabled();
    await expect(page.getByTestId('time-every')).toHaveValue('6');
    await page.getByTestId('tab-units').click();
    await expect(page.getByTestId('assign-picker')).toHaveCount(0);
    await expect(page.getByTestId('assignment-remove')).toHaveCount(0);
    await expect(page.getByTestId('remaining-time')).toContainText('Time: In:');
    await page.getByTestId('tab-lines').click();
    await expect(page.getByTestId('line-name')).toHaveText(`${tag} Pads`);
    await expect(page.getByTestId('line-add')).toHaveCount(0);
    await expect(page.getByTestId('lines-total')).toContainText('80');

    await page.setViewportSize({ width: 375, height: 900 });
    await page.getByTestId('tab-units').click();
    await expectNoPageScroll(page);
    await screenshot(page, 'interval-editor-viewer-units-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    // 'new' is for managers only (spec §2).
    await page.goto('/interval/new');
    await expect(page).not.toHaveURL(/\/interval\/new/);

    await page.goto('/interval/99999999');
    await expect(page).toHaveURL('/intervals');
    await page.goto('/interval/abc');
    await expect(page).toHaveURL('/intervals');
  } finally {
    await request.delete(`/api/fleets/${fid}/intervals/${id}`, { headers });
    const library = (await (await request.get(`/api/fleets/${fid}/line_items`, { headers })).json()) as {
      line_items: { id: number; n: string }[];
    };
    for (const item of library.line_items.filter((i) => i.n.startsWith(tag)))
      await request.delete(`/api/fleets/${fid}/line_items/${item.id}`, { headers });
  }
});
