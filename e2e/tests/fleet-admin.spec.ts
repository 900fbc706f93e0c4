import type { APIRequestContext, Page } from '@playwright/test';
import { apiSession, expect, expectNoPageScroll, login, screenshot, test } from './fixtures.ts';

/** Spec §2 /fleet/{fleetId}: fleet settings and the access list with the spec §6 permission editor. */

interface Member {
  id: number;
  login: string;
  acl: number;
  ao: 0 | 1;
}

async function demoFleet(request: APIRequestContext) {
  const { headers } = await apiSession(request, 'admin');
  const fleets: { id: number; acl: number; cur: string }[] = (
    await (await request.get('/api/fleets', { headers })).json()
  ).fleets;
  const fleet = fleets.find((f) => (f.acl & 1) === 1);
  if (!fleet) throw new Error('demo data missing: admin is no fleet admin');
  return { headers, fleet };
}

async function members(request: APIRequestContext, fid: number, headers: Record<string, string>) {
  return (await (await request.get(`/api/fleets/${fid}/users`, { headers })).json()).users as Member[];
}

async function openAsAdmin(page: Page, fid: number, query = '') {
  await login(page, 'admin');
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await page.goto(`/fleet/${fid}${query}`);
}

test('a fleet admin changes the currency and it stays after a reload', async ({ page, request }) => {
  const { headers, fleet } = await demoFleet(request);
  try {
    await openAsAdmin(page, fleet.id);
    const currency = page.getByTestId('fleet-currency');
    await expect(currency).toHaveValue(fleet.cur);
    await currency.fill('CHF');
    await page.getByTestId('fleet-settings-save').click();
    await expect(page.getByTestId('fleet-settings-saved')).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('fleet-currency')).toHaveValue('CHF');
    await screenshot(page, 'fleet-admin-settings-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByTestId('fleet-currency')).toBeVisible();
    await expectNoPageScroll(page);
    await screenshot(page, 'fleet-admin-settings-375');
  } finally {
    const res = await request.put(`/api/fleets/${fleet.id}`, { headers, data: { cur: fleet.cur } });
    expect(res.status()).toBe(200);
  }
});

test('a fleet admin sets the daily distance limit of meter readings', async ({ page, request }) => {
  const { headers, fleet } = await demoFleet(request);
  try {
    await openAsAdmin(page, fleet.id);
    const limit = page.getByTestId('fleet-mdd');
    await expect(limit).toHaveValue('4800');
    await limit.fill('0');
    await page.getByTestId('fleet-settings-save').click();
    await expect(page.getByText('Enter a whole number between 1 and 100,000 km.')).toBeVisible();
    await limit.fill('3000');
    await page.getByTestId('fleet-settings-save').click();
    await expect(page.getByTestId('fleet-settings-saved')).toBeVisible();
    const fleets: { id: number; mdd: number }[] = (
      await (await request.get('/api/fleets', { headers })).json()
    ).fleets;
    expect(fleets.find((f) => f.id === fleet.id)?.mdd).toBe(3000);
    await page.reload();
    await expect(page.getByTestId('fleet-mdd')).toHaveValue('3000');
  } finally {
    const res = await request.put(`/api/fleets/${fleet.id}`, { headers, data: { mdd: 4800 } });
    expect(res.status()).toBe(200);
  }
});

test('ticking Services › Manage switches on what it needs and saves the acl', async ({ page, request }) => {
  const { headers, fleet } = await demoFleet(request);
  const seeded = await members(request, fleet.id, headers);
  const viewer = seeded.find((m) => m.login === 'viewer');
  if (!viewer) throw new Error('demo data missing: viewer is no member');
  try {
    await openAsAdmin(page, fleet.id, '?tab=users');
    const row = page.getByTestId('fleet-user-viewer');
    await expect(row).toBeVisible();
    // Intervals › View is needed by Services › View: fixed while that is ticked, free once it is not.
    await expect(row.getByTestId('acl-viewer-intervals-view')).toBeDisabled();
    await row.getByTestId('acl-viewer-services-view').uncheck();
    await row.getByTestId('acl-viewer-intervals-view').uncheck();
    await expect(row.getByTestId('acl-viewer-services-view')).not.toBeChecked();
    await row.getByTestId('acl-viewer-services-manage').check();
    // Spec §6: the rights it requires come on, shown ticked and fixed in place (docs/product.md
    // "Rights editor"): no box moves under the mouse.
    await expect(row.getByTestId('acl-viewer-intervals-view')).toBeChecked();
    await expect(row.getByTestId('acl-viewer-intervals-view')).toBeDisabled();
    await expect(row.getByTestId('acl-viewer-services-view')).toBeChecked();
    await expect(row.getByTestId('acl-viewer-services-view')).toBeDisabled();
    await expect(row.getByText('Also applies to fuel fillings.')).toBeVisible();
    await screenshot(page, 'fleet-admin-users-1280');
    await page.getByTestId('fleet-users-save').click();
    await expect(page.getByTestId('fleet-users-saved')).toBeVisible();
    const after = (await members(request, fleet.id, headers)).find((m) => m.id === viewer.id);
    expect((after?.acl ?? 0) & (2 | 64 | 128)).toBe(2 | 64 | 128);
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoPageScroll(page);
    await screenshot(page, 'fleet-admin-users-375');
  } finally {
    const res = await request.put(`/api/fleets/${fleet.id}/users`, {
      headers,
      data: { users: seeded.map((m) => ({ id: m.id, acl: m.acl, ao: m.ao })) },
    });
    expect(res.status()).toBe(200);
  }
});
