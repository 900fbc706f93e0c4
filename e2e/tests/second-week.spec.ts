import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { type EmptyServer, startEmptyServer } from '../server.ts';
import { cpuThrottle, expect, expectNoPageScroll, screenshot, test } from './fixtures.ts';

/**
 * A self-hoster who works alone, from an empty database (docs/product.md "Working alone", "Rights
 * editor", "Administration"), in English at 1280 px and in German at 375 px: the set-up's time-zone
 * search, landing on the fleet's dashboard with the fleet's menu, a confirmation after a new unit, a
 * second fleet of the same name refused, and the rights editor with implied rights fixed in place. The
 * texts come from the locale files, so the German run reads what a German user reads.
 */

const LOCALES = path.resolve(import.meta.dirname, '../../packages/core/locales');

function texts(file: string) {
  const tree = JSON.parse(fs.readFileSync(path.join(LOCALES, `${file}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
  return (key: string, vars: Record<string, string> = {}) => {
    const found = key
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree);
    if (typeof found !== 'string') throw new Error(`no text ${key} in ${file}`);
    return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? '');
  };
}

const RUNS = [
  { lang: 'en', locale: 'en-GB', width: 1280 },
  { lang: 'de', locale: 'de-DE', width: 375 },
] as const;

for (const run of RUNS) {
  test.describe(`working alone (${run.lang}, ${run.width} px)`, () => {
    let server: EmptyServer | undefined;
    test.beforeAll(async () => {
      server = await startEmptyServer(`second-week-${run.lang}`);
    });
    test.afterAll(async () => {
      await server?.stop();
    });

    test('set-up, the fleet’s own screens, a new unit confirmed, a taken fleet name, implied rights', async ({
      browser,
    }) => {
      test.setTimeout(120_000 * cpuThrottle());
      const t = texts(run.lang);
      const base = server!.base;
      const context = await browser.newContext({
        locale: run.locale,
        viewport: { width: run.width, height: 900 },
      });
      const page: Page = await context.newPage();
      const shot = (name: string) => screenshot(page, `second-week-${name}-${run.lang}-${run.width}`);
      try {
        await page.goto(`${base}/`);
        await expect(page).toHaveURL(`${base}/setup`);
        await page.getByLabel(t('setup.organisation')).fill('Solo Haulage');
        await page.getByLabel(t('setup.name')).fill('Sol Solo');
        await page.getByLabel(t('login.username')).fill('sol');
        await page
          .getByLabel(new RegExp(`^${t('login.password')}\\s*\\*?$`))
          .and(page.locator('input'))
          .fill('solo-password-1');
        await page.getByLabel(t('setup.repeat')).fill('solo-password-1');

        // The zone: a click selects it whole, typing filters, Enter picks the highlighted one.
        const zone = page.getByRole('combobox', { name: t('setup.timeZone') });
        await zone.click();
        await page.keyboard.type('Berlin');
        await expect(zone).toHaveValue('Berlin');
        await page.keyboard.press('Enter');
        await expect(zone).toHaveValue(/UTC\+01:00 .*Berlin/);
        await expect(page).toHaveURL(`${base}/setup`);
        await shot('setup');
        await page.getByRole('button', { name: t('setup.submit') }).click();

        // The first user is the first fleet's manager: the dashboard, with the fleet's menu.
        await expect(page).toHaveURL(`${base}/dashboard`);
        await expect(page.getByRole('status')).toHaveCount(0);
        await shot('dashboard');

        // A new unit is confirmed by name.
        await page.goto(`${base}/admin`);
        await page.locator('a[href^="/fleet/"]').first().click();
        await expect(page).toHaveURL(/\/fleet\/\d+$/);
        const fleetId = Number(new URL(page.url()).pathname.split('/').pop());
        await page.goto(`${base}/fleet/${fleetId}?tab=objects`);
        await page.getByTestId('objects-new').click();
        await page.getByTestId('unit-name').fill('Van 1');
        await page.getByTestId('unit-device-id').fill(`solo-${run.lang}-1`);
        await page.getByTestId('unit-dialog-save').click();
        await expect(
          page
            .getByTestId('toast')
            .filter({ hasText: t('fleetAdmin.objects.unitCreated', { name: 'Van 1' }) }),
        ).toBeVisible();
        await shot('unit-created');

        // A second fleet of the same name in the account is refused on the name field.
        await page.goto(`${base}/admin`);
        await page.getByRole('button', { name: t('admin.createFleet') }).click();
        const dialog = page.getByRole('dialog', { name: t('admin.newFleet') });
        await dialog.getByRole('textbox', { name: t('fleetAdmin.name') }).fill('solo haulage');
        await dialog.getByRole('button', { name: t('admin.create') }).click();
        await expect(dialog).toContainText(t('fleetAdmin.nameTaken'));
        await shot('fleet-name-taken');
        await dialog.getByRole('button', { name: t('common.cancel') }).click();

        // The rights editor: every box in place, rights another ticked right requires fixed and ticked.
        await page.goto(`${base}/fleet/${fleetId}?tab=users`);
        const row = page.getByTestId('fleet-user-sol');
        await expect(row.getByTestId('acl-sol-services-view')).toBeChecked();
        await expect(row.getByTestId('acl-sol-services-view')).toBeDisabled();
        await expect(row.getByTestId('acl-sol-services-manage')).toBeChecked();
        await expect(row.getByTestId('acl-sol-archive-delete')).toBeEnabled();
        await expect(row.getByText(t('fleetAdmin.servicesIncludeFuel'))).toBeVisible();
        if (run.width === 375) await expectNoPageScroll(page);
        await shot('rights');
      } finally {
        await context.close();
      }
    });
  });
}
