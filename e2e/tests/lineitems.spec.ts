import { apiSession, expect, expectNoPageScroll, login, screenshot, test } from './fixtures.ts';

test('a manager adds, edits, meets the duplicate error and deletes a part; adds a fuel preset', async ({
  page,
}) => {
  const name = `E2E brake pad ${Date.now() % 100000}`;
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/lineitems');
  await expect(page.getByRole('heading', { name: 'Line items library' })).toBeVisible();

  const add = page.getByTestId('add-parts');
  await add.getByLabel('Name').fill(name);
  await add.getByLabel('Cost').fill('12.3456');
  await expect(add.getByLabel('Cost')).toHaveValue('12.345');
  await add.getByRole('button', { name: 'Add' }).click();
  const table = page.getByTestId('lineitems-parts');
  // hasText with a string ignores case; a RegExp does not.
  const row = table.getByRole('row').filter({ hasText: new RegExp(name) });
  await expect(row).toContainText('12.345');
  await expect(row).toContainText('Part');
  await expect(add.getByLabel('Name')).toHaveValue('');

  // Inline edit of the cost.
  await row.getByRole('button', { name: `Edit: ${name}` }).click();
  const editing = table.getByRole('row').filter({ has: page.getByRole('button', { name: 'Save' }) });
  await editing.getByLabel('Cost').fill('20.5');
  await editing.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('20.5');
  await expect(table.getByRole('button', { name: 'Save' })).toHaveCount(0);

  // The same name and type in other case is a duplicate (the server answers error 10).
  await add.getByLabel('Name').fill(name.toUpperCase());
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(add.getByRole('alert')).toHaveText('An item with this name and type exists');
  // As labour it is a different item.
  await add.getByRole('radiogroup', { name: 'Type' }).getByText('Labour').click();
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(add.getByRole('alert')).toHaveCount(0);
  const labour = table.getByRole('row').filter({ hasText: new RegExp(name.toUpperCase()) });
  await expect(labour).toContainText('Labour');

  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, 'lineitems-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'lineitems-375');
  await expectNoPageScroll(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Delete asks first; Cancel keeps the row, OK removes it.
  await row.getByRole('button', { name: `Delete: ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete line item' });
  await expect(dialog).toContainText(name);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Delete: ${name}` }).click();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(row).toHaveCount(0);
  await labour.getByRole('button', { name: `Delete: ${name.toUpperCase()}` }).click();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(labour).toHaveCount(0);

  // Fuel tab: a preset not yet in the library is added and leaves the menu.
  await page.getByRole('tab', { name: 'Fuel' }).click();
  await expect(page).toHaveURL(/tab=fuel/);
  await page.getByRole('button', { name: 'Add preset' }).click();
  const first = page.getByRole('menuitem').first();
  const preset = (await first.textContent()) ?? '';
  expect(preset).not.toBe('');
  await first.click();
  const fuel = page.getByTestId('lineitems-fuel');
  // The preset's row by its exact name: a string hasText matches any fuel item containing it, without
  // case ('Diesel' in another journey's "… diesel" running at the same time), which stays after the delete.
  const presetRow = fuel
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: preset, exact: true }) });
  await expect(presetRow).toBeVisible();
  await page.getByRole('button', { name: 'Add preset' }).click();
  await expect(page.getByRole('menuitem', { name: preset, exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await screenshot(page, 'lineitems-fuel-1280');
  await fuel.getByRole('button', { name: `Delete: ${preset}` }).click();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(presetRow).toHaveCount(0);
});

test('a viewer sees the library without edit controls', async ({ page, request }) => {
  const { fid, headers } = await apiSession(request, 'manager');
  const name = `E2E viewer wiper ${Date.now() % 100000}`;
  const created = await request.post(`/api/fleets/${fid}/line_items`, {
    headers,
    data: { n: name, t: 'part', c: 1234.5 },
  });
  expect(created.ok()).toBe(true);
  const { id } = await created.json();
  try {
    await login(page, 'viewer');
    await page.waitForURL((url) => !url.pathname.includes('/login'));
    await page.goto('/lineitems');
    await expect(page.getByRole('heading', { name: 'Line items library' })).toBeVisible();
    const row = page.getByTestId('lineitems-parts').getByRole('row').filter({ hasText: name });
    // A unit price keeps its decimals, in the user's language (docs/product.md).
    await expect(row).toContainText('€1,234.50');
    await expect(row).toContainText('Part');
    await expect(page.getByRole('button', { name: 'Export CSV' }).first()).toBeVisible();
    await expect(page.getByTestId('add-parts')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^(Edit|Delete):/ })).toHaveCount(0);
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'lineitems-viewer-375');
    await page.getByRole('tab', { name: 'Fuel' }).click();
    await expect(page.getByTestId(/^lineitems-fuel(-empty)?$/).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add preset' })).toHaveCount(0);
  } finally {
    await request.delete(`/api/fleets/${fid}/line_items/${id}`, { headers });
  }
});

test('a row edit follows a change made elsewhere until typed in; an unsaved row asks before the tab changes', async ({
  page,
  request,
}) => {
  const { fid, headers } = await apiSession(request, 'manager');
  const name = `E2E live belt ${Date.now() % 100000}`;
  const created = await request.post(`/api/fleets/${fid}/line_items`, {
    headers,
    data: { n: name, t: 'part', c: 5 },
  });
  expect(created.ok()).toBe(true);
  const { id } = await created.json();
  const changeElsewhere = async (c: number) => {
    // The live event refetches the library: wait for that read, not for a time.
    const refetched = page.waitForResponse(
      (r) => /\/line_items(\?|$)/.test(r.url()) && r.request().method() === 'GET',
    );
    const res = await request.put(`/api/fleets/${fid}/line_items/${id}`, { headers, data: { c } });
    expect(res.ok()).toBe(true);
    await refetched;
  };
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto('/lineitems');
    const table = page.getByTestId('lineitems-parts');
    await table.getByRole('button', { name: `Edit: ${name}` }).click();
    const editing = table.getByRole('row').filter({ has: page.getByRole('button', { name: 'Save' }) });
    await expect(editing.getByLabel('Cost')).toHaveValue('5');

    // Untouched, the edit shows the item as changed elsewhere; typed in, it keeps what the user typed.
    await changeElsewhere(7.5);
    await expect(editing.getByLabel('Cost')).toHaveValue('7.5');
    await editing.getByLabel('Cost').fill('8');
    await changeElsewhere(9);
    await expect(editing.getByLabel('Cost')).toHaveValue('8');
    await editing.getByRole('button', { name: 'Cancel' }).click();
    await expect(table.getByRole('row').filter({ hasText: name })).toContainText('9');

    // A name typed into the add row is an unsaved change: switching the tab asks first (spec §2).
    const add = page.getByTestId('add-parts');
    await add.getByLabel('Name').fill('E2E unsaved');
    await page.getByRole('tab', { name: 'Fuel' }).click();
    const warning = page.getByRole('dialog', { name: 'Warning!' });
    await expect(warning).toBeVisible();
    await warning.getByRole('button', { name: 'Stay' }).click();
    await expect(page).not.toHaveURL(/tab=fuel/);
    await expect(add.getByLabel('Name')).toHaveValue('E2E unsaved');
    await page.getByRole('tab', { name: 'Fuel' }).click();
    await page.getByRole('dialog', { name: 'Warning!' }).getByRole('button', { name: 'Leave' }).click();
    await expect(page).toHaveURL(/tab=fuel/);
  } finally {
    await request.delete(`/api/fleets/${fid}/line_items/${id}`, { headers });
  }
});
