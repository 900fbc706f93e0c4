import { expect, expectNoPageScroll, screenshot, test } from './fixtures.ts';

/** Spec §2 "Old browsers": old Internet Explorer gets the 'invalid' screen, in the browser's language. */

const IE11 = 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko';

test.describe('Internet Explorer 11 in German', () => {
  test.use({ userAgent: IE11, locale: 'de-DE' });

  test('sees the invalid screen in German instead of the application', async ({ page }) => {
    await page.goto('/services');
    await expect(page).toHaveTitle('Fleetkeep');
    await expect(page.locator('#invalid-message p')).toHaveText([
      'Dieser Browser wird nicht unterstützt.',
      'Bitte verwenden Sie eine aktuelle Version von Chrome, Firefox, Edge oder Safari.',
    ]);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { name: 'Fleetkeep' })).toBeVisible();
    // The server answered on the application's own address: nothing redirected the browser.
    expect(new URL(page.url()).pathname).toBe('/services');
    await expect(page.locator('#root')).toHaveCount(0);
    await screenshot(page, 'old-browser-1280');
  });
});

test.describe('Internet Explorer 11 in French', () => {
  test.use({ userAgent: IE11, locale: 'fr-FR' });

  test('sees the invalid screen in French', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('#invalid-message')).toContainText('Ce navigateur n’est pas pris en charge.');
    await expect(page.locator('#invalid-message')).toContainText(
      'Veuillez utiliser une version récente de Chrome, Firefox, Edge ou Safari.',
    );
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  });
});

test.describe('Internet Explorer 11 on a phone in Greek', () => {
  test.use({ userAgent: IE11, locale: 'el-GR', viewport: { width: 375, height: 700 } });

  test('fits the narrow screen, with the longest message of the list', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page.locator('#invalid-message')).toContainText(
      'Αυτό το πρόγραμμα περιήγησης δεν υποστηρίζεται.',
    );
    await expect(page.locator('html')).toHaveAttribute('lang', 'el');
    await expectNoPageScroll(page, 375);
    await screenshot(page, 'old-browser-375');
  });
});

test.describe('a language the product does not have', () => {
  test.use({ userAgent: IE11, locale: 'ja-JP' });

  test('falls back to English', async ({ page }) => {
    await page.goto('/services');
    await expect(page.locator('#invalid-message')).toContainText('This browser is not supported.');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });
});

test.describe('Brazilian Portuguese', () => {
  test.use({ locale: 'pt-BR' });

  test('reads the invalid page itself (where nomodule browsers are sent) in Portuguese', async ({ page }) => {
    await page.goto('/invalid.html');
    await expect(page.locator('#invalid-message')).toContainText('Este navegador não é compatível.');
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
  });
});

test('a current browser gets the application, which sends old ones to the invalid page', async ({
  page,
  request,
}) => {
  await page.goto('/services');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect(page.locator('#invalid-message')).toHaveCount(0);

  // Browsers without ES modules run the nomodule script; Chromium does not, so check that it is there.
  const index = await (await request.get('/services')).text();
  expect(index).toMatch(/<script nomodule>\s*window\.location\.replace\('\/invalid\.html'\);\s*<\/script>/);
});
