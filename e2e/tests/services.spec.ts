import {
  apiSession,
  cpuThrottle,
  expect,
  expectNoPageScroll,
  fleetDay,
  login,
  screenshot,
  test,
} from './fixtures.ts';
import {
  cleanUp,
  createDue,
  DAY,
  demoUnits,
  now,
  rowOf,
  serviceFlags,
  typeDate,
} from './services-support.ts';

test('a manager works the services list: overdue in red, live rows, quick status, reject, bulk close', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const tag = `svc${Date.now().toString(36)}`;
  const unit = await demoUnits(request, fid, headers);
  const created: number[] = [];
  const intervals: number[] = [];
  try {
    const a = await createDue(request, fid, headers, unit('demo-021').id, `${tag} Alpha`);
    const b = await createDue(request, fid, headers, unit('demo-022').id, `${tag} Bravo`);
    const c = await createDue(request, fid, headers, unit('demo-023').id, `${tag} Charlie`);
    const d = await createDue(request, fid, headers, unit('demo-024').id, `${tag} Delta`);
    const f = await createDue(request, fid, headers, unit('demo-024').id, `${tag} Foxtrot`);
    created.push(a, b, c, d, f);

    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/services?q=${tag}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Services' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'New service' })).toHaveAttribute('href', '/service/new');
    for (const name of ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Foxtrot'])
      await expect(rowOf(page, `${tag} ${name}`)).toBeVisible();
    await expect(rowOf(page, `${tag} Alpha`).getByRole('link', { name: `${tag} Alpha` })).toHaveAttribute(
      'href',
      `/service/${a}`,
    );
    await expect(
      rowOf(page, `${tag} Alpha`).getByRole('link', { name: unit('demo-021').nm }),
    ).toHaveAttribute('href', `/unit/${unit('demo-021').id}`);
    await expect(rowOf(page, `${tag} Alpha`)).toContainText('Due');

    // Live: the engine creates an overdue service (time rule passed 10 days ago) while the page is open.
    const iv = await request.post(`/api/fleets/${fid}/intervals`, {
      headers,
      data: {
        n: `${tag} Echo inspection`,
        de: 1,
        dd: 1,
        du: 'd',
        do: 0,
        u: [{ id: unit('demo-025').id, t: 'u', ltm: now() - 10 * DAY }],
      },
    });
    expect(iv.ok(), await iv.text()).toBe(true);
    intervals.push((await iv.json()).id as number);
    const echo = rowOf(page, `${tag} Echo inspection`);
    await expect(echo).toBeVisible();
    await expect(echo).toContainText('Overdue');
    await expect(echo).toContainText('Overdue by time');
    await expect(echo).toContainText(`${tag} Echo inspection`);
    await expect(echo.locator('[data-overdue]')).toHaveCount(1);
    // The overdue row is painted red, a plain Due row is not.
    const bg = (row: typeof echo) =>
      row
        .locator('td')
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await bg(echo)).not.toBe(await bg(rowOf(page, `${tag} Alpha`)));
    const { services: open } = await (
      await request.get(`/api/fleets/${fid}/services?object_type=u&object_id=${unit('demo-025').id}`, {
        headers,
      })
    ).json();
    const e = (open as { id: number; ivid: number | null }[]).find((s) => s.ivid === intervals[0])?.id;
    expect(e).toBeDefined();
    created.push(e as number);

    // A counter-based service of the engine shows what remains to its limits (spec §9 "In: X").
    const oil = await request.post(`/api/fleets/${fid}/intervals`, {
      headers,
      data: {
        n: `${tag} Hotel oil`,
        cnme: 1,
        cnmd: 1000,
        cnmo: 600,
        cnehe: 1,
        cnehd: 50,
        cneho: 40,
        // Last service 500 km and 30 h ago: 500 km and 20 h remain, inside the advance notice.
        u: [
          {
            id: unit('demo-018').id,
            t: 'u',
            lcnm: Math.max(0, Math.floor(unit('demo-018').cnm) - 500),
            lceh: Math.max(0, Math.floor(unit('demo-018').cneh) - 30),
          },
        ],
      },
    });
    expect(oil.ok(), await oil.text()).toBe(true);
    intervals.push((await oil.json()).id as number);
    const hotel = rowOf(page, `${tag} Hotel oil`);
    await expect(hotel).toContainText(/In: [\d ]+(\.\d+)? km/);
    await expect(hotel).toContainText(/In: [\d ]+(\.\d+)? e\.h\./);
    await expect(hotel).toContainText('Due');
    const { services: hotelOpen } = await (
      await request.get(`/api/fleets/${fid}/services?object_type=u&object_id=${unit('demo-018').id}`, {
        headers,
      })
    ).json();
    const h = (hotelOpen as { id: number; ivid: number | null }[]).find((s) => s.ivid === intervals[1])?.id;
    expect(h).toBeDefined();
    created.push(h as number);

    // Status filter in the URL: only the overdue one.
    await page.getByTestId('services-status').click();
    await page.getByRole('option', { name: 'Overdue' }).click();
    await expect(page).toHaveURL(/st=overdue/);
    await expect(rowOf(page, `${tag} Alpha`)).toHaveCount(0);
    await expect(echo).toBeVisible();
    await page.getByTestId('services-status').click();
    await page.getByRole('option', { name: 'Overdue' }).click();
    await expect(rowOf(page, `${tag} Alpha`)).toBeVisible();
    await screenshot(page, 'services-upcoming-1280');

    // Quick In progress from the row menu: Alpha leaves Upcoming and shows under In progress.
    await page.getByTestId(`service-menu-${a}`).click();
    await page.getByRole('menuitem', { name: 'Set in progress' }).click();
    await expect(rowOf(page, `${tag} Alpha`)).toHaveCount(0);
    await page.getByTestId('services-tab-inProgress').click();
    await expect(page).toHaveURL(/tab=inProgress/);
    await expect(rowOf(page, `${tag} Alpha`)).toBeVisible();
    await expect(rowOf(page, `${tag} Bravo`)).toHaveCount(0);
    await screenshot(page, 'services-inprogress-1280');

    // Reject Bravo from its row, after the confirm dialog.
    await page.getByTestId('services-tab-upcoming').click();
    await page.getByTestId(`service-menu-${b}`).click();
    await page.getByRole('menuitem', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject services' });
    await expect(dialog).toContainText(`${tag} Bravo`);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(rowOf(page, `${tag} Bravo`)).toHaveCount(0);
    expect((await serviceFlags(request, fid, headers, b)) & 16).toBe(16);

    // A failed batch changes nothing: Foxtrot is rejected elsewhere while the close screen is open.
    await page.getByRole('checkbox', { name: `Select: ${tag} Charlie` }).check();
    await page.getByRole('checkbox', { name: `Select: ${tag} Foxtrot` }).check();
    await expect(page.getByTestId('services-bulk')).toContainText('Selected: 2');
    await page.getByTestId('services-bulk-close').click();
    await expect(page).toHaveURL('/services/close');
    await expect(page.getByTestId('close-services').getByText(`${tag} Foxtrot`)).toBeVisible();
    const rejected = await request.post(`/api/fleets/${fid}/services/${f}/status`, {
      headers,
      data: { f: 16 },
    });
    expect(rejected.ok()).toBe(true);
    await page.getByTestId('close-all').click();
    await expect(page.getByTestId('close-error')).toContainText('Some services cannot be changed');
    await expect(page.getByTestId(`close-service-${f}`)).toContainText('frozen');
    await expect(page).toHaveURL('/services/close');
    expect((await serviceFlags(request, fid, headers, c)) & 8).toBe(0);
    // The refused one can be dropped from the selection.
    await page.getByRole('button', { name: `Remove from the selection: ${tag} Foxtrot` }).click();
    await expect(page.getByTestId(`close-service-${f}`)).toHaveCount(0);
    await expect(page.getByTestId('close-all')).toHaveText('Close all (1)');

    // Bulk close of three: defaults are each unit's current counters; one date for all.
    await page.goto(`/services?q=${tag}`);
    for (const name of ['Charlie', 'Delta', 'Echo inspection'])
      await page.getByRole('checkbox', { name: `Select: ${tag} ${name}` }).check();
    await page.getByTestId('services-bulk-close').click();
    await expect(page).toHaveURL('/services/close');
    await expect(page.getByRole('heading', { level: 1, name: 'Close services' })).toBeVisible();
    const mileage = page.getByTestId(`close-mileage-${c}`);
    const currentC = unit('demo-023').cnm;
    await expect(mileage).toHaveValue(String(Math.round(currentC * 1000) / 1000));
    await mileage.fill(String(Math.floor(currentC) + 5));
    await expect(page.getByTestId('close-date')).toHaveValue(/\d/);
    await screenshot(page, 'services-close-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoPageScroll(page);
    await screenshot(page, 'services-close-375');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('close-all').click();
    await expect(page).toHaveURL(/\/services\?tab=archive/);
    const archived = page.getByTestId('services');
    for (const name of ['Charlie', 'Delta', 'Echo inspection']) {
      await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
      await expect(rowOf(page, `${tag} ${name}`)).toContainText('Closed');
    }
    await expect(rowOf(page, `${tag} Bravo`)).toContainText('Rejected');
    await expect(archived.getByRole('row').filter({ hasText: `${tag} Charlie` })).toContainText(
      String(Math.floor(currentC) + 5).replace(/\B(?=(\d{3})+(?!\d))/g, ' '),
    );
    const closedC = await (await request.get(`/api/fleets/${fid}/services/${c}`, { headers })).json();
    expect(closedC.mileage).toBe(Math.floor(currentC) + 5);
    await screenshot(page, 'services-archive-1280');

    // They have left the active list.
    await page.getByTestId('services-tab-upcoming').click();
    await expect(rowOf(page, `${tag} Charlie`)).toHaveCount(0);
    await expect(rowOf(page, `${tag} Echo inspection`)).toHaveCount(0);

    // 375 px: each tab is usable without page-wide horizontal scroll.
    await page.setViewportSize({ width: 375, height: 800 });
    for (const tab of ['upcoming', 'inProgress', 'archive']) {
      await page.goto(`/services?tab=${tab}&q=${tag}`);
      await expect(page.getByTestId(`services-tab-${tab}`)).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('services-scroll').or(page.getByTestId('services-empty'))).toBeVisible();
      await expectNoPageScroll(page);
      await screenshot(page, `services-${tab.toLowerCase()}-375`);
    }
  } finally {
    await cleanUp(request, fid, headers, created, intervals);
  }
});

test('a viewer sees services read-only; /services/close without a selection redirects', async ({
  page,
  request,
}) => {
  const { fid, headers } = await apiSession(request, 'manager');
  const tag = `svcv${Date.now().toString(36)}`;
  const unit = await demoUnits(request, fid, headers);
  const created = [await createDue(request, fid, headers, unit('demo-020').id, `${tag} Viewer check`)];
  try {
    await login(page, 'viewer');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/services?q=${tag}`);
    const row = rowOf(page, `${tag} Viewer check`);
    await expect(row).toBeVisible();
    await expect(page.getByRole('link', { name: 'New service' })).toHaveCount(0);
    await expect(row.getByRole('checkbox')).toHaveCount(0);
    await expect(page.getByTestId(`service-menu-${created[0]}`)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeEnabled();

    await page.goto('/services/close');
    await expect(page).not.toHaveURL(/\/services\/close/);
  } finally {
    await cleanUp(request, fid, headers, created, []);
  }
});

test('one row closed from its menu with the leave warning; archive period, CSV export and delete', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const tag = `svcg${Date.now().toString(36)}`;
  const unit = await demoUnits(request, fid, headers);
  const g = await createDue(request, fid, headers, unit('demo-019').id, `${tag} Golf`);
  const created = [g];
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/services?q=${tag}`);
    await expect(rowOf(page, `${tag} Golf`)).toBeVisible();

    // CSV export of the visible rows.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = await (await download)
      .path()
      .then((p) => import('node:fs').then((fs) => fs.readFileSync(p, 'utf8')));
    expect(csv).toContain('Name');
    expect(csv).toContain(`${tag} Golf`);
    expect(csv).toContain(unit('demo-019').nm);

    // Close from the row: the close screen holds that one service.
    await page.getByTestId(`service-menu-${g}`).click();
    await page.getByRole('menuitem', { name: 'Close' }).click();
    await expect(page).toHaveURL('/services/close');
    await expect(page.getByTestId('close-services').locator('[data-testid^="close-service-"]')).toHaveCount(
      1,
    );
    await page.getByTestId(`close-engine-hours-${g}`).fill('1234.5');
    await page.getByRole('link', { name: 'Cancel' }).click();
    const warning = page.getByRole('dialog', { name: 'Warning!' });
    await expect(warning).toBeVisible();
    await warning.getByRole('button', { name: 'Stay' }).click();
    await expect(page).toHaveURL('/services/close');
    // A close date in the future is refused before sending.
    await typeDate(page, 'close-date', fleetDay(1));
    await expect(page.getByText('Must be today or earlier')).toBeVisible();
    await expect(page.getByTestId('close-all')).toBeDisabled();
    await typeDate(page, 'close-date', fleetDay());
    await page.getByTestId('close-all').click();
    await expect(page).toHaveURL(/tab=archive/);
    await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
    await expect(rowOf(page, `${tag} Golf`)).toContainText('Closed');
    // Engine hours are a counter: whole, in the user's language (docs/product.md).
    await expect(rowOf(page, `${tag} Golf`)).toContainText('1,235');

    // Another period: last month holds none of it; the period stays in the URL.
    const today = fleetDay();
    const lastMonthEnd = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1, 0))
      .toISOString()
      .slice(0, 10);
    const lastMonthStart = `${lastMonthEnd.slice(0, 8)}01`;
    await typeDate(page, 'services-from', lastMonthStart);
    await typeDate(page, 'services-to', lastMonthEnd);
    await expect(page).toHaveURL(new RegExp(`from=${lastMonthStart}`));
    await expect(rowOf(page, `${tag} Golf`)).toHaveCount(0);

    // Back on the current month: delete it from the archive (archiveDelete), after the confirm.
    await page.goto(`/services?tab=archive&q=${tag}`);
    await page.getByRole('checkbox', { name: `Select: ${tag} Golf` }).check();
    await page.getByTestId('services-bulk-delete').click();
    const dialog = page.getByRole('dialog', { name: 'Delete archived services' });
    await expect(dialog).toContainText(`${tag} Golf`);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(rowOf(page, `${tag} Golf`)).toHaveCount(0);
    expect((await request.get(`/api/fleets/${fid}/services/${g}`, { headers })).status()).toBe(404);
    created.length = 0;
  } finally {
    await cleanUp(request, fid, headers, created, []);
  }
});
