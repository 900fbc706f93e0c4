import type { APIRequestContext, Page } from '@playwright/test';
import {
  apiSession,
  cpuThrottle,
  type DemoUser,
  expect,
  expectNoPageScroll,
  login,
  navigateInApp,
  screenshot,
  test,
} from './fixtures.ts';

/**
 * The phone (docs/product.md "Phone"): every list screen at 375 px without sideways scroll, the service
 * objects as cards, help as a full-screen sheet that gives Save back when closed; in English and German.
 */

const LANGS = ['en', 'de'] as const;
type Lang = (typeof LANGS)[number];

/** Sets a demo user's interface language through the API (read at the next sign-in). */
async function setLanguage(request: APIRequestContext, user: DemoUser, lang: Lang) {
  const { headers } = await apiSession(request, user);
  const res = await request.patch('/api/user/settings', { headers, data: { lang } });
  expect(res.ok(), await res.text()).toBe(true);
}

async function signIn(page: Page, user: DemoUser) {
  await login(page, user);
  await expect(page.getByTestId('user-menu')).toBeVisible({ timeout: 30_000 });
}

const WORDS = {
  en: {
    items: 'Service objects',
    help: 'Help',
    closeHelp: 'Close help',
    exit: 'Exit',
    fix: 'Correct the marked fields.',
  },
  de: {
    items: 'Wartungsobjekte',
    help: 'Hilfe',
    closeHelp: 'Hilfe schließen',
    exit: 'Abmelden',
    fix: 'Korrigieren Sie die markierten Felder.',
  },
} as const;

async function signOut(page: Page, lang: Lang) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: WORDS[lang].exit }).click();
  await expect(page).toHaveURL('/login');
  // The login screen keeps the last language; the next sign-in (fixtures `login`) reads English labels.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
}

test('every list screen at 375 px: no sideways page scroll, in English and German', async ({
  page,
  request,
}) => {
  test.setTimeout(420_000 * cpuThrottle());
  const { fid } = await apiSession(request, 'manager');
  // The fleet's lists as its manager (who administers it), the installation's as the super user.
  const screens: Record<'manager' | 'root', [string, string][]> = {
    manager: [
      ['services', '/services'],
      ['services-inprogress', '/services?tab=inProgress'],
      ['services-archive', '/services?tab=archive'],
      ['items', '/items'],
      ['intervals', '/intervals'],
      ['fuelfillings', '/fuelfillings'],
      ['lineitems', '/lineitems'],
      ['reports', '/reports'],
      ['issues', '/issues'],
      ['work-orders', '/work-orders'],
      ['inspections', '/inspections'],
      ['parts', '/parts'],
      ['documents', '/documents'],
      ['components', '/components'],
      ['fleet-settings', `/fleet/${fid}`],
      ['fleet-users', `/fleet/${fid}?tab=users`],
      ['fleet-objects', `/fleet/${fid}?tab=objects`],
      ['fleet-customfields', `/fleet/${fid}?tab=customfields`],
      ['fleet-notifications', `/fleet/${fid}?tab=notifications`],
    ],
    root: [
      ['activation', '/activation'],
      ['admin', '/admin'],
    ],
  };
  await page.setViewportSize({ width: 375, height: 812 });
  try {
    for (const lang of LANGS) {
      for (const user of ['manager', 'root'] as const) {
        await setLanguage(request, user, lang);
        await signIn(page, user);
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        for (const [name, url] of screens[user]) {
          await navigateInApp(page, url);
          // The screen itself, not a redirect.
          await expect(page).toHaveURL(url);
          await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 30_000 });
          // Lists load after their heading: wait for the loading indicator to go.
          await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 30_000 });
          await expectNoPageScroll(page, 375);
          await screenshot(page, `phone-list-${name}-${lang}-375`);
        }
        if (user === 'root') {
          // The first account's users (the activation screen's users list).
          await page.goto('/activation');
          await page.getByRole('treeitem').first().getByRole('button').first().click();
          await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 30_000 });
          await expectNoPageScroll(page, 375);
          await screenshot(page, `phone-list-activation-users-${lang}-375`);
        }
        await signOut(page, lang);
      }
    }
  } finally {
    await setLanguage(request, 'manager', 'en');
    await setLanguage(request, 'root', 'en');
  }
});

test('service objects are cards at 375 px and a table at 1280 px, in English and German', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000 * cpuThrottle());
  try {
    for (const lang of LANGS) {
      await setLanguage(request, 'manager', lang);
      await page.setViewportSize({ width: 1280, height: 800 });
      await signIn(page, 'manager');
      await page.goto('/items');
      await expect(page.getByRole('heading', { level: 1, name: WORDS[lang].items })).toBeVisible();
      const table = page.getByTestId('objects');
      await expect(table).toHaveAttribute('data-layout', 'table', { timeout: 30_000 });
      await expect(table.getByRole('columnheader')).not.toHaveCount(0);
      await screenshot(page, `phone-items-${lang}-1280`);

      await page.setViewportSize({ width: 375, height: 812 });
      await expect(table).toHaveAttribute('data-layout', 'phone');
      // The kind and type filters fold behind the Filters button.
      await expect(page.getByTestId('objects-kind')).toBeHidden();
      await page.getByTestId('objects-filters').click();
      await expect(page.getByTestId('objects-kind')).toBeVisible();
      await page.getByTestId('objects-filters').click();
      // A card per object: its name, and below it state, mileage and hours of a unit that has them.
      const card = table
        .getByRole('row')
        .filter({ has: page.locator('[data-column="mileage"]') })
        .first();
      await expect(card).toBeVisible();
      await expect(card.locator('[data-column="state"]')).toBeVisible();
      await expect(card.locator('[data-column="mileage"]')).toHaveText(/\d.*(km|mi)/);
      await expect(card.locator('[data-column="engineHours"]')).toHaveText(/\d/);
      // Nothing in the list scrolls sideways, the table's own box neither.
      const scroll = page.getByTestId('objects-scroll');
      expect(await scroll.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
      await expectNoPageScroll(page, 375);
      await screenshot(page, `phone-items-${lang}-375`);
      await signOut(page, lang);
    }
  } finally {
    await setLanguage(request, 'manager', 'en');
  }
});

test('help is a full-screen sheet at 375 px; closed, the editor Save is reachable; floats at 1280 px', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000 * cpuThrottle());
  try {
    for (const lang of LANGS) {
      await setLanguage(request, 'manager', lang);
      await page.setViewportSize({ width: 1280, height: 800 });
      await signIn(page, 'manager');
      const help = page.getByRole('dialog', { name: WORDS[lang].help });
      const save = page.getByTestId('interval-save');

      await page.goto('/interval/new');
      await expect(save).toBeVisible({ timeout: 30_000 });
      await page.getByTestId('help-button').click();
      await expect(help).toBeVisible();
      await expect(help).toHaveAttribute('data-mode', 'normal');
      await expect(page.getByTestId('help-maximize')).toBeVisible();
      await expect(save).toBeInViewport();
      await screenshot(page, `phone-help-${lang}-1280`);
      await page.getByTestId('help-close').click();
      await expect(help).toBeHidden();

      await page.setViewportSize({ width: 375, height: 812 });
      await page.getByTestId('help-button').click();
      await expect(help).toHaveAttribute('data-mode', 'sheet');
      expect(await help.boundingBox()).toEqual({ x: 0, y: 0, width: 375, height: 812 });
      // No moving, resizing, minimizing or maximizing: one labelled close button, which has the focus.
      await expect(page.getByTestId('help-minimize')).toHaveCount(0);
      await expect(page.getByTestId('help-maximize')).toHaveCount(0);
      await expect(page.getByTestId('help-resize-e')).toHaveCount(0);
      const close = help.getByRole('button', { name: WORDS[lang].closeHelp });
      await expect(close).toBeVisible();
      await expect(close).toBeFocused();
      await expectNoPageScroll(page, 375);
      await screenshot(page, `phone-help-${lang}-375`);
      await close.click();
      await expect(help).toBeHidden();
      // The screen is whole again: no room kept for the sheet, Save clickable.
      expect(await page.locator('#root').evaluate((el) => (el as HTMLElement).style.paddingBottom)).toBe('');
      await save.scrollIntoViewIfNeeded();
      await expect(save).toBeInViewport();
      await save.click({ timeout: 5000 });
      await expect(page.getByText(WORDS[lang].fix)).toBeVisible();
      await screenshot(page, `phone-help-closed-${lang}-375`);
      await signOut(page, lang);
    }
  } finally {
    await setLanguage(request, 'manager', 'en');
  }
});
