import type { Browser, Page } from '@playwright/test';
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

/**
 * The workshop loop's work order (docs/product.md "Work orders"), at 1280 and 375 px: the manager makes
 * a work order for a truck from its open brake issue, adds the truck's Due oil service and assigns the
 * mechanic; the mechanic starts it, adds a part from the library and completes it with the meter. The
 * archive then holds both services (the oil service closed, the unplanned brake work), the issue is
 * resolved and the downtime shows.
 */

async function signedIn(browser: Browser, user: 'manager' | 'mechanic', width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  await login(page, user);
  await expect(page).toHaveURL('/dashboard');
  return page;
}

async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

for (const width of [1280, 375]) {
  test(`a work order from an issue, with the due oil service, completed with a part (${width} px)`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(120_000 * cpuThrottle());
    const { fid, headers } = await apiSession(request, 'manager');
    const tag = `${width}-${Date.now().toString(36)}`;
    const truck = `WO truck ${tag}`;
    const made = await request.post(`/api/fleets/${fid}/units`, {
      headers,
      data: { nm: truck, uid: `wo-${tag}`, ut: null },
    });
    expect(made.ok(), await made.text()).toBe(true);
    const unitId = (await made.json()).id as number;
    const oil = await request.post(`/api/fleets/${fid}/services`, {
      headers,
      data: { n: `Oil change ${tag}`, t: 'u', uid: unitId, f: 1 },
    });
    expect(oil.ok(), await oil.text()).toBe(true);
    const oilId = (await oil.json()).id as number;
    const issue = await request.post(`/api/fleets/${fid}/issues`, {
      headers,
      data: { object_type: 'u', object_id: unitId, title: `Brake pedal soft ${tag}`, priority: 'high' },
    });
    expect(issue.ok(), await issue.text()).toBe(true);
    const issueId = (await issue.json()).id as number;
    const part = `Brake pads ${tag}`;
    const item = await request.post(`/api/fleets/${fid}/line_items`, {
      headers,
      data: { n: part, t: 2, c: 42.5 },
    });
    expect(item.ok(), await item.text()).toBe(true);

    // Another work order of the truck whose scheduled end has passed: on the dashboard's overdue list.
    const late = await request.post(`/api/fleets/${fid}/work-orders`, {
      headers,
      data: {
        object_type: 'u',
        object_id: unitId,
        title: `Overdue check ${tag}`,
        scheduled_end: Math.floor(Date.now() / 1000) - 3600,
      },
    });
    expect(late.ok(), await late.text()).toBe(true);

    // The manager: new work order for the truck, its open issue and its due oil service, for the mechanic.
    const manager = await signedIn(browser, 'manager', width);
    const overdue = manager.getByTestId('dash-section-overdueWorkOrders');
    await expect(overdue).toContainText(`Overdue check ${tag}`);
    await overdue.scrollIntoViewIfNeeded();
    await screenshot(manager, `work-orders-dashboard-${width}`);
    const dialog = manager.getByTestId('wo-create');
    if (width < 1280) {
      // The issue page's "Create work order": the dialog opens with the truck and the issue chosen.
      await manager.goto(`/work-orders?object=u:${unitId}&issue=${issueId}`);
      await expect(dialog.getByTestId(`wo-issue-${issueId}`)).toBeChecked();
    } else {
      await manager.getByRole('link', { name: 'Work orders' }).first().click();
      await expect(manager).toHaveURL(/\/work-orders/);
      await manager.getByTestId('wo-new').click();
      await choose(manager, 'wo-object', truck);
      await dialog.getByTestId(`wo-issue-${issueId}`).check();
    }
    await dialog.getByTestId('wo-title').fill(`Brakes and oil ${tag}`);
    await dialog.getByTestId(`wo-service-${oilId}`).check();
    await choose(manager, 'wo-assignee', 'Mike Mechanic');
    await screenshot(manager, `work-order-create-${width}`);
    await dialog.getByTestId('wo-create-submit').click();
    await expect(manager).toHaveURL(/\/work-orders\/\d+$/);
    const woId = Number(manager.url().split('/').pop());
    await expect(manager.getByTestId('wo-status')).toHaveText('Open');
    await expect(manager.getByTestId('wo-issues')).toContainText(`Brake pedal soft ${tag}`);
    await expect(manager.getByTestId('wo-services')).toContainText(`Oil change ${tag}`);
    await expectNoPageScroll(manager, width);
    await screenshot(manager, `work-order-open-${width}`);
    await manager.context().close();

    // The mechanic: starts it, adds two brake pads from the library, completes it with the meter.
    const mechanic = await signedIn(browser, 'mechanic', width);
    await mechanic.goto('/work-orders');
    await mechanic.getByTestId(`wo-link-${woId}`).click();
    await mechanic.getByTestId('wo-action-start').click();
    await expect(mechanic.getByTestId('wo-status')).toHaveText('In progress');
    await choose(mechanic, 'wo-line-item', `${part} (Part)`);
    await mechanic.getByTestId('wo-line-qty').fill('2');
    await mechanic.getByTestId('wo-line-add').click();
    await expect(mechanic.getByTestId('wo-lines')).toContainText(part);
    await expect(mechanic.getByTestId('wo-total')).toContainText('85');
    await mechanic.getByTestId('wo-action-complete').click();
    const complete = mechanic.getByTestId('wo-complete-dialog');
    await complete.getByTestId('wo-complete-mileage').fill('1234');
    await screenshot(mechanic, `work-order-complete-${width}`);
    await complete.getByTestId('wo-complete-submit').click();
    await expect(mechanic.getByTestId('wo-status')).toHaveText('Completed');
    await expect(mechanic.getByTestId('wo-downtime')).toContainText('Downtime');
    await expect(mechanic.getByTestId('wo-meter')).toContainText('1,234');
    await expect(mechanic.getByTestId('wo-action-complete')).toHaveCount(0);
    await expectNoPageScroll(mechanic, width);
    await screenshot(mechanic, `work-order-completed-${width}`);
    await mechanic.goto('/work-orders?status=all');
    await expect(mechanic.getByTestId(`wo-link-${woId}`)).toBeVisible();
    await expectNoPageScroll(mechanic, width);
    await screenshot(mechanic, `work-orders-list-${width}`);
    await mechanic.context().close();

    // The archive holds both services; the issue is resolved by the work order.
    const wo = await (await request.get(`/api/fleets/${fid}/work-orders/${woId}`, { headers })).json();
    expect(wo).toMatchObject({ status: 'completed', mileage: 1234, total_cost: 85 });
    const archive = await (
      await request.get(`/api/fleets/${fid}/services/archived?from=${fleetDay(-1)}&to=${fleetDay(1)}`, {
        headers,
      })
    ).json();
    const mine = archive.services.filter((s: { uid: number }) => s.uid === unitId);
    expect(mine.map((s: { n: string }) => s.n).sort()).toEqual([
      `Brakes and oil ${tag}`,
      `Oil change ${tag}`,
    ]);
    expect(mine.every((s: { f: number }) => s.f === 8)).toBe(true);
    const resolved = await (await request.get(`/api/fleets/${fid}/issues/${issueId}`, { headers })).json();
    expect(resolved).toMatchObject({ status: 'resolved', work_order_id: woId });
  });
}
