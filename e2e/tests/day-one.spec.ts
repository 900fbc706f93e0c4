import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiSession, cpuThrottle, expect, fleetDay, login, test } from './fixtures.ts';
import { cleanUp, createDue, now } from './services-support.ts';

/**
 * A fleet manager's day one: live screens that hold still while units report,
 * forms that keep what is typed, a help dialog that does not get in the way, phone lists.
 */

const SHOTS = '/tmp/shots-day1';

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

interface Unit {
  id: number;
  uid: string;
  nm: string;
  cnm: number;
  pos: { y: number; x: number } | null;
}

async function fleetUnits(request: APIRequestContext, fid: number, headers: Record<string, string>) {
  return ((await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units ?? []) as Unit[];
}

interface Stream {
  /** Rounds of readings sent so far (every unit once per round). */
  rounds(): number;
  /** Stops the stream; resolves to the rounds sent. */
  stop(): Promise<number>;
}

/**
 * Units report every second through the ingestion API (position and odometer), as the demo simulator's
 * devices do, until stopped.
 */
function streamReadings(request: APIRequestContext, units: Unit[]): Stream {
  let stopped = false;
  let clock = now();
  let step = 0;
  const loop = (async () => {
    while (!stopped) {
      clock = Math.max(clock + 1, now());
      step++;
      await Promise.all(
        units.map((u, k) => {
          const lat = (u.pos?.y ?? 54) + step * 0.0005 * (k + 1);
          const lon = (u.pos?.x ?? 27) + step * 0.0005;
          const odometer = Math.round((u.cnm + step * 0.05) * 1000);
          return request.get(
            `/api/ingest/osmand?id=${u.uid}&lat=${lat}&lon=${lon}&speed=40&bearing=90&timestamp=${clock}&odometer=${odometer}`,
          );
        }),
      );
      await new Promise((r) => setTimeout(r, 1000));
    }
    return step;
  })();
  return {
    rounds: () => step,
    async stop() {
      stopped = true;
      return loop;
    },
  };
}

/** GET requests of the fleet's lists the page makes, by path after /api/fleets/{fid}/. */
function countFleetReads(page: Page): Map<string, number> {
  const counts = new Map<string, number>();
  page.on('request', (r) => {
    if (r.method() !== 'GET') return;
    const m = /\/api\/fleets\/\d+\/([^?]+)/.exec(r.url());
    if (m?.[1]) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  });
  return counts;
}

const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

test('units reporting every second: /services and /items read the units once, not on every message', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const units = (await fleetUnits(request, fid, headers)).filter((u) => /^demo-/.test(u.uid)).slice(0, 6);
  expect(units.length).toBe(6);
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');

  for (const [path, heading] of [
    ['/services', 'Services'],
    ['/items', 'Service objects'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole('row').nth(1)).toBeVisible();
    const counts = countFleetReads(page);
    const stream = streamReadings(request, units);
    // Eight rounds of one reading a second from six units: 48 messages, counted rather than timed.
    await expect.poll(() => stream.rounds(), { timeout: 60_000 * cpuThrottle() }).toBeGreaterThanOrEqual(8);
    expect(await stream.stop()).toBeGreaterThanOrEqual(8);
    // The messages are patched into the cached units: no list is fetched again for them.
    expect(counts.get('units') ?? 0, JSON.stringify([...counts])).toBeLessThanOrEqual(1);
    expect(total(counts), JSON.stringify([...counts])).toBeLessThanOrEqual(5);
  }
  // The patches arrived: the service objects show the units' new mileage.
  const after = await fleetUnits(request, fid, headers);
  const moved = after.find((u) => u.id === units[0]?.id);
  expect(moved?.cnm).toBeGreaterThan(units[0]?.cnm ?? 0);
});

test('a row menu stays open and the search keeps its text while positions stream', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const units = (await fleetUnits(request, fid, headers)).filter((u) => /^demo-/.test(u.uid)).slice(0, 4);
  const tag = `d1${Date.now().toString(36)}`;
  const id = await createDue(request, fid, headers, units[0]?.id ?? 0, `${tag} Live row`);
  try {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      if (width === 1280) {
        await login(page, 'manager');
        await expect(page).toHaveURL('/dashboard');
      }
      await page.goto('/services');
      const search = page.getByRole('searchbox', { name: 'Search' });
      await search.fill(tag);
      const menuButton = page.getByTestId(`service-menu-${id}`);
      await expect(menuButton).toBeVisible();
      await menuButton.click();
      const item = page.getByRole('menuitem', { name: 'Set in progress' });
      await expect(item).toBeVisible();
      const stream = streamReadings(request, units);
      // Three rounds of messages of the service's own unit and others: the menu stays open throughout.
      while (stream.rounds() < 3) {
        await page.waitForTimeout(250);
        await expect(item).toBeVisible({ timeout: 100 });
      }
      await stream.stop();
      await expect(item).toBeVisible({ timeout: 100 });
      await expect(search).toHaveValue(tag);
      await page.keyboard.press('Escape');
      await expect(item).toBeHidden();
    }
  } finally {
    await cleanUp(request, fid, headers, [id], []);
  }
});

test('a new line-item name typed and left with Tab is kept and saved', async ({ page, request }) => {
  test.setTimeout(60_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const unit = (await fleetUnits(request, fid, headers))[5] as Unit;
  const tag = `d1${Date.now().toString(36)}`;
  const typed = `${tag} Engine oil 5W-30`;
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/service/new');
  await page.getByRole('combobox', { name: 'Objects', exact: true }).click();
  await page.getByRole('option', { name: unit.nm, exact: true }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill(`${tag} Oil change`);
  const planned = page.getByRole('textbox', { name: 'Planned date', exact: true });
  await planned.click();
  await planned.fill(fleetDay(2));
  await planned.blur();

  await page.getByRole('tab', { name: /Line items/ }).click();
  await page.getByTestId('service-add-line').click();
  const line = page.getByTestId('service-line').nth(0);
  const name = line.getByRole('textbox', { name: 'Name' });
  await name.fill(typed);
  await page.keyboard.press('Tab');
  await expect(name).toHaveValue(typed);
  await expect(line.getByText('Required field')).toHaveCount(0);
  await line.getByRole('textbox', { name: 'Quantity' }).fill('4');
  await line.getByRole('textbox', { name: 'Cost' }).fill('9.5');
  await expect(name).toHaveValue(typed);

  await page.getByTestId('service-save').click();
  await expect(page).toHaveURL(/\/service\/\d+$/);
  const id = Number(page.url().split('/').pop());
  try {
    const stored = await (await request.get(`/api/fleets/${fid}/services/${id}`, { headers })).json();
    expect(stored.li).toEqual([{ n: typed, t: 2, q: 4, c: 9.5 }]);
  } finally {
    await cleanUp(request, fid, headers, [id], []);
  }
});

const helpDialog = (page: Page) => page.getByRole('dialog', { name: 'Help' });

test('help: Escape closes it, it keeps its place across screens and never covers the interval editor Save (a sheet at 375 px)', async ({
  page,
}) => {
  test.setTimeout(120_000 * cpuThrottle());
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/interval/new');
    await expect(page.getByTestId('interval-save')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('help-button').click();
    await expect(helpDialog(page)).toBeVisible();
    if (width === 375) {
      // A phone gets a full-screen sheet (docs/product.md "Phone"): Escape closes it, and Save, whole
      // again, takes the click.
      await expect(helpDialog(page)).toHaveAttribute('data-mode', 'sheet');
      await shot(page, `help-interval-editor-${width}`);
      await page.keyboard.press('Escape');
      await expect(helpDialog(page)).toBeHidden();
      await page.getByTestId('interval-save').click({ timeout: 5000 });
      await expect(page.getByText('Correct the marked fields.')).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      continue;
    }
    // Docked: the page leaves the dialog its strip and Save is in view and takes the click.
    await expect(page.getByTestId('interval-save')).toBeInViewport();
    await page.getByTestId('interval-save').click({ timeout: 5000 });
    await expect(page.getByText('Correct the marked fields.')).toBeVisible();
    const box = await helpDialog(page).boundingBox();
    const save = await page.getByTestId('interval-save').boundingBox();
    expect(box && save).toBeTruthy();
    if (box && save) {
      const overlaps =
        save.x < box.x + box.width &&
        box.x < save.x + save.width &&
        save.y < box.y + box.height &&
        box.y < save.y + save.height;
      expect(overlaps).toBe(false);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shot(page, `help-interval-editor-${width}`);

    // It keeps its place across screens.
    await page.getByRole('link', { name: '← Intervals' }).click();
    await expect(page).toHaveURL('/intervals');
    await expect(helpDialog(page)).toBeVisible();
    expect(await helpDialog(page).boundingBox()).toEqual(box);

    // Escape closes it wherever the focus is.
    await expect(page.getByRole('heading', { level: 1, name: 'Intervals' })).toBeVisible();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const open = await page.evaluate(() =>
      Array.from(
        document.querySelectorAll(
          '[aria-modal="true"], [role="menu"], [role="listbox"], .mantine-Popover-dropdown',
        ),
        (el) => (el.getClientRects().length > 0 ? el.outerHTML.slice(0, 300) : ''),
      ).filter(Boolean),
    );
    await page.keyboard.press('Escape');
    await expect(helpDialog(page), open.join('\n')).toBeHidden();
  }

  // A menu above it takes Escape first; the next Escape closes the dialog.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/dashboard');
  await page.getByTestId('help-button').click();
  await expect(helpDialog(page)).toBeVisible();
  await page.getByTestId('user-menu').click();
  await expect(page.getByRole('menuitem', { name: 'Exit' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'Exit' })).toBeHidden();
  await expect(helpDialog(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(helpDialog(page)).toBeHidden();

  // Logout closes it.
  await page.getByTestId('help-button').click();
  await expect(helpDialog(page)).toBeVisible();
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Exit' }).click();
  await expect(page).toHaveURL('/login');
  await expect(helpDialog(page)).toHaveCount(0);
});

test('phone: /services shows name, object, status and remaining without sideways scrolling', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const unit = (await fleetUnits(request, fid, headers))[2] as Unit;
  const tag = `d1${Date.now().toString(36)}`;
  const id = await createDue(request, fid, headers, unit.id, `${tag} Phone row`);
  try {
    await page.setViewportSize({ width: 375, height: 812 });
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto('/services');
    const table = page.getByTestId('services');
    await expect(table).toHaveAttribute('data-layout', 'phone');
    const row = table.getByRole('row').nth(1);
    await expect(row).toBeVisible();
    for (const column of ['status', 'remaining'])
      await expect(row.locator(`[data-column="${column}"]`)).toBeInViewport();
    const scroll = page.getByTestId('services-scroll');
    expect(await scroll.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, 'services-375');

    // The filters fold behind one button with their count.
    await expect(page.getByTestId('services-status')).toBeHidden();
    await page.getByTestId('services-filters').click();
    await page.getByTestId('services-status').click();
    await page.getByRole('option', { name: 'Due', exact: true }).click();
    await expect(page).toHaveURL(/st=/);
    await expect(page.getByTestId('services-filters')).toHaveText('Filters (1)');
    await shot(page, 'services-375-filters');

    // The row menu is in reach.
    await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
    await page.getByTestId(`service-menu-${id}`).click();
    await expect(page.getByRole('menuitem', { name: 'Set in progress' })).toBeInViewport();
    await page.keyboard.press('Escape');

    // A unit page and the service editor at 375 too, for the record.
    await page.goto(`/unit/${unit.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shot(page, 'unit-375');
    await page.goto(`/service/${id}`);
    await expect(page.getByTestId('service-save')).toBeVisible();
    await shot(page, 'service-editor-375');

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/services');
    await expect(page.getByTestId('services')).toHaveAttribute('data-layout', 'table');
    await expect(page.getByTestId('services-status')).toBeVisible();
    await shot(page, 'services-1280');
  } finally {
    await cleanUp(request, fid, headers, [id], []);
  }
});
