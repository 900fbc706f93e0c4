import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiSession, cpuThrottle, expect, fleetDay, login, screenshot, test } from './fixtures.ts';
import { saveClosed } from './services-support.ts';

/** The service editor, /service/{id} (spec §2, §4, §5, §7 "Services"; PRODUCT.md "Services"). */

interface UnitWire {
  id: number;
  nm: string;
  cnm: number;
  cneh: number;
}

async function fleetUnits(request: APIRequestContext, fid: number, headers: Record<string, string>) {
  return ((await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units ??
    []) as UnitWire[];
}

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function setDate(page: Page, label: string, value: string) {
  const input = page.getByRole('textbox', { name: label, exact: true });
  await input.click();
  await input.fill(value);
  await input.blur();
}

/** Both widths of one tab, and no horizontal page scroll at 375 px. */
async function shots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, `service-editor-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, `service-editor-${name}-375`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('manager: create Due with line items, attach/download/delete a file, In progress, close, archive edit', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const tag = `se${Date.now().toString(36)}`;
  const libName = `${tag} oil filter`;
  const typedName = `${tag} gasket`;
  const lib = await request.post(`/api/fleets/${fid}/line_items`, {
    headers,
    data: { n: libName, t: 2, c: 12.345 },
  });
  expect(lib.ok(), await lib.text()).toBe(true);
  const unit = (await fleetUnits(request, fid, headers))[13] as UnitWire;

  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/service/new');
  await expect(page.getByRole('heading', { name: 'New service' })).toBeVisible();

  // Main data: a Due service for one unit; a planned date in the past is refused (spec §4 date rules).
  await pick(page, 'Objects', unit.nm);
  await page.getByRole('textbox', { name: 'Name' }).fill(`${tag} Brakes`);
  await page.getByTestId('service-fill-counters').click();
  await expect(page.getByTestId('service-mileage')).toHaveValue(String(unit.cnm));
  await setDate(page, 'Planned date', fleetDay(-1));
  await page.getByTestId('service-save').click();
  await expect(page.getByText('Must be today or later')).toBeVisible();
  await expect(page).toHaveURL('/service/new');
  await setDate(page, 'Planned date', fleetDay(2));
  await expect(page.getByText('Must be today or later')).toHaveCount(0);
  await page.getByTestId('service-notify').fill('3');
  await shots(page, 'new-main');

  // Line items: one from the library (its cost comes along), one typed; totals are exact.
  await page.getByRole('tab', { name: /Line items/ }).click();
  await page.getByTestId('service-add-line').click();
  const first = page.getByTestId('service-line').nth(0);
  await first.getByRole('textbox', { name: 'Name' }).fill(libName);
  await page.getByRole('option', { name: libName, exact: true }).click();
  await expect(first.getByRole('textbox', { name: 'Cost' })).toHaveValue('12.345');
  await first.getByRole('textbox', { name: 'Quantity' }).fill('3');
  await expect(first.getByTestId('service-line-total')).toHaveText('37.04'); // 12.345 × 3 in the currency's minor units
  await page.getByTestId('service-add-line').click();
  const second = page.getByTestId('service-line').nth(1);
  await second.getByRole('textbox', { name: 'Name' }).fill(typedName);
  await page.getByRole('option', { name: `Create "${typedName}"` }).click();
  await second.getByText('Labour').click();
  await second.getByRole('textbox', { name: 'Quantity' }).fill('0.1');
  await second.getByRole('textbox', { name: 'Cost' }).fill('0.2');
  await expect(second.getByTestId('service-line-total')).toHaveText('0.02');
  await expect(page.getByTestId('service-lines-total')).toHaveText('Total: €37.06');
  await shots(page, 'new-lines');

  await page.getByTestId('service-save').click();
  await expect(page).toHaveURL(/\/service\/\d+$/);
  const id = Number(page.url().split('/').pop());
  await expect(page.getByTestId('service-badge')).toHaveText('Due');
  await expect(page.getByRole('tab', { name: 'Line items (2)' })).toBeVisible();
  const stored = await (await request.get(`/api/fleets/${fid}/services/${id}`, { headers })).json();
  expect(stored).toMatchObject({
    n: `${tag} Brakes`,
    t: 'u',
    uid: unit.id,
    notify_days: 3,
    total_cost: 37.055,
  });
  expect(stored.li).toEqual([
    { n: libName, t: 2, q: 3, c: 12.345 },
    { n: typedName, t: 1, q: 0.1, c: 0.2 },
  ]);
  // The typed name joined the library.
  const library = (await (await request.get(`/api/fleets/${fid}/line_items`, { headers })).json()).line_items;
  expect(library.some((i: { n: string }) => i.n === typedName)).toBe(true);

  // Attachments: upload with progress, listed, downloaded with its content, deleted after a confirm.
  await page.getByRole('tab', { name: /Attachments/ }).click();
  await expect(page.getByText('No files attached.')).toBeVisible();
  await page.locator('input[type=file]').setInputFiles({
    name: `${tag}-note.txt`,
    mimeType: 'text/plain',
    buffer: Buffer.from(`hello ${tag}`),
  });
  const table = page.getByTestId('service-attachments');
  await expect(table.getByRole('row').filter({ hasText: `${tag}-note.txt` })).toContainText('16 B');
  await shots(page, 'attachments');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    table.getByRole('button', { name: `${tag}-note.txt`, exact: true }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${tag}-note.txt`);
  expect(fs.readFileSync(await download.path(), 'utf8')).toBe(`hello ${tag}`);
  await page.getByRole('button', { name: `Delete file: ${tag}-note.txt` }).click();
  await expect(page.getByRole('dialog', { name: 'Delete file' })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('No files attached.')).toBeVisible();

  await page.getByRole('tab', { name: 'Custom fields' }).click();
  await shots(page, 'custom');

  // In progress from today.
  await page.getByRole('tab', { name: 'Main data' }).click();
  await pick(page, 'Status', 'In progress');
  await expect(page.getByRole('textbox', { name: 'Start date' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Notify days before' })).toHaveCount(0);
  await page.getByTestId('service-save').click();
  await expect(page.getByTestId('service-badge')).toHaveText('In progress');
  await expect(page.getByTestId('service-saved')).toBeVisible();

  // Closed with an end date: a confirmation, then the archive.
  await pick(page, 'Status', 'Closed');
  await setDate(page, 'End date', fleetDay(1));
  await page.getByTestId('service-save').click();
  await expect(page.getByText('Must be today or earlier')).toBeVisible();
  await setDate(page, 'End date', fleetDay(0));
  await saveClosed(page);
  const closed = await (await request.get(`/api/fleets/${fid}/services/${id}`, { headers })).json();
  expect(closed.f & 8).toBe(8);

  // The manager has archiveEdit (acl 1023): corrections only (name among them), the status is frozen.
  await expect(page.getByTestId('service-archive-edit')).toBeVisible();
  await expect(page.getByTestId('service-status')).toBeDisabled();
  await page.getByRole('textbox', { name: 'Name' }).fill(`${tag} Brakes corrected`);
  await page.getByRole('textbox', { name: 'Description' }).fill('Corrected in the archive');
  await page.getByTestId('service-save').click();
  await expect(page.getByTestId('service-saved')).toBeVisible();
  const corrected = await (await request.get(`/api/fleets/${fid}/services/${id}`, { headers })).json();
  expect(corrected).toMatchObject({ n: `${tag} Brakes corrected`, description: 'Corrected in the archive' });
  await shots(page, 'archived-manager');
});

test('closing an overdue interval service without typing a mileage resets the baseline to the counters', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const unit = (await fleetUnits(request, fid, headers))[19] as UnitWire;
  const tag = `se${Date.now().toString(36)}`;
  // A unit at 902,220 km, every 1,000 km with 200 km notice, last serviced at 901,000: overdue at once.
  const counters = await request.put(`/api/fleets/${fid}/units/${unit.id}`, {
    headers,
    data: { cnm: 902_220 },
  });
  expect(counters.ok(), await counters.text()).toBe(true);
  const interval = await request.post(`/api/fleets/${fid}/intervals`, {
    headers,
    data: {
      n: `${tag} oil`,
      cnme: 1,
      cnmd: 1000,
      cnmo: 200,
      u: [{ id: unit.id, t: 'u', lcnm: 901_000, cnt: 3 }],
    },
  });
  expect(interval.ok(), await interval.text()).toBe(true);
  const ivid = (await interval.json()).id as number;
  const openOfInterval = async () =>
    (
      (await (
        await request.get(`/api/fleets/${fid}/services?object_type=u&object_id=${unit.id}`, { headers })
      ).json()) as { services: { id: number; ivid: number | null; f: number; mileage: number | null }[] }
    ).services.filter((s) => s.ivid === ivid);
  const [service] = await openOfInterval();
  expect(service).toMatchObject({ f: 1 | 4 | 256, mileage: null });

  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto(`/service/${service!.id}`);
  await expect(page.getByTestId('service-badge')).toHaveText('Overdue');
  await pick(page, 'Status', 'Closed');
  await setDate(page, 'End date', fleetDay(0));
  await expect(page.getByTestId('service-mileage')).toHaveValue('');
  await saveClosed(page);
  const closed = await (await request.get(`/api/fleets/${fid}/services/${service!.id}`, { headers })).json();
  expect(closed.mileage).toBe(902_220);
  // No new service of the interval until the next notice.
  expect(await openOfInterval()).toEqual([]);

  // The interval's unit row shows the new baseline and one more execution.
  await page.goto(`/interval/${ivid}`);
  await page.getByTestId('tab-units').click();
  const row = page.getByTestId(`assignment-u-${unit.id}`);
  await expect(row.getByLabel('Last mileage')).toHaveValue('902220');
  await expect(row.getByLabel('Executions')).toHaveValue('4');

  await request.delete(`/api/fleets/${fid}/intervals/${ivid}`, { headers });
  await request.delete(`/api/fleets/${fid}/services/archived/batch`, {
    headers,
    data: { services: [service!.id] },
  });
});

test('mechanic (no archiveEdit): archived read-only, open service editable and rejected', async ({
  page,
  request,
}) => {
  const { fid, headers } = await apiSession(request, 'manager');
  const unit = (await fleetUnits(request, fid, headers))[14] as UnitWire;
  const tag = `se${Date.now().toString(36)}`;
  const made = await request.post(`/api/fleets/${fid}/services`, {
    headers,
    data: { t: 'u', uid: unit.id, f: 8, n: `${tag} archived`, li: [{ n: `${tag} part`, t: 2, q: 1, c: 5 }] },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const { id } = await made.json();
  const open = await request.post(`/api/fleets/${fid}/services`, {
    headers,
    data: { t: 'u', uid: unit.id, f: 1, n: `${tag} open` },
  });
  const openId = (await open.json()).id as number;

  await login(page, 'mechanic');
  await expect(page).not.toHaveURL(/login/);
  await page.goto(`/service/${id}`);
  await expect(page.getByTestId('service-readonly')).toHaveText('This service is archived and read-only.');
  await expect(page.getByTestId('service-save')).toHaveCount(0);
  await page.getByRole('tab', { name: /Line items/ }).click();
  await expect(page.getByTestId('service-lines')).toContainText(`${tag} part`);
  await expect(page.getByTestId('service-add-line')).toHaveCount(0);
  await page.getByRole('tab', { name: /Attachments/ }).click();
  await expect(page.getByTestId('service-attach')).toHaveCount(0);
  // An open service stays editable for the mechanic (manageService).
  await page.goto(`/service/${openId}`);
  await expect(page.getByTestId('service-save')).toBeVisible();
  await expect(page.getByTestId('service-status')).toBeEnabled();
  // The mechanic rejects it: a confirmation, then the archive, read-only for them.
  await pick(page, 'Status', 'Rejected');
  await page.getByTestId('service-save').click();
  const confirm = page.getByRole('dialog', { name: 'Move to the archive?' });
  await expect(confirm).toContainText('Rejecting moves the service to the archive');
  await confirm.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByTestId('service-badge')).toHaveText('Rejected');
  await expect(page.getByTestId('service-readonly')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Rejected on' })).toHaveValue(/\d/);
});

test('viewer: read-only, /service/new redirects', async ({ page, request }) => {
  const { fid, headers } = await apiSession(request, 'manager');
  const unit = (await fleetUnits(request, fid, headers))[15] as UnitWire;
  const made = await request.post(`/api/fleets/${fid}/services`, {
    headers,
    data: { t: 'u', uid: unit.id, f: 8, n: `se${Date.now().toString(36)} viewer` },
  });
  const { id } = await made.json();
  await login(page, 'viewer');
  await expect(page).not.toHaveURL(/login/);
  await page.goto(`/service/${id}`);
  await expect(page.getByTestId('service-readonly')).toBeVisible();
  await expect(page.getByTestId('service-save')).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Description' })).toHaveAttribute('readonly', '');
  await shots(page, 'viewer');
  await page.goto('/service/new');
  await expect(page).not.toHaveURL('/service/new');
});

test('/service/new with two objects in navigation state creates two services in one call', async ({
  page,
  request,
}) => {
  const { fid, headers } = await apiSession(request, 'manager');
  const units = await fleetUnits(request, fid, headers);
  const [a, b] = [units[16] as UnitWire, units[17] as UnitWire];
  const name = `se${Date.now().toString(36)} batch`;
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  const batchCalls: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/services(\/batch)?$/.test(r.url())) batchCalls.push(r.url());
  });
  await page.evaluate(
    ({ ids }) => {
      const idx = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
      const usr = { objects: ids.map((id) => ({ id, t: 'u' })) };
      window.history.pushState({ usr, key: 'batch', idx }, '', '/service/new');
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    },
    { ids: [a.id, b.id, 987654] },
  );
  await expect(page).toHaveURL('/service/new');
  await expect(page.getByText('Objects chosen: 2.', { exact: false })).toBeVisible();
  await expect(page.locator('.mantine-MultiSelect-pill', { hasText: a.nm })).toBeVisible();
  await expect(page.locator('.mantine-MultiSelect-pill', { hasText: b.nm })).toBeVisible();
  await expect(page.locator('.mantine-MultiSelect-pill')).toHaveCount(2);
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await pick(page, 'Status', 'Closed');
  await expect(page.getByTestId('service-save')).toHaveText('Create services (2)');
  await page.getByTestId('service-save').click();
  await expect(page).toHaveURL('/services');
  expect(batchCalls).toHaveLength(1);
  expect(batchCalls[0]).toMatch(/\/services\/batch$/);
  const to = fleetDay(0);
  const archived = (
    await (await request.get(`/api/fleets/${fid}/services/archived?from=${to}&to=${to}`, { headers })).json()
  ).services as { n: string; uid: number; mileage: number }[];
  const mine = archived.filter((s) => s.n === name);
  expect(mine.map((s) => s.uid).sort()).toEqual([a.id, b.id].sort());
  // Closed without counters: each unit's own counters (PRODUCT.md "Services").
  expect(mine.find((s) => s.uid === a.id)?.mileage).toBe(a.cnm);
});

test('unknown ids go to /services; leaving with unsaved changes warns', async ({ page }) => {
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/service/99999999');
  await expect(page).toHaveURL('/services');
  await page.goto('/service/abc');
  await expect(page).toHaveURL('/services');

  await page.goto('/service/new');
  await page.getByRole('textbox', { name: 'Name' }).fill('unsaved');
  await page.getByRole('button', { name: 'Cancel' }).click();
  const warning = page.getByRole('dialog', { name: 'Warning!' });
  await expect(warning).toContainText('If you leave this page now, all unsaved changes will be cancelled.');
  await warning.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL('/service/new');
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('unsaved');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('dialog', { name: 'Warning!' }).getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL('/services');
});
