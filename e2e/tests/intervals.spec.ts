import { apiSession, expect, login, screenshot, test } from './fixtures.ts';

test('the intervals list: summaries, assigned count, kind filter, search in the URL, New by permission', async ({
  page,
  request,
}) => {
  const { fid, headers } = await apiSession(request, 'manager');
  const tag = `e2e${Date.now().toString(36)}`;
  const base = `/api/fleets/${fid}/intervals`;
  const created: number[] = [];
  try {
    const oil = await request.post(base, {
      headers,
      data: {
        n: `${tag} Oil change`,
        cnme: 1,
        cnmd: 15000,
        cnmo: 1000,
        cnehe: 1,
        cnehd: 500,
        cneho: 20,
        de: 1,
        dd: 1,
        du: 'y',
        do: 30,
      },
    });
    expect(oil.ok(), await oil.text()).toBe(true);
    const oilId = (await oil.json()).id as number;
    created.push(oilId);
    const tyres = await request.post(base, {
      headers,
      data: { n: `${tag} Tyre check`, de: 1, dd: 6, du: 'm', do: 14 },
    });
    expect(tyres.ok(), await tyres.text()).toBe(true);
    created.push((await tyres.json()).id as number);

    const { units } = await (await request.get(`/api/fleets/${fid}/units`, { headers })).json();
    const assign = await request.put(`${base}/${oilId}/units`, {
      headers,
      data: { units: [{ id: units[0].id, t: 'u' }] },
    });
    expect(assign.ok(), await assign.text()).toBe(true);

    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto('/intervals');
    await expect(page.getByRole('heading', { level: 1, name: 'Intervals' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'New interval' })).toBeVisible();

    const table = page.getByTestId('intervals');
    const oilRow = table.getByRole('row').filter({ hasText: `${tag} Oil change` });
    const tyreRow = table.getByRole('row').filter({ hasText: `${tag} Tyre check` });
    await expect(oilRow).toContainText('15,000 km · 500 e.h. · 1 y');
    await expect(oilRow).toContainText('1,000 km · 20 e.h. · 30 d');
    await expect(oilRow.getByRole('cell').nth(3)).toHaveText('1');
    await expect(tyreRow).toContainText('6 m');
    await expect(tyreRow.getByRole('cell').nth(3)).toHaveText('0');
    await expect(oilRow.getByRole('link', { name: `${tag} Oil change` })).toHaveAttribute(
      'href',
      `/interval/${oilId}`,
    );

    // Kind filter: only intervals by engine hours.
    await page.getByTestId('intervals-kind').click();
    await page.getByRole('option', { name: 'By engine hours' }).click();
    await expect(tyreRow).toHaveCount(0);
    await expect(oilRow).toBeVisible();
    await expect(page).toHaveURL(/kind=engineHours/);
    await page.getByTestId('intervals-kind').click();
    await page.getByRole('option', { name: 'By time' }).click();
    await expect(tyreRow).toBeVisible();

    // Search, kept in the URL over a reload.
    await page.getByRole('searchbox', { name: 'Search' }).fill(`${tag} tyre`);
    await expect(oilRow).toHaveCount(0);
    await expect(tyreRow).toBeVisible();
    await expect(page).toHaveURL(/q=/);
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'intervals-1280');
    await page.reload();
    await expect(tyreRow).toBeVisible();
    await expect(oilRow).toHaveCount(0);
    await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(`${tag} tyre`);

    await page.goto(`/intervals?q=${tag}`);
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(oilRow).toBeVisible();
    await screenshot(page, 'intervals-375');

    // The viewer has viewInterval only: no New button.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await page.goto('/login');
    await login(page, 'viewer');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/intervals?q=${tag}`);
    await expect(oilRow).toBeVisible();
    await expect(page.getByRole('link', { name: 'New interval' })).toHaveCount(0);
  } finally {
    for (const id of created) await request.delete(`${base}/${id}`, { headers });
  }
});
