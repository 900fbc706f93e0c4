import type { APIRequestContext, Page } from '@playwright/test';
import { type ApiSession, apiSession, cpuThrottle, expect, login, screenshot, test } from './fixtures.ts';

/**
 * Custom field values (spec §3 "Custom field", §7 "Custom fields"): edited in the service editor's
 * custom fields tab and on a unit's profile, kept after a reload, read-only for the viewer. The
 * definitions are made through the API (the fleet administration screen comes later).
 */

interface Field {
  id: number;
  n: string;
}

async function define(request: APIRequestContext, api: ApiSession, data: Record<string, unknown>) {
  const res = await request.post(`/api/fleets/${api.fid}/custom-fields`, { headers: api.headers, data });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as Field;
}

async function relogin(page: Page, user: 'manager' | 'viewer') {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await login(page, user);
  await expect(page).toHaveURL('/dashboard');
}

/** Both widths, and no horizontal page scroll at 375 px. */
async function shots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, `customfields-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, `customfields-${name}-375`);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('manager edits service and unit custom fields, they are kept; the viewer reads them', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const manager = await apiSession(request, 'manager');
  const tag = `cf${Date.now().toString(36)}`;
  const workOrder = await define(request, manager, { n: `${tag} Work order`, tp: 1, t: 's' });
  const priority = await define(request, manager, {
    n: `${tag} Priority`,
    tp: 2,
    t: 's',
    s: { options: ['Low', 'High'] },
  });
  const depot = await define(request, manager, { n: `${tag} Depot`, tp: 1, t: 'u' });

  const units = (
    await (await request.get(`/api/fleets/${manager.fid}/units`, { headers: manager.headers })).json()
  ).units as { id: number; nm: string }[];
  const unit = units[20] ?? units[0];
  if (!unit) throw new Error('demo units missing');
  const created = await request.post(`/api/fleets/${manager.fid}/services`, {
    headers: manager.headers,
    data: { t: 'u', uid: unit.id, f: 1, n: `${tag} Inspection` },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const serviceId = ((await created.json()) as { id: number }).id;

  // The service editor: the custom fields tab shows the fleet's service fields, editable.
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto(`/service/${serviceId}`);
  await page.getByRole('tab', { name: 'Custom fields' }).click();
  const custom = page.getByTestId('service-custom');
  await expect(custom.getByRole('textbox', { name: workOrder.n })).toBeVisible();
  await expect(custom.getByText(depot.n)).toHaveCount(0);
  await custom.getByRole('textbox', { name: workOrder.n }).fill('WO-2291');
  await custom.getByRole('combobox', { name: priority.n }).click();
  await page.getByRole('option', { name: 'High', exact: true }).click();
  await shots(page, 'service-edit');
  await page.getByTestId('service-save').click();
  await expect(page.getByTestId('service-saved')).toBeVisible();

  await page.reload();
  await page.getByRole('tab', { name: 'Custom fields' }).click();
  await expect(custom.getByRole('textbox', { name: workOrder.n })).toHaveValue('WO-2291');
  await expect(custom.getByRole('combobox', { name: priority.n })).toHaveValue('High');
  const stored = await (
    await request.get(`/api/fleets/${manager.fid}/services/${serviceId}`, { headers: manager.headers })
  ).json();
  expect(stored.cf).toEqual([
    { id: workOrder.id, v: 'WO-2291' },
    { id: priority.id, v: 'High' },
  ]);

  // Clearing the list value and saving sends it away.
  await custom.getByRole('combobox', { name: priority.n }).click();
  await page.getByRole('option', { name: 'Not set', exact: true }).click();
  await page.getByTestId('service-save').click();
  await expect(page.getByTestId('service-saved')).toBeVisible();
  await page.reload();
  await page.getByRole('tab', { name: 'Custom fields' }).click();
  await expect(custom.getByRole('combobox', { name: priority.n })).toHaveValue('');
  await expect(custom.getByRole('textbox', { name: workOrder.n })).toHaveValue('WO-2291');

  // The unit profile: the unit's fields, saved with the unit's PUT.
  await page.goto(`/unit/${unit.id}?tab=profile`);
  const profile = page.getByTestId('object-custom-fields');
  await expect(profile.getByRole('textbox', { name: depot.n })).toBeVisible();
  await expect(profile.getByText(workOrder.n)).toHaveCount(0);
  await expect(page.getByTestId('custom-fields-save')).toBeDisabled();
  await profile.getByRole('textbox', { name: depot.n }).fill('Riga north yard');
  await shots(page, 'unit-profile-edit');
  await page.getByTestId('custom-fields-save').click();
  await expect(page.getByTestId('custom-fields-saved')).toBeVisible();
  await page.reload();
  await expect(profile.getByRole('textbox', { name: depot.n })).toHaveValue('Riga north yard');

  // The viewer: the same values, as text, without inputs or a save button.
  await relogin(page, 'viewer');
  await page.goto(`/service/${serviceId}`);
  await page.getByRole('tab', { name: 'Custom fields' }).click();
  await expect(custom.getByTestId(`cf-${workOrder.id}`)).toHaveText('WO-2291');
  await expect(custom.getByTestId(`cf-${priority.id}`)).toHaveText('-');
  await expect(custom.getByRole('textbox')).toHaveCount(0);
  await expect(custom.getByRole('combobox')).toHaveCount(0);
  await shots(page, 'service-viewer');
  await page.goto(`/unit/${unit.id}?tab=profile`);
  await expect(profile.getByTestId(`cf-${depot.id}`)).toHaveText('Riga north yard');
  await expect(profile.getByRole('textbox')).toHaveCount(0);
  await expect(page.getByTestId('custom-fields-save')).toHaveCount(0);
  await shots(page, 'unit-profile-viewer');
});
