import type { APIRequestContext, Page, Request } from '@playwright/test';
import { apiSession, cpuThrottle, expect, login, screenshotsAtBothWidths, test } from './fixtures.ts';
import { cleanUp } from './services-support.ts';

/**
 * The defaults a choice brings (a library item's cost or price, a unit's counter) fill only a field that
 * is empty or still holds the previous choice's default: a value the user typed is what is sent and
 * stored, whether the choice was picked from the list or typed with the keyboard. The service editor's
 * and the interval editor's line items, and the fuel editor's unit and fuel type (its typed-price journey
 * lives in fuel.spec.ts).
 */

interface UnitWire {
  id: number;
  nm: string;
  cnm: number;
}

async function firstUnits(request: APIRequestContext, fid: number, headers: Record<string, string>) {
  const units = ((await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units ??
    []) as UnitWire[];
  const [a, b] = units.filter((u) => u.cnm > 0);
  if (!a || !b) throw new Error('demo data missing: two units with a mileage');
  return [a, b] as const;
}

async function libraryItem(
  request: APIRequestContext,
  fid: number,
  headers: Record<string, string>,
  data: { n: string; t: number; c: number },
): Promise<number> {
  const res = await request.post(`/api/fleets/${fid}/line_items`, { headers, data });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).id as number;
}

async function removeItems(
  request: APIRequestContext,
  fid: number,
  headers: Record<string, string>,
  prefix: string,
) {
  const items: { id: number; n: string }[] = (
    await (await request.get(`/api/fleets/${fid}/line_items`, { headers })).json()
  ).line_items;
  for (const item of items.filter((i) => i.n.startsWith(prefix)))
    await request.delete(`/api/fleets/${fid}/line_items/${item.id}`, { headers });
}

const posted = (page: Page, path: string) =>
  page.waitForRequest((r: Request) => r.method() === 'POST' && new URL(r.url()).pathname === path);

test('service editor: a cost typed before the line name is typed is kept; a picked name fills an empty cost', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const tag = `cd${Date.now().toString(36)}`;
  await libraryItem(request, fid, headers, { n: `${tag} oil filter`, t: 2, c: 12.5 });
  await libraryItem(request, fid, headers, { n: `${tag} air filter`, t: 2, c: 20 });
  const [unit] = await firstUnits(request, fid, headers);
  const ids: number[] = [];
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto('/service/new');
    await page.getByRole('combobox', { name: 'Objects', exact: true }).click();
    await page.getByRole('option', { name: unit.nm, exact: true }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill(`${tag} Filters`);

    await page.getByRole('tab', { name: /Line items/ }).click();
    // Line 1: the cost typed first, then a known name typed with the keyboard (not picked).
    await page.getByTestId('service-add-line').click();
    const first = page.getByTestId('service-line').nth(0);
    await first.getByRole('textbox', { name: 'Cost' }).fill('9.99');
    await first.getByRole('textbox', { name: 'Name' }).click();
    await first.getByRole('textbox', { name: 'Name' }).pressSequentially(`${tag} oil filter`);
    await first.getByRole('textbox', { name: 'Quantity' }).click();
    await expect(first.getByRole('textbox', { name: 'Name' })).toHaveValue(`${tag} oil filter`);
    await expect(first.getByRole('textbox', { name: 'Cost' })).toHaveValue('9.99');

    // Line 2: picked into an empty cost, the library's cost comes along; another pick replaces that
    // untouched default with its own.
    await page.getByTestId('service-add-line').click();
    const second = page.getByTestId('service-line').nth(1);
    await second.getByRole('textbox', { name: 'Name' }).fill(`${tag} oil`);
    await page.getByRole('option', { name: `${tag} oil filter`, exact: true }).click();
    await expect(second.getByRole('textbox', { name: 'Cost' })).toHaveValue('12.5');
    await second.getByRole('textbox', { name: 'Name' }).fill(`${tag} air`);
    await page.getByRole('option', { name: `${tag} air filter`, exact: true }).click();
    await expect(second.getByRole('textbox', { name: 'Cost' })).toHaveValue('20');

    // Line 3: a typed cost, then a known name typed and left by the click on Save.
    await page.getByTestId('service-add-line').click();
    const third = page.getByTestId('service-line').nth(2);
    await third.getByRole('textbox', { name: 'Cost' }).fill('7.25');
    await third.getByRole('textbox', { name: 'Name' }).click();
    await third.getByRole('textbox', { name: 'Name' }).pressSequentially(`${tag} air filter`);
    const sent = posted(page, `/api/fleets/${fid}/services`);
    await page.getByTestId('service-save').click();
    const body = (await sent).postDataJSON() as { li: { n: string; c: unknown }[] };
    expect(body.li.map((l) => [l.n, String(l.c)])).toEqual([
      [`${tag} oil filter`, '9.99'],
      [`${tag} air filter`, '20'],
      [`${tag} air filter`, '7.25'],
    ]);
    await expect(page).toHaveURL(/\/service\/\d+$/);
    const id = Number(page.url().split('/').pop());
    ids.push(id);
    const stored = await (await request.get(`/api/fleets/${fid}/services/${id}`, { headers })).json();
    expect(stored.li.map((l: { n: string; c: number }) => [l.n, l.c])).toEqual([
      [`${tag} oil filter`, 9.99],
      [`${tag} air filter`, 20],
      [`${tag} air filter`, 7.25],
    ]);

    // Editing a stored line: a known name typed over it keeps the stored cost. The saved service's
    // editor replaces the new one: a tab clicked before it has rendered is lost, so click until selected.
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`${tag} Filters`);
    const linesTab = page.getByRole('tab', { name: /Line items/ });
    await expect(async () => {
      await linesTab.click();
      await expect(linesTab).toHaveAttribute('aria-selected', 'true', { timeout: 1000 });
    }).toPass();
    const kept = page.getByTestId('service-line').nth(0);
    await expect(kept.getByRole('textbox', { name: 'Cost' })).toHaveValue('9.99');
    await kept.getByRole('textbox', { name: 'Name' }).fill(`${tag} air filter`);
    await kept.getByRole('textbox', { name: 'Quantity' }).click();
    await expect(kept.getByRole('textbox', { name: 'Name' })).toHaveValue(`${tag} air filter`);
    await expect(kept.getByRole('textbox', { name: 'Cost' })).toHaveValue('9.99');
    await screenshotsAtBothWidths(page, 'choice-defaults-service-lines');
    await page.getByRole('tab', { name: 'Main data' }).click();
    await screenshotsAtBothWidths(page, 'choice-defaults-service-main');
  } finally {
    await cleanUp(request, fid, headers, ids, []);
    await removeItems(request, fid, headers, tag);
  }
});

test('interval editor: a cost typed before the line name is typed is what is saved', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const tag = `cd${Date.now().toString(36)}`;
  await libraryItem(request, fid, headers, { n: `${tag} pads`, t: 2, c: 40 });
  await libraryItem(request, fid, headers, { n: `${tag} discs`, t: 2, c: 90 });
  let intervalId: number | null = null;
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto('/interval/new');
    await page.getByLabel('Name').fill(`${tag} Brakes`);
    await page.getByRole('switch', { name: 'By mileage' }).check({ force: true });
    await page.getByTestId('mileage-every').fill('15000');
    await page.getByTestId('mileage-notice').fill('1000');

    await page.getByTestId('tab-lines').click();
    await page.getByTestId('line-add').click();
    const first = page.getByTestId('line').nth(0);
    await first.getByLabel('Cost').fill('33.5');
    await first.getByLabel('Name').click();
    await first.getByLabel('Name').pressSequentially(`${tag} pads`);
    await first.getByLabel('Quantity').click();
    await expect(first.getByLabel('Name')).toHaveValue(`${tag} pads`);
    await expect(first.getByLabel('Cost')).toHaveValue('33.5');

    // Picked into an empty cost: the library's cost; a second pick replaces that untouched default.
    await page.getByTestId('line-add').click();
    const second = page.getByTestId('line').nth(1);
    await second.getByLabel('Name').fill(`${tag} pa`);
    await page.getByRole('option', { name: `${tag} pads`, exact: true }).click();
    await expect(second.getByLabel('Cost')).toHaveValue('40');
    await page.getByTestId('line').nth(1).getByLabel('Name').fill(`${tag} di`);
    await page.getByRole('option', { name: `${tag} discs`, exact: true }).click();
    await expect(page.getByTestId('line').nth(1).getByLabel('Cost')).toHaveValue('90');

    const sent = posted(page, `/api/fleets/${fid}/intervals`);
    await page.getByTestId('interval-save').click();
    const body = (await sent).postDataJSON() as { li: { n: string; c: unknown }[] };
    expect(body.li.map((l) => [l.n, String(l.c)])).toEqual([
      [`${tag} pads`, '33.5'],
      [`${tag} discs`, '90'],
    ]);
    await expect(page).toHaveURL(/\/interval\/\d+/);
    intervalId = Number(/\/interval\/(\d+)/.exec(page.url())?.[1]);
    const { intervals } = (await (await request.get(`/api/fleets/${fid}/intervals`, { headers })).json()) as {
      intervals: { id: number; li: { n: string; c: number }[] }[];
    };
    const stored = intervals.find((i) => i.id === intervalId);
    expect(stored?.li.map((l) => [l.n, l.c])).toEqual([
      [`${tag} pads`, 33.5],
      [`${tag} discs`, 90],
    ]);
  } finally {
    if (intervalId !== null) await request.delete(`/api/fleets/${fid}/intervals/${intervalId}`, { headers });
    await removeItems(request, fid, headers, tag);
  }
});

test('fuel editor: a picked fuel type fills an empty price, and a typed mileage stays when the unit changes', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const tag = `cd${Date.now().toString(36)}`;
  await libraryItem(request, fid, headers, { n: `${tag} diesel`, t: 4, c: 1.55 });
  await libraryItem(request, fid, headers, { n: `${tag} petrol`, t: 4, c: 1.8 });
  const [a, b] = await firstUnits(request, fid, headers);
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  try {
    await page.goto(`/fuelfilling/new?unit=${a.id}`);
    // The editor's chunk and lists may take a while on a loaded machine right after the dashboard.
    await expect(page.getByTestId('fuel-unit')).toHaveValue(a.nm, { timeout: 30_000 * cpuThrottle() });
    const mileage = page.getByTestId('fuel-mileage');
    await expect(mileage).not.toHaveValue('');
    // The unit's counter was a default: another unit brings its own.
    const counterA = await mileage.inputValue();
    await page.getByTestId('fuel-unit').click();
    await page.getByRole('option', { name: b.nm, exact: true }).click();
    await expect(mileage).not.toHaveValue(counterA);
    // A mileage typed by hand stays when the unit changes again.
    await mileage.fill('123456');
    await page.getByTestId('fuel-unit').click();
    await page.getByRole('option', { name: a.nm, exact: true }).click();
    await expect(page.getByTestId('fuel-unit')).toHaveValue(a.nm);
    await expect(mileage).toHaveValue('123456');

    // A picked fuel type fills the empty price; another pick replaces that untouched default.
    await page.getByTestId('fuel-type').click();
    await page.getByTestId('fuel-type').fill(`${tag} di`);
    await page.getByRole('option', { name: `${tag} diesel`, exact: true }).click();
    await expect(page.getByTestId('fuel-price')).toHaveValue('1.55');
    await page.getByTestId('fuel-type').fill(`${tag} pe`);
    await page.getByRole('option', { name: `${tag} petrol`, exact: true }).click();
    await expect(page.getByTestId('fuel-price')).toHaveValue('1.8');
    // A price typed by hand stays when the fuel type changes.
    await page.getByTestId('fuel-price').fill('1.7');
    await page.getByTestId('fuel-type').fill(`${tag} di`);
    await page.getByRole('option', { name: `${tag} diesel`, exact: true }).click();
    await expect(page.getByTestId('fuel-type')).toHaveValue(`${tag} diesel`);
    await expect(page.getByTestId('fuel-price')).toHaveValue('1.7');
    await page.getByTestId('fuel-volume').fill('20');
    await screenshotsAtBothWidths(page, 'choice-defaults-fuel-editor');
  } finally {
    await removeItems(request, fid, headers, tag);
  }
});
