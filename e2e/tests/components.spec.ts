import type { Browser, Page } from '@playwright/test';
import { apiSession, cpuThrottle, expect, expectNoPageScroll, login, screenshot, test } from './fixtures.ts';

/**
 * Tyres (docs/product.md "Components"), at 1280 and 375 px: the mechanic adds a tyre on /components,
 * mounts four tyres on a car from the axle diagram of its "Tyres" tab, the car drives 1,000 km reported
 * by OsmAnd readings, the mechanic dismounts one tyre and reads its distance (1,000 km) and cost per
 * km on its page.
 */

async function signedIn(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  await login(page, 'mechanic');
  await expect(page).toHaveURL('/dashboard');
  return page;
}

async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option }).click();
}

for (const width of [1280, 375]) {
  test(`mount four tyres, drive 1,000 km, dismount one and read its distance (${width} px)`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(150_000 * cpuThrottle());
    const { fid, headers } = await apiSession(request, 'manager');
    const tag = `${width}-${Date.now().toString(36)}`;
    const uid = `tyres-${tag}`;
    const made = await request.post(`/api/fleets/${fid}/units`, {
      headers,
      data: { nm: `Tyre car ${tag}`, uid, ut: null },
    });
    expect(made.ok(), await made.text()).toBe(true);
    const unitId = (await made.json()).id as number;
    const t0 = Math.floor(Date.now() / 1000) - 12 * 3600;
    const send = async (seconds: number, km: number) => {
      const res = await request.get(
        `/api/ingest/osmand?id=${uid}&lat=53.9&lon=27.56&timestamp=${seconds}&odometer=${Math.round(km * 1000)}`,
      );
      expect(await res.json()).toEqual({ ok: true });
    };
    // The tracker's first odometer: the baseline the tyres are mounted at.
    await send(t0, 40_000);
    const serials = ['FL', 'FR', 'RL'].map((p) => `${tag}-${p}`);
    for (const serial of serials) {
      const res = await request.post(`/api/fleets/${fid}/components`, {
        headers,
        data: { kind: 'tyre', serial, brand: 'Nokian', cost: 250 },
      });
      expect(res.ok(), await res.text()).toBe(true);
    }

    const page = await signedIn(browser, width);
    // The fourth tyre is added on /components.
    await page.goto('/components');
    await page.getByTestId('comp-new').click();
    const dialog = page.getByTestId('comp-create-dialog');
    await dialog.getByTestId('comp-serial').fill(`${tag}-RR`);
    await dialog.getByTestId('comp-brand').fill('Nokian');
    await dialog.getByTestId('comp-cost').fill('250');
    await dialog.getByTestId('comp-create-submit').click();
    await expect(page).toHaveURL(/\/components\/\d+$/);
    await expect(page.getByTestId('comp-state')).toHaveText('In stock');
    serials.push(`${tag}-RR`);

    // Mount the four from the unit's axle diagram.
    await page.goto(`/unit/${unitId}?tab=tyres`);
    const positions = ['1L', '1R', '2L', '2R'];
    for (const [i, position] of positions.entries()) {
      await page.getByTestId(`tyre-${position}`).click();
      const mount = page.getByTestId('comp-mount-dialog');
      await choose(page, 'comp-mount-component', serials[i]!);
      if (i === 0) await screenshot(page, `components-mount-${width}`);
      await mount.getByTestId('comp-mount-submit').click();
      await expect(mount).toHaveCount(0);
      await expect(page.getByTestId(`tyre-${position}`)).toHaveAttribute('data-mounted', /\d+/);
    }
    await expectNoPageScroll(page, width);
    await screenshot(page, `components-tyres-tab-${width}`);

    // 1,000 km in ten hours of OsmAnd readings.
    for (let h = 1; h <= 10; h++) await send(t0 + h * 3600, 40_000 + h * 100);

    await page.reload();
    await page.getByTestId('tyre-2L').click();
    await expect(page).toHaveURL(/\/components\/\d+$/);
    await expect(page.getByTestId('comp-title')).toHaveText(`${tag}-RL`);
    await page.getByTestId('comp-dismount').click();
    await page.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByTestId('comp-state')).toHaveText('In stock');
    await expect(page.getByTestId('comp-distance')).toHaveText('1,000 km');
    await expect(page.getByTestId('comp-mounts')).toContainText(`Tyre car ${tag} · 2L`);
    await page.getByTestId('comp-tread-input').fill('2.5');
    await page.getByTestId('comp-tread-add').click();
    await expect(page.getByTestId('comp-treads')).toContainText('Tread low');
    await expectNoPageScroll(page, width);
    await screenshot(page, `components-page-${width}`);

    await page.goto('/components?kind=tyre');
    await expect(page.getByText(`${tag}-FL`)).toBeVisible();
    // The fleet's tread threshold (default 3 mm): the reading of 2.5 mm above was under it.
    await expect(page.getByTestId('comp-threshold')).toHaveValue('3');
    await expectNoPageScroll(page, width);
    await screenshot(page, `components-list-${width}`);
    await page.context().close();
  });
}
