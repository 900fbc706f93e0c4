import fs from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { apiSession, cpuThrottle, expect, expectNoPageScroll, fleetDay, login, test } from './fixtures.ts';
import { cleanUp, createDue, type Unit } from './services-support.ts';

/**
 * A fleet manager's day one, the rest: tab rows that show they scroll, a help
 * dialog that leaves the header and the screen's Save alone, and the words of the maintenance screens.
 */

const SHOTS = '/tmp/shots-helper-g';

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** The list's scroll state and the root's marks of the hidden ends. */
async function tabRow(root: Locator) {
  return root.evaluate((el) => {
    const list = el.querySelector(':scope > [role="tablist"]') as HTMLElement;
    return {
      overflow: list.scrollWidth - list.clientWidth > 1,
      scrollLeft: list.scrollLeft,
      start: el.hasAttribute('data-more-start'),
      end: el.hasAttribute('data-more-end'),
    };
  });
}

/** The active tab lies wholly inside the visible part of its row. */
async function activeTabInView(root: Locator) {
  return root.evaluate((el) => {
    const list = el.querySelector(':scope > [role="tablist"]') as HTMLElement;
    const tab = list.querySelector('[role="tab"][aria-selected="true"]') as HTMLElement;
    const l = list.getBoundingClientRect();
    const t = tab.getBoundingClientRect();
    return t.left >= l.left - 0.5 && t.right <= l.right + 0.5;
  });
}

async function firstUnit(request: APIRequestContext, fid: number, headers: Record<string, string>) {
  const { units } = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()) as {
    units: Unit[];
  };
  const unit = units[0];
  if (!unit) throw new Error('the demo fleet has no units');
  return unit;
}

const overlap = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('tab rows show that they scroll at 375 px and bring the active tab into view', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const unit = await firstUnit(request, fid, headers);
  const tag = `dw${Date.now().toString(36)}`;
  const id = await createDue(request, fid, headers, unit.id, `${tag} Brake check`);
  try {
    await page.setViewportSize({ width: 375, height: 812 });
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');

    // The unit page: cut at the right, so it fades there and offers an arrow that scrolls on.
    await page.goto(`/unit/${unit.id}`);
    const unitTabs = page.locator('[data-scroll-tabs]').first();
    await expect(unitTabs.getByRole('tab').first()).toBeVisible();
    await expect(unitTabs).toHaveAttribute('data-more-end', 'true');
    expect(await tabRow(unitTabs)).toMatchObject({ overflow: true, start: false, end: true });
    const next = unitTabs.locator('button[data-side="end"]');
    await expect(next).toBeVisible();
    await expect(unitTabs.locator('button[data-side="start"]')).toBeHidden();
    await shot(page, 'unit-tabs-375');
    await next.click();
    await expect.poll(async () => (await tabRow(unitTabs)).scrollLeft).toBeGreaterThan(0);
    await expect(unitTabs).toHaveAttribute('data-more-start', 'true');
    await expect(unitTabs.locator('button[data-side="start"]')).toBeVisible();
    await expectNoPageScroll(page);

    // Fleet administration opened on a tab far right: that tab is scrolled into view.
    await page.goto(`/fleet/${fid}?tab=customfields`);
    const fleetTabs = page.locator('[data-scroll-tabs]').first();
    await expect(fleetTabs.getByRole('tab', { selected: true })).toBeVisible();
    expect((await tabRow(fleetTabs)).overflow).toBe(true);
    await expect.poll(() => activeTabInView(fleetTabs)).toBe(true);
    await expect(fleetTabs).toHaveAttribute('data-more-start', 'true');
    await shot(page, 'fleet-tabs-375');
    await expectNoPageScroll(page);

    // Every other tab row: a row that overflows says so, one that fits says nothing.
    for (const path of ['/services', `/service/${id}`, '/interval/new', '/lineitems']) {
      await page.goto(path);
      const root = page.locator('[data-scroll-tabs]').first();
      await expect(root.getByRole('tab').first()).toBeVisible();
      await expect
        .poll(async () => {
          const row = await tabRow(root);
          return row.overflow === (row.start || row.end);
        }, path)
        .toBe(true);
      await expectNoPageScroll(page);
      if (path === '/services') await shot(page, 'services-375');
    }

    // At 1280 the unit's tabs fit: no fade, no arrows.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/unit/${unit.id}`);
    await expect(unitTabs.getByRole('tab').first()).toBeVisible();
    await expect.poll(() => tabRow(unitTabs)).toMatchObject({ overflow: false, start: false, end: false });
    await expect(unitTabs.locator('button[data-side]')).toHaveCount(2);
    await expect(unitTabs.locator('button[data-side="end"]')).toBeHidden();
  } finally {
    await cleanUp(request, fid, headers, [id], []);
  }
});

test('help leaves the header its width at 1280 px, is a sheet at 375 px, and never covers the interval editor Save', async ({
  page,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  const help = page.getByRole('dialog', { name: 'Help' });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/interval/new');
    const save = page.getByTestId('interval-save');
    await expect(save).toBeVisible({ timeout: 30_000 });
    const header = await page.locator('header').first().boundingBox();
    await page.getByTestId('help-button').click();
    await expect(help).toBeVisible();
    if (width === 375) {
      // A phone gets a full-screen sheet (docs/product.md "Phone"); closed, the screen is whole again.
      await expect(help).toHaveAttribute('data-mode', 'sheet');
      await shot(page, `help-${width}`);
      await help.getByRole('button', { name: 'Close help' }).click();
      await expect(help).toBeHidden();
      await save.click({ timeout: 5000 });
      await expect(page.getByText('Correct the marked fields.')).toBeVisible();
      await expectNoPageScroll(page, width);
      continue;
    }
    // The header keeps its whole width: only the screen's content moves out of the dialog's way.
    await expect
      .poll(async () => (await page.locator('header').first().boundingBox())?.width)
      .toBe(header?.width);
    expect(header?.width).toBe(width);
    const box = await help.boundingBox();
    await expect(save).toBeInViewport();
    const button = await save.boundingBox();
    expect(box && button).toBeTruthy();
    if (box && button) expect(overlap(box, button)).toBe(false);
    // The screen keeps its own margin at the right edge (the dialog's room is added to it, not set).
    expect((button?.x ?? 0) + (button?.width ?? 0)).toBeLessThanOrEqual(width - 8);
    if (width === 1280 && box) {
      const content = await page.getByRole('heading', { level: 1 }).boundingBox();
      expect((content?.x ?? 0) + (content?.width ?? 0)).toBeLessThanOrEqual(box.x);
      await expect(page.getByRole('link', { name: 'Reports' }).first()).toBeVisible();
    }
    await save.click({ timeout: 5000 });
    await expect(page.getByText('Correct the marked fields.')).toBeVisible();
    await expectNoPageScroll(page, width);
    await shot(page, `help-${width}`);
    // (Escape goes to the "Required field" popup first; day-one.spec.ts covers Escape.)
    await help.getByRole('button', { name: 'Close help' }).click();
    await expect(help).toBeHidden();
  }
});

test('the words: counters since joining, expected dates, the service editor, line items, dates, menus', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const unit = await firstUnit(request, fid, headers);
  const tag = `dw${Date.now().toString(36)}`;
  const id = await createDue(request, fid, headers, unit.id, `${tag} Oil and filters`);
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');

    // One Administration entry: the user menu has it (spec §2 "User menu"); the top menu keeps its own
    // for admin-only fleets only.
    await expect(
      page.getByRole('navigation').first().getByRole('link', { name: 'Administration' }),
    ).toHaveCount(0);
    await page.getByTestId('user-menu').click();
    await expect(page.getByRole('menuitem', { name: 'User settings' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Administration' })).toHaveCount(1);
    await page.keyboard.press('Escape');

    // The unit's counters in this fleet say what they count.
    await page.goto(`/unit/${unit.id}`);
    await expect(page.getByTestId('ind-actual-mileage')).toContainText('Mileage in this fleet');
    await expect(page.getByTestId('ind-actual-mileage-hint')).toHaveText(
      'Since the unit joined this fleet, plus any earlier history pulled in',
    );
    await expect(page.getByTestId('ind-actual-engine-hours')).toContainText('Engine hours in this fleet');
    await expect(page.getByText('Actual mileage')).toHaveCount(0);

    // Services: "Expected on" only where it says something the planned date does not.
    await page.goto('/services');
    const rows = page.getByTestId('services').getByRole('row');
    await expect(rows.nth(1)).toBeVisible({ timeout: 30_000 });
    // By the header titles (the wide table's cells carry no column mark).
    const pairs = await page.getByTestId('services').evaluate((table) => {
      const heads = Array.from(table.querySelectorAll('thead th')).map((th) => th.textContent?.trim() ?? '');
      const planned = heads.findIndex((h) => h.startsWith('Planned date'));
      const expected = heads.findIndex((h) => h.startsWith('Expected on'));
      if (planned < 0 || expected < 0) return [];
      return Array.from(table.querySelectorAll('tbody tr'))
        .map((tr) => Array.from(tr.querySelectorAll(':scope > td')).map((td) => td.textContent?.trim() ?? ''))
        .filter((cells) => cells.length === heads.length)
        .map((cells) => [cells[planned] ?? '', cells[expected] ?? '']);
    });
    expect(pairs.length).toBeGreaterThan(0);
    expect(pairs.filter(([planned, expected]) => expected !== '' && expected === planned)).toEqual([]);

    // The service editor: a way back, the object named under the title.
    await page.goto(`/service/${id}`);
    await expect(page.getByTestId('service-object')).toHaveText(unit.nm);
    await page.getByTestId('service-back').click();
    await expect(page).toHaveURL('/services');
    await page.goto(`/service/${id}`);

    // One date format per field: the placeholder names it, focus does not switch it, it is typed in it.
    const planned = page.getByRole('textbox', { name: 'Planned date', exact: true });
    await expect(planned).toHaveAttribute('placeholder', 'DD.MM.YYYY');
    const shown = await planned.inputValue();
    expect(shown).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    await planned.click();
    await expect(planned).toHaveValue(shown);
    const [y, m, d] = fleetDay(5).split('-');
    await planned.fill(`${d}.${m}.${y}`);
    await planned.blur();
    await expect(planned).toHaveValue(`${d}.${m}.${y}`);
    await expect(page.getByText('Invalid value')).toHaveCount(0);
    await shot(page, 'service-editor-main-1280');

    // Line items: the price is per unit, labour is counted in hours.
    await page.getByRole('tab', { name: /Line items/ }).click();
    await page.getByTestId('service-add-line').click();
    const line = page.getByTestId('service-line').nth(0);
    await expect(line.getByRole('textbox', { name: 'Cost per unit' })).toBeVisible();
    await expect(line.getByRole('textbox', { name: 'Quantity', exact: true })).toBeVisible();
    await line.getByText('Labour').click();
    await expect(line.getByRole('textbox', { name: 'Quantity (hours)' })).toBeVisible();

    // At 375 px, for the record: the services list, a unit page and the service editor.
    await page.setViewportSize({ width: 375, height: 812 });
    await shot(page, 'service-editor-lines-375');
    await page
      .getByRole('tab', { name: /Main data|Main/ })
      .first()
      .click();
    await shot(page, 'service-editor-375');
    await expectNoPageScroll(page);
  } finally {
    await cleanUp(request, fid, headers, [id], []);
  }
});

test('the interval object picker offers units only once the interval counts mileage or engine hours', async ({
  page,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/interval/new');
  await page.getByTestId('tab-units').click();
  // A time-only interval: every kind, drivers and trailers among the choices.
  await page.getByTestId('assign-objects').click();
  await expect(page.getByRole('option', { name: /\(Driver\)$/ }).first()).toBeAttached();
  await page.keyboard.press('Escape');

  await page.getByRole('tab', { name: /General/ }).click();
  await page.getByRole('switch', { name: 'By mileage' }).check({ force: true });
  await page.getByTestId('tab-units').click();
  await page.getByTestId('assign-kind').click();
  await expect(page.getByRole('option')).toHaveText(['Units']);
  await page.keyboard.press('Escape');
  await page.getByTestId('assign-objects').click();
  await expect(page.getByRole('option', { name: /\(Unit\)$/ }).first()).toBeAttached();
  await expect(page.getByRole('option', { name: /\((Driver|Trailer)\)$/ })).toHaveCount(0);
  await shot(page, 'interval-picker-units-1280');
});
