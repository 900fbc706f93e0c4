import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiSession, cpuThrottle, expect, expectNoPageScroll, login, test } from './fixtures.ts';

/**
 * Spec §2 /fuelfillings, /fuelfilling/{id} and the unit page's fuel tab (PRODUCT.md "Fuel fillings"):
 * a filling created from the unit page, seen on the tab and in the list with its exact total, corrected
 * by hand and deleted; a user without viewFuelFilling sees none of it.
 */

const SHOTS = '/tmp/shots-h5';

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

interface Unit {
  id: number;
  nm: string;
  cnm: number;
}

async function fuelOfUnit(
  request: APIRequestContext,
  fid: number,
  headers: Record<string, string>,
  uid: number,
) {
  const day = (d: number) => new Date(Date.now() + d * 86400_000).toISOString().slice(0, 10);
  const res = await request.get(
    `/api/fleets/${fid}/units/${uid}/fuel-fillings?from=${day(-2)}&to=${day(2)}`,
    {
      headers,
    },
  );
  return (await res.json()).fuel_fillings as { id: number; fuel_type: string; total_cost: number }[];
}

test('a manager records a fuel filling from the unit page, corrects its total and deletes it', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const units: Unit[] = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units;
  const unit = units.find((u) => u.nm === 'DAF XF 480') ?? units[0];
  if (!unit) throw new Error('demo data missing');
  const tag = `E2E fuel ${Date.now().toString(36)}`;
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/unit/${unit.id}?tab=fuel`);
    await expect(page.getByRole('tab', { name: 'Fuel fillings' })).toHaveAttribute('aria-selected', 'true');
    await page.getByTestId('object-create-fuel').click();
    await expect(page).toHaveURL(`/fuelfilling/new?unit=${unit.id}`);
    await expect(page.getByTestId('fuel-unit')).toHaveValue(unit.nm);
    // The mileage defaults to the unit's counter (km fleet).
    await expect(page.getByTestId('fuel-mileage')).not.toHaveValue('');

    // A new fuel type typed in: 'Create "…"' (it joins the library on save).
    await page.getByTestId('fuel-type').click();
    await page.getByTestId('fuel-type').fill(tag);
    await page.getByRole('option', { name: `Create "${tag}"` }).click();
    await page.getByTestId('fuel-volume').fill('40.5');
    await page.getByTestId('fuel-price').fill('1.799');
    // Exact: 40.5 × 1.799 = 72.8595 → 72.86 (3 decimals, half up).
    await expect(page.getByText('Volume × price = €72.86')).toBeVisible();
    await page.getByTestId('fuel-station').fill('Shell Lyon');
    await shot(page, 'editor-new-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoPageScroll(page);
    await shot(page, 'editor-new-375');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('fuel-save').click();
    await expect(page).toHaveURL(/\/fuelfilling\/\d+\?from=unit$/);
    const id = Number(/fuelfilling\/(\d+)/.exec(page.url())?.[1]);

    // On the unit's fuel tab.
    await page.getByTestId('fuel-back').click();
    await expect(page).toHaveURL(`/unit/${unit.id}?tab=fuel`);
    const tab = page.getByTestId('object-fuel');
    await expect(tab.getByRole('row').filter({ hasText: tag })).toContainText('€72.86');
    await shot(page, 'unit-tab-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(tab).toBeVisible();
    await expectNoPageScroll(page);
    await shot(page, 'unit-tab-375');
    await page.setViewportSize({ width: 1280, height: 800 });

    // In the list, found by the search: the totals are those of the rows shown.
    await page.goto(`/fuelfillings?q=${encodeURIComponent(tag)}`);
    const list = page.getByTestId('fuel-fillings');
    await expect(list.getByRole('row').filter({ hasText: tag })).toContainText('72.86');
    await expect(page.getByTestId('fuel-total-cost')).toHaveText('€72.86');
    await expect(page.getByTestId('fuel-total-volume')).toContainText('40.5');
    await shot(page, 'list-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByTestId('fuel-total-cost')).toBeVisible();
    await expectNoPageScroll(page);
    await shot(page, 'list-375');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The CSV holds the row.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = fs.readFileSync((await (await download).path()) as string, 'utf8');
    expect(csv).toContain(tag);

    // Edit: the total entered by hand replaces volume × price.
    await page.getByTestId(`fuel-menu-${id}`).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await expect(page).toHaveURL(`/fuelfilling/${id}`);
    await expect(page.getByTestId('fuel-volume')).toHaveValue('40.5');
    await expect(page.getByTestId('fuel-attachments-panel')).toBeVisible();
    await shot(page, 'editor-edit-1280');
    await page.getByTestId('fuel-total').fill('70');
    await page.getByTestId('fuel-save').click();
    await expect(page.getByTestId('fuel-saved')).toBeVisible();
    await expect
      .poll(
        async () => (await fuelOfUnit(request, fid, headers, unit.id)).find((f) => f.id === id)?.total_cost,
      )
      .toBe(70);
    await page.getByTestId('fuel-back').click();
    await expect(page).toHaveURL('/fuelfillings');
    await page.goto(`/fuelfillings?q=${encodeURIComponent(tag)}`);
    await expect(page.getByTestId('fuel-total-cost')).toHaveText('€70.00');

    // Delete (deleteFuelfilling), after asking.
    await page.getByTestId(`fuel-menu-${id}`).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    await expect(page.getByTestId('fuel-fillings-empty')).toBeVisible();
    expect((await fuelOfUnit(request, fid, headers, unit.id)).some((f) => f.id === id)).toBe(false);
    // A filling that is gone sends its editor to / (spec §8).
    await page.goto(`/fuelfilling/${id}`);
    await expect(page).not.toHaveURL(/fuelfilling/);
  } finally {
    for (const f of await fuelOfUnit(request, fid, headers, unit.id))
      if (f.fuel_type === tag) await request.delete(`/api/fleets/${fid}/fuel-fillings/${f.id}`, { headers });
    const items: { id: number; n: string }[] = (
      await (await request.get(`/api/fleets/${fid}/line_items`, { headers })).json()
    ).line_items;
    for (const item of items.filter((i) => i.n === tag))
      await request.delete(`/api/fleets/${fid}/line_items/${item.id}`, { headers });
  }
});

test('a user without fuel rights sees no fuel menu item nor tab, and /fuelfillings redirects', async ({
  page,
  request,
}) => {
  // Two sign-ins and five screens: over the default 30 s on a loaded machine.
  test.setTimeout(60_000 * cpuThrottle());
  const admin = await apiSession(request, 'admin');
  const members: { id: number; login: string; acl: number; ao: 0 | 1 }[] = (
    await (await request.get(`/api/fleets/${admin.fid}/users`, { headers: admin.headers })).json()
  ).users;
  const viewer = members.find((m) => m.login === 'viewer');
  if (!viewer) throw new Error('demo data missing: viewer is no member');
  const { fid, headers } = await apiSession(request, 'manager');
  const units: Unit[] = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units;
  const unit = units[0];
  if (!unit || fid !== admin.fid) throw new Error('demo data missing');
  try {
    // viewFuelFilling is bit 64 (spec §6); the viewer keeps View intervals only.
    const res = await request.put(`/api/fleets/${fid}/users`, {
      headers: admin.headers,
      data: { users: members.map((m) => ({ id: m.id, acl: m.id === viewer.id ? 2 : m.acl, ao: m.ao })) },
    });
    expect(res.status()).toBe(200);
    await login(page, 'viewer');
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Intervals' }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'Fuel fillings' })).toHaveCount(0);
    await page.goto(`/unit/${unit.id}?tab=fuel`);
    await expect(page.getByRole('tab', { name: 'General' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Fuel fillings' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Create fuel filling' })).toHaveCount(0);
    await page.goto('/fuelfillings');
    await expect(page).not.toHaveURL(/fuelfillings/);
    await page.goto('/fuelfilling/new');
    await expect(page).not.toHaveURL(/fuelfilling/);
  } finally {
    const res = await request.put(`/api/fleets/${fid}/users`, {
      headers: admin.headers,
      data: { users: members.map((m) => ({ id: m.id, acl: m.acl, ao: m.ao })) },
    });
    expect(res.status()).toBe(200);
  }
});

test('a price typed before a fuel type typed from the keyboard is the price sent and stored', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const units: Unit[] = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units;
  const unit = units[0];
  if (!unit) throw new Error('demo data missing');
  const tag = `E2E typed price ${Date.now().toString(36)}`;
  // A known fuel type of the library with its price per unit (the default of a choice).
  const made = await request.post(`/api/fleets/${fid}/line_items`, {
    headers,
    data: { n: tag, t: 4, c: 1.55 },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const itemId = (await made.json()).id as number;
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/fuelfilling/new?unit=${unit.id}`);
    await expect(page.getByTestId('fuel-unit')).toHaveValue(unit.nm);
    await page.getByTestId('fuel-volume').fill('10');
    await page.getByTestId('fuel-price').fill('1.66');
    // The known fuel type typed with the keyboard, not picked from the list; Save is the next click.
    await page.getByTestId('fuel-type').click();
    await page.getByTestId('fuel-type').pressSequentially(tag);
    const sent = page.waitForRequest(
      (r) => r.method() === 'POST' && new URL(r.url()).pathname === `/api/fleets/${fid}/fuel-fillings`,
    );
    await page.getByTestId('fuel-save').click();
    const body = (await sent).postDataJSON() as { fuel_type: string; price: string | null };
    expect(body.fuel_type).toBe(tag);
    expect(body.price).toBe('1.66');
    await expect(page).toHaveURL(/\/fuelfilling\/\d+/);
    const id = Number(/fuelfilling\/(\d+)/.exec(page.url())?.[1]);
    // Read back: the stored price is the one typed, and the editor shows it.
    const stored = await (await request.get(`/api/fleets/${fid}/fuel-fillings/${id}`, { headers })).json();
    expect(stored).toMatchObject({ fuel_type: tag, price: 1.66 });
    await expect(page.getByTestId('fuel-price')).toHaveValue('1.66');
    await expect(page.getByTestId('fuel-type')).toHaveValue(tag);
  } finally {
    for (const f of await fuelOfUnit(request, fid, headers, unit.id))
      if (f.fuel_type === tag) await request.delete(`/api/fleets/${fid}/fuel-fillings/${f.id}`, { headers });
    await request.delete(`/api/fleets/${fid}/line_items/${itemId}`, { headers });
  }
});
