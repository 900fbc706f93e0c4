import { DEMO_PASSWORD } from '../server.ts';
import { apiSession, expect, expectNoPageScroll, login, screenshot, test } from './fixtures.ts';

// Spec §2 /activation: root creates an account below the demo account and a user in it, suspends the
// account and activates it again. The user is deleted at the end; the empty, active account stays
// (no spec counts accounts), under a name of its own so that reruns against one server do not clash.
const suffix = `${Date.now() % 1_000_000}`;
const ACCOUNT = `E2E Depot ${suffix}`;
const LOGIN = `e2e-depot-${suffix}`;
const PASSWORD = 'e2e-depot-password';

test.afterAll(async ({ request }) => {
  // Whatever the journey left: the user goes (the UI deletes it when the journey passes).
  const root = await apiSession(request, 'root');
  const { accounts } = await (await request.get('/api/admin/accounts', { headers: root.headers })).json();
  const depot = (accounts as { id: number; n: string }[]).find((a) => a.n === ACCOUNT);
  if (!depot) return;
  const { users } = await (
    await request.get(`/api/admin/accounts/${depot.id}/users`, { headers: root.headers })
  ).json();
  for (const u of users as { id: number; nm: string }[]) {
    if (u.nm === LOGIN) await request.delete(`/api/admin/users/${u.id}`, { headers: root.headers });
  }
});

test('root creates an account and a user, suspends and activates the account', async ({ page }) => {
  await login(page, 'root');
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/activation');

  const tree = page.getByRole('tree', { name: 'Accounts' });
  const demo = tree.getByRole('treeitem').filter({ hasText: 'Demo Logistics' });
  await demo.getByText('Demo Logistics', { exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Users of Demo Logistics' })).toBeVisible();

  // New account: the parent is preselected from the selected row.
  await page.getByRole('button', { name: 'New account' }).click();
  const accountDialog = page.getByRole('dialog', { name: 'New account' });
  await expect(accountDialog.getByRole('combobox', { name: 'Parent account' })).toHaveValue('Demo Logistics');
  await accountDialog.getByRole('textbox', { name: 'Account name' }).fill(ACCOUNT);
  await accountDialog.getByRole('button', { name: 'Save' }).click();
  await expect(accountDialog).toHaveCount(0);

  const depot = tree.getByRole('treeitem').filter({ hasText: ACCOUNT });
  await expect(depot).toContainText('Active');
  await expect(page.getByRole('heading', { name: `Users of ${ACCOUNT}` })).toBeVisible();
  await expect(page.getByText('This account has no users.')).toBeVisible();

  // New user: a short password is refused before the call.
  await page.getByRole('button', { name: 'New user' }).click();
  const userDialog = page.getByRole('dialog', { name: 'New user' });
  await userDialog.getByRole('textbox', { name: 'Login' }).fill(LOGIN);
  await userDialog.getByRole('textbox', { name: 'Full name' }).fill('Depot Tester');
  const password = userDialog.getByLabel(/^Password/).and(page.locator('input'));
  const repeat = userDialog.getByLabel('Repeat password').and(page.locator('input'));
  await password.fill('short');
  await repeat.fill('short');
  await userDialog.getByRole('button', { name: 'Save' }).click();
  await expect(userDialog).toContainText('At least 10 characters.');
  await password.fill(PASSWORD);
  await repeat.fill(PASSWORD);
  // A taken login (409) is shown on the login field.
  const loginField = userDialog.getByRole('textbox', { name: 'Login' });
  await loginField.fill('manager');
  await userDialog.getByRole('button', { name: 'Save' }).click();
  await expect(userDialog).toContainText('This login is already taken.');
  await loginField.fill(LOGIN);
  await userDialog.getByRole('button', { name: 'Save' }).click();
  await expect(userDialog).toHaveCount(0);

  const user = page.getByRole('listitem').filter({ hasText: LOGIN });
  await expect(user).toContainText('Depot Tester');
  await expect(user).toContainText('English');
  await expect(depot).toBeVisible();

  // The name filter keeps a match's ancestors visible and hides the rest.
  await page.getByRole('textbox', { name: 'Filter accounts by name' }).fill(`depot ${suffix}`);
  await expect(tree.getByRole('treeitem')).toHaveCount(2);
  await expect(demo).toBeVisible();
  await expect(tree.getByRole('treeitem').filter({ hasText: 'Northwind' })).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Filter accounts by name' }).fill('');

  // Suspending asks first and says that the users are signed out.
  await depot.getByRole('button', { name: 'Suspend' }).click();
  const confirm = page.getByRole('dialog', { name: 'Suspend account' });
  await expect(confirm).toContainText('signed out at once');
  await confirm.getByRole('button', { name: 'OK' }).click();
  await expect(depot).toContainText('Suspended');
  await depot.getByRole('button', { name: 'Activate' }).click();
  await expect(depot).toContainText('Active');
  await expect(depot.getByRole('button', { name: 'Suspend' })).toBeVisible();

  // Delete the user again (asks first).
  await user.getByRole('button', { name: `Actions for ${LOGIN}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete user' }).getByRole('button', { name: 'OK' }).click();
  await expect(user).toHaveCount(0);
  await expect(page.getByText('This account has no users.')).toBeVisible();
});

test('at 375 px in German the heading, the filter and the users heading are whole', async ({
  browser,
  request,
  baseURL,
}) => {
  const root = await apiSession(request, 'root');
  const setLang = (lang: string) =>
    request.patch('/api/user/settings', { headers: root.headers, data: { lang } });
  expect((await setLang('de')).ok()).toBe(true);
  const context = await browser.newContext({
    baseURL,
    locale: 'de-DE',
    viewport: { width: 375, height: 800 },
  });
  const page = await context.newPage();
  try {
    await page.goto('/login');
    await page.getByLabel('Benutzername').fill('root');
    await page.getByLabel('Passwort').and(page.locator('input')).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto('/activation');
    await expect(page.getByRole('heading', { name: 'Aktivierung' })).toBeVisible();
    const tree = page.getByRole('tree', { name: 'Konten' });
    await tree
      .getByRole('treeitem')
      .filter({ hasText: 'Demo Logistics' })
      .getByText('Demo Logistics')
      .click();
    const users = page.getByRole('heading', { name: 'Benutzer von Demo Logistics' });
    await expect(users).toBeVisible();
    // Nothing cut: each text fits its box (no ellipsis, no hidden overflow).
    const whole = (el: HTMLElement) => el.scrollWidth <= el.clientWidth;
    expect(await users.evaluate(whole)).toBe(true);
    const filter = page.getByRole('textbox', { name: 'Konten nach Namen filtern' });
    // The placeholder fits the field (measured with the field's own font).
    const fits = await filter.evaluate((el: HTMLInputElement) => {
      const canvas = document.createElement('canvas').getContext('2d')!;
      const style = getComputedStyle(el);
      canvas.font = `${style.fontSize} ${style.fontFamily}`;
      const room =
        el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      return canvas.measureText(el.placeholder).width <= room;
    });
    expect(fits).toBe(true);
    await expectNoPageScroll(page);
    await screenshot(page, 'activation-de-375');
  } finally {
    await context.close();
    await setLang('en');
  }
});
