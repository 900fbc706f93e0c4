import {
  apiSession,
  cpuThrottle,
  expect,
  expectNoPageScroll,
  login,
  openUserMenu,
  screenshot,
  test,
} from './fixtures.ts';

/**
 * Vehicle assignments and the driver preset (docs/product.md "Vehicle assignments"). The manager gives
 * a new member of the demo account the access list's driver preset and assigns the Ford Transit to her
 * on the unit page; she signs in at phone width, sees that van only and adds a fuel filling to it.
 */
test('the manager assigns a van to a driver, who sees only it and adds a fuel filling', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const login_ = `dora-${Date.now().toString(36)}`;
  const password = 'Drive-safely-2026!';
  const admin = await apiSession(request, 'root');
  const manager = await apiSession(request, 'manager');
  const { accounts } = await (await request.get('/api/admin/accounts', { headers: admin.headers })).json();
  const demo = accounts.find((a: { fleets: { id: number }[] }) => a.fleets.some((f) => f.id === manager.fid));
  const made = await request.post(`/api/admin/accounts/${demo.id}/users`, {
    headers: admin.headers,
    data: { nm: login_, n: 'Dora Driver', password },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const userId = (await made.json()).id as number;
  const fid = manager.fid;
  const { units } = await (
    await request.get(`/api/fleets/${fid}/units`, { headers: manager.headers })
  ).json();
  const van = units.find((u: { nm: string }) => u.nm === 'Ford Transit');
  try {
    // The manager: access list → add Dora → Driver preset → save.
    await page.setViewportSize({ width: 1280, height: 800 });
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/fleet/${fid}?tab=users`);
    await page.getByTestId('fleet-user-add').click();
    await page.getByRole('option', { name: `Dora Driver (${login_})` }).click();
    const row = page.getByTestId(`fleet-user-${login_}`);
    await row.getByTestId(`fleet-user-${login_}-driver`).click();
    await expect(row.getByTestId(`fleet-user-${login_}-assigned-only`)).toBeChecked();
    await expect(row.getByTestId(`acl-${login_}-fuel-add`)).toBeChecked();
    await expect(row.getByTestId(`acl-${login_}-services-view`)).not.toBeChecked();
    await screenshot(page, 'assignments-preset-1280');
    await page.getByTestId('fleet-users-save').click();
    await expect(page.getByTestId('fleet-users-saved')).toBeVisible();

    // The van's page: Assignments tab → Assign a driver → Dora.
    await page.goto(`/unit/${van.id}?tab=drivers`);
    await expect(page.getByTestId('assignment-current')).toHaveText('No driver assigned');
    await page.getByTestId('assignment-assign').click();
    const dialog = page.getByRole('dialog', { name: 'Assign a driver' });
    await dialog.getByTestId('assign-driver').click();
    await page.getByRole('option', { name: 'Dora Driver · Driver' }).click();
    await dialog.getByTestId('assign-save').click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('assignment-current')).toHaveText('Driver: Dora Driver');
    await expect(page.getByTestId('object-driver')).toHaveText('Driver: Dora Driver');
    await expect(
      page.getByTestId('assignments').getByRole('row').filter({ hasText: 'Dora Driver' }),
    ).toContainText('Current');
    await screenshot(page, 'assignments-unit-1280');
    // The items list names the current driver.
    await page.goto('/items?kind=u');
    await expect(page.getByRole('row').filter({ hasText: 'Ford Transit' })).toContainText('Dora Driver');
    await screenshot(page, 'assignments-items-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoPageScroll(page);
    await screenshot(page, 'assignments-items-375');
    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Exit' }).click();

    // Dora, on her phone: the units list holds the van alone; she adds a filling to it.
    await expect(page).toHaveURL(/\/login/);
    await page.getByLabel('User name').fill(login_);
    await page.getByLabel('Password').and(page.locator('input')).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL('/items');
    await expect(page.getByRole('link', { name: 'Ford Transit' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Scania R450' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Volvo FH16 #1' })).toHaveCount(0);
    await expectNoPageScroll(page);
    await screenshot(page, 'assignments-driver-items-375');
    await page.getByRole('link', { name: 'Ford Transit' }).click();
    await expect(page.getByTestId('object-driver')).toHaveText('Driver: Dora Driver');
    await page.getByTestId('object-create-fuel').click();
    await expect(page).toHaveURL(`/fuelfilling/new?unit=${van.id}`);
    await page.getByTestId('fuel-volume').fill('55.2');
    await page.getByTestId('fuel-price').fill('1.659');
    await page.getByTestId('fuel-station').fill('Circle K Vilnius');
    await expectNoPageScroll(page);
    await screenshot(page, 'assignments-driver-fuel-375');
    await page.getByTestId('fuel-save').click();
    await expect(page).toHaveURL(new RegExp(`/unit/${van.id}`));
    // Another unit's page is not hers: back to the list.
    await page.goto(`/unit/${units.find((u: { nm: string }) => u.nm === 'Scania R450').id}`);
    await expect(page).toHaveURL('/items');

    const today = new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10);
    const { fuel_fillings } = await (
      await request.get(`/api/fleets/${fid}/units/${van.id}/fuel-fillings?from=${today}&to=${today}`, {
        headers: manager.headers,
      })
    ).json();
    expect(fuel_fillings.filter((f: { station: string }) => f.station === 'Circle K Vilnius')).toHaveLength(
      1,
    );
  } finally {
    const { assignments } = await (
      await request.get(`/api/fleets/${fid}/vehicle-assignments?driver=${userId}`, {
        headers: manager.headers,
      })
    ).json();
    for (const a of assignments ?? [])
      await request.delete(`/api/fleets/${fid}/vehicle-assignments/${a.id}`, { headers: manager.headers });
    const list = (await (await request.get(`/api/fleets/${fid}/users`, { headers: manager.headers })).json())
      .users as { id: number }[];
    await request.put(`/api/fleets/${fid}/users`, {
      headers: manager.headers,
      data: { users: list.filter((u) => u.id !== userId) },
    });
    await request.delete(`/api/admin/users/${userId}`, { headers: admin.headers });
  }
});
