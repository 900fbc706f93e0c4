import type { Page } from '@playwright/test';
import { apiSession, cpuThrottle, expect, expectNoPageScroll, login, screenshot, test } from './fixtures.ts';

/**
 * Parts and stock (docs/product.md "Parts and stock"), at 1280 and 375 px: the manager makes a purchase
 * order of a part, orders it and receives it at a store; the part's stock and average cost follow. Then
 * a service takes two of them from that store through the service editor's "From stock", and the part
 * page shows the stock down by two with the move in its history.
 */

async function choose(page: Page, testId: string, option: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option }).first().click();
}

for (const width of [1280, 375]) {
  test(`receive a purchase order, use the part in a service, stock and cost follow (${width} px)`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(120_000 * cpuThrottle());
    const { fid, headers } = await apiSession(request, 'manager');
    const tag = `${width}-${Date.now().toString(36)}`;
    const number = `OF-${tag}`;
    const made = await request.post(`/api/fleets/${fid}/parts`, {
      headers,
      data: { number, name: `Oil filter ${tag}`, unit: 'pcs', cost: 10 },
    });
    expect(made.ok(), await made.text()).toBe(true);
    const partId = (await made.json()).id as number;
    const store = await request.post(`/api/fleets/${fid}/stock-locations`, {
      headers,
      data: { name: `Store ${tag}`, kind: 'store' },
    });
    expect(store.ok(), await store.text()).toBe(true);
    const storeId = (await store.json()).id as number;
    const units = await (await request.get(`/api/fleets/${fid}/units`, { headers })).json();
    const unit = (Array.isArray(units) ? units : units.units)[0] as { nm: string };

    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');

    // A purchase order: 10 filters at 16, ordered, received at the store.
    await page.goto('/parts?tab=orders');
    await page.getByTestId('po-new').click();
    await page.getByTestId('po-vendor').fill(`Filters Ltd ${tag}`);
    await page.getByTestId('po-save').click();
    await expect(page).toHaveURL(/\/purchase-orders\/\d+$/);
    await expect(page.getByTestId('po-status')).toHaveText('Draft');
    await choose(page, 'po-line-part', new RegExp(number));
    await page.getByTestId('po-line-qty').fill('10');
    await page.getByTestId('po-line-cost').fill('16');
    await page.getByTestId('po-line-add').click();
    await expect(page.getByTestId('po-lines')).toContainText(number);
    await page.getByTestId('po-order').click();
    await expect(page.getByTestId('po-status')).toHaveText('Ordered');
    await page.getByTestId('po-receive').click();
    await choose(page, 'receive-location', new RegExp(`Store ${tag}`));
    await screenshot(page, `parts-receive-${width}`);
    await page.getByTestId('receive-save').click();
    await expect(page.getByTestId('po-status')).toHaveText('Received');
    await expectNoPageScroll(page, width);
    await screenshot(page, `parts-order-${width}`);

    // The part: 10 on hand at the average cost of the receipt.
    await page.goto(`/parts/${partId}`);
    await expect(page.getByTestId('part-on-hand')).toHaveText('10 pcs');
    await expect(page.getByTestId('part-cost-value')).toContainText('16');

    // A service of the first unit takes two from the store.
    await page.goto('/service/new');
    await page.getByRole('combobox', { name: 'Objects', exact: true }).click();
    await page.getByRole('option', { name: unit.nm, exact: true }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill(`Filter change ${tag}`);
    await page.getByRole('tab', { name: /Line items/ }).click();
    await page.getByTestId('service-add-line').click();
    const line = page.getByTestId('service-line').nth(0);
    await line.getByTestId('service-line-stock').click();
    await page
      .getByRole('option', { name: new RegExp(number) })
      .first()
      .click();
    await line.getByRole('textbox', { name: 'Quantity' }).fill('2');
    await expect(line.getByRole('textbox', { name: 'Cost per unit' })).toHaveValue('16');
    // The part's name fills the line's name field as shown, not only in the saved line.
    await expect(line.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(`Oil filter ${tag}`);
    await screenshot(page, `parts-service-line-${width}`);
    await page.getByTestId('service-save').click();
    await expect(page).toHaveURL(/\/service\/\d+$/);

    // Stock down by two, the move kept; the list shows the part with its value.
    await page.goto(`/parts/${partId}`);
    await expect(page.getByTestId('part-on-hand')).toHaveText('8 pcs');
    await expect(page.getByTestId(`stock-${storeId}`)).toContainText('8');
    await expect(page.getByTestId('part-moves')).toContainText('Used on a job');
    await expectNoPageScroll(page, width);
    await screenshot(page, `parts-part-${width}`);
    await page.goto('/parts');
    await expect(page.getByTestId(`part-on-hand-${partId}`).or(page.getByText(number)).first()).toBeVisible();
    await expectNoPageScroll(page, width);
    await screenshot(page, `parts-list-${width}`);
    const part = await (await request.get(`/api/fleets/${fid}/parts/${partId}`, { headers })).json();
    expect(part).toMatchObject({ on_hand: 8, cost: 16, value: 128 });
    await context.close();
  });
}
