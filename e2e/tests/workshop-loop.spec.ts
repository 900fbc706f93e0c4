import type { APIRequestContext, APIResponse, Browser, Page } from '@playwright/test';
import {
  apiSession,
  cpuThrottle,
  type DemoUser,
  expect,
  expectNoPageScroll,
  login,
  screenshot,
  test,
} from './fixtures.ts';

/**
 * The whole workshop loop of issue 29 (docs/product.md "Inspections", "Work orders"), at 1280 and 375
 * px, through the screens: the demo driver (Dan Driver, the driver preset, assigned units only) submits
 * the built-in DVIR on his truck with a failed brake item and a drawn signature; the issue it opens
 * appears for the manager, who makes a work order from it and adds the truck's Due oil service; the
 * mechanic completes it with a part line; the archive holds both services, the oil interval's baseline
 * is reset and the issue resolved; the mechanic certifies the defect with a signature; the driver's next
 * inspection of the truck shows that report with its certification, and he acknowledges it.
 *
 * Each run makes its own truck, oil interval, Due service, part and assignment of the truck to the
 * driver (set-up through the API), and removes them afterwards.
 */

const BRAKES = 'Service brakes including trailer brake connections';

async function signedIn(browser: Browser, user: DemoUser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  await login(page, user);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  return page;
}

async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Draws a stroke across a signature pad with the mouse (pointer events, as a finger does). */
async function sign(page: Page, testId: string) {
  const pad = page.getByTestId(testId);
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('no signature pad');
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(box.x + 20 + i * 25, box.y + 30 + (i % 2) * 60);
  await page.mouse.up();
}

/** Answers the eleven DVIR items: Pass, except the indices in `fail`. */
async function answerDvir(page: Page, fail: number[] = []) {
  for (let i = 0; i < 11; i++) {
    await page
      .getByTestId(`item-${i}`)
      .getByText(fail.includes(i) ? 'Fail' : 'Pass', { exact: true })
      .click();
  }
}

/** The set-up that is not the point: a truck assigned to Dan Driver, its Due oil service, a part. */
async function setUp(request: APIRequestContext, tag: string) {
  const { fid, headers } = await apiSession(request, 'manager');
  const api = `/api/fleets/${fid}`;
  const ok = async (res: APIResponse) => {
    expect(res.ok(), await res.text()).toBe(true);
    return res.json();
  };
  const truck = `Loop truck ${tag}`;
  const unitId = (
    await ok(
      await request.post(`${api}/units`, {
        headers,
        data: { nm: truck, uid: `loop-${tag}`, ut: null, cnm: 120_000 },
      }),
    )
  ).id as number;
  // Oil every 15,000 km with 500 km notice, last done at 105,200 km: Due at 120,000 km (200 km to go).
  // The status engine opens the Due service of the interval on its own.
  const oil = `Oil change ${tag}`;
  const intervalId = (
    await ok(
      await request.post(`${api}/intervals`, {
        headers,
        data: { n: oil, cnme: 1, cnmd: 15_000, cnmo: 500, u: [{ id: unitId, t: 'u', lcnm: 105_200 }] },
      }),
    )
  ).id as number;
  let serviceId = 0;
  await expect
    .poll(async () => {
      const { services } = await ok(await request.get(`${api}/services`, { headers }));
      const due = services.find(
        (x: { uid: number; ivid: number | null }) => x.uid === unitId && x.ivid === intervalId,
      );
      serviceId = due?.id ?? 0;
      return due ? { due: (due.f & 1) === 1, overdue: (due.f & 4) !== 0 } : null;
    })
    .toEqual({ due: true, overdue: false });
  const part = `Brake chamber ${tag}`;
  const partId = (
    await ok(await request.post(`${api}/line_items`, { headers, data: { n: part, t: 2, c: 64 } }))
  ).id as number;
  const { drivers } = await ok(await request.get(`${api}/assignment-drivers`, { headers }));
  const dan = drivers.find((d: { nm: string }) => d.nm === 'Dan Driver');
  expect(dan?.ao).toBe(true);
  const assignmentId = (
    await ok(
      await request.post(`${api}/vehicle-assignments`, { headers, data: { uid: unitId, drv: dan.id } }),
    )
  ).id as number;
  return { fid, headers, api, truck, unitId, oil, intervalId, serviceId, part, partId, assignmentId };
}

for (const width of [1280, 375]) {
  test(`the workshop loop: DVIR → issue → work order → archive → certification → acknowledgement (${width} px)`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(180_000 * cpuThrottle());
    const tag = `${width}-${Date.now().toString(36)}`;
    const s = await setUp(request, tag);
    const pages: Page[] = [];
    const open = async (user: DemoUser) => {
      const page = await signedIn(browser, user, width);
      pages.push(page);
      return page;
    };
    try {
      // 1. Dan Driver: Start inspection on his truck, the DVIR with failed service brakes, signed.
      const driver = await open('driver');
      await driver.goto('/inspections');
      await driver.getByTestId('start-inspection').click();
      await expect(driver.getByRole('combobox', { name: 'Form' })).toHaveValue(
        'Driver vehicle inspection report (DVIR)',
      );
      await choose(driver, 'inspection-object', s.truck);
      await expect(driver.getByTestId('item-0')).toContainText(BRAKES);
      await answerDvir(driver, [0]);
      const brake = driver.getByTestId('item-0');
      await brake.getByText('Major', { exact: true }).click();
      await brake.getByLabel('Remark').fill('Air leak at the trailer brake connection');
      await driver.getByLabel('Mileage, km').fill('120500');
      await sign(driver, 'signature-pad');
      await expectNoPageScroll(driver, width);
      await screenshot(driver, `loop-dvir-${width}`);
      await driver.getByTestId('submit-inspection').click();
      await expect(driver).toHaveURL(/\/inspections\/\d+$/);
      const failedId = Number(driver.url().split('/').pop());
      await expect(driver.getByTestId('inspection-state')).toHaveText('Defects open');
      await expect(driver.getByTestId('defect-0')).toContainText('Issue priority: High');
      await expect(driver.getByRole('img', { name: 'Signature' })).toBeVisible();

      // 2. The manager: the issue is on the issues list; a work order from it with the Due oil service.
      const manager = await open('manager');
      await manager.goto(`/issues?object=u${s.unitId}`);
      const issueLink = manager.getByRole('link', { name: BRAKES });
      await expect(issueLink).toBeVisible();
      await expectNoPageScroll(manager, width);
      await screenshot(manager, `loop-issues-${width}`);
      await issueLink.click();
      await expect(manager).toHaveURL(/\/issues\/\d+$/);
      const issueId = Number(manager.url().split('/').pop());
      await expect(manager.getByTestId('issue-priority')).toHaveText(/^high$/i);
      await expect(manager.getByTestId('issue-status')).toHaveText('Open');
      await manager.getByTestId('issue-work-order').click();
      const dialog = manager.getByTestId('wo-create');
      await expect(dialog.getByTestId(`wo-issue-${issueId}`)).toBeChecked();
      await dialog.getByTestId('wo-title').fill(`Brakes and oil ${tag}`);
      await dialog.getByTestId(`wo-service-${s.serviceId}`).check();
      await choose(manager, 'wo-assignee', 'Mike Mechanic');
      await screenshot(manager, `loop-wo-create-${width}`);
      await dialog.getByTestId('wo-create-submit').click();
      await expect(manager).toHaveURL(/\/work-orders\/\d+$/);
      const woId = Number(manager.url().split('/').pop());
      await expect(manager.getByTestId('wo-issues')).toContainText(BRAKES);
      await expect(manager.getByTestId('wo-services')).toContainText(s.oil);
      // Unlinking says what it does: the issue and the service stay, only the link goes.
      await expect(manager.getByTestId(`wo-remove-issue-${issueId}`)).toHaveText('Remove from work order');
      await expect(manager.getByTestId(`wo-remove-service-${s.serviceId}`)).toHaveText(
        'Remove from work order',
      );
      await expectNoPageScroll(manager, width);
      await screenshot(manager, `loop-wo-open-${width}`);

      // 3. The mechanic: starts it, adds the part, completes it at 120,600 km.
      const mechanic = await open('mechanic');
      await mechanic.goto('/work-orders');
      await mechanic.getByTestId(`wo-link-${woId}`).click();
      await mechanic.getByTestId('wo-action-start').click();
      await expect(mechanic.getByTestId('wo-status')).toHaveText('In progress');
      await choose(mechanic, 'wo-line-item', `${s.part} (Part)`);
      await mechanic.getByTestId('wo-line-qty').fill('1');
      await mechanic.getByTestId('wo-line-add').click();
      await expect(mechanic.getByTestId('wo-lines')).toContainText(s.part);
      // The lines do not scroll sideways: a table at desktop width, stacked cards on a phone.
      expect(await mechanic.getByTestId('wo-lines').evaluate((e) => e.tagName)).toBe(
        width < 600 ? 'DIV' : 'TABLE',
      );
      await expectNoPageScroll(mechanic, width);
      await screenshot(mechanic, `loop-wo-lines-${width}`);
      await mechanic.getByTestId('wo-action-complete').click();
      const complete = mechanic.getByTestId('wo-complete-dialog');
      await complete.getByTestId('wo-complete-mileage').fill('120600');
      await complete.getByTestId('wo-complete-submit').click();
      await expect(mechanic.getByTestId('wo-status')).toHaveText('Completed');
      await expectNoPageScroll(mechanic, width);
      await screenshot(mechanic, `loop-wo-completed-${width}`);

      // 4. The archive of the truck holds both services; the issue is resolved; the oil baseline reset.
      await manager.goto(`/unit/${s.unitId}?tab=services`);
      const archive = manager.getByTestId('object-archive');
      await expect(archive).toContainText(s.oil);
      await expect(archive).toContainText(`Brakes and oil ${tag}`);
      await expect(manager.getByTestId('object-open-empty')).toBeVisible();
      await expectNoPageScroll(manager, width);
      await screenshot(manager, `loop-archive-${width}`);
      await manager.goto(`/issues/${issueId}`);
      await expect(manager.getByTestId('issue-status')).toHaveText('Resolved');
      const { bases } = await (
        await request.get(`${s.api}/units/${s.unitId}/bases`, { headers: s.headers })
      ).json();
      expect(bases.find((b: { ivid: number }) => b.ivid === s.intervalId)).toMatchObject({ lcnm: 120_600 });

      // 5. The mechanic certifies the brake defect repaired, with a signature.
      await mechanic.goto(`/inspections/${failedId}`);
      await mechanic.getByRole('button', { name: 'Certify' }).click();
      const certify = mechanic.getByRole('dialog', { name: 'Certify' });
      await certify.getByLabel('Note').fill('Brake line coupling replaced');
      await sign(mechanic, 'certify-signature');
      await certify.getByTestId('certify-submit').click();
      await expect(certify).toBeHidden();
      await expect(mechanic.getByTestId('certification')).toContainText('Repaired: Mike Mechanic');
      await expect(mechanic.getByTestId('inspection-state')).toHaveText('Certified');

      // 6. The driver's next inspection shows the last report with the certification; he acknowledges it.
      await driver.goto('/inspections/new');
      await choose(driver, 'inspection-object', s.truck);
      const last = driver.getByTestId('last-report');
      await expect(last).toContainText(BRAKES);
      await expect(last.getByTestId('certification')).toContainText('Repaired: Mike Mechanic');
      await expect(last).toContainText('Brake line coupling replaced');
      await answerDvir(driver);
      await driver.getByLabel('Mileage, km').fill('120650');
      await sign(driver, 'signature-pad');
      await last.getByTestId('acknowledge').check();
      await expectNoPageScroll(driver, width);
      await screenshot(driver, `loop-acknowledge-${width}`);
      await driver.getByTestId('submit-inspection').click();
      await expect(driver).toHaveURL(/\/inspections\/\d+$/);
      await expect(driver.getByTestId('inspection-state')).toHaveText('No defects');
      await mechanic.reload();
      await expect(mechanic.getByTestId('acknowledgement')).toContainText('Acknowledged by Dan Driver');
    } finally {
      for (const page of pages) await page.context().close();
      const { headers, api } = s;
      const list = await request.get(`${api}/inspections?oi=${s.unitId}&ot=u`, { headers });
      for (const i of (await list.json()).inspections ?? [])
        await request.delete(`${api}/inspections/${i.id}`, { headers });
      await request.delete(`${api}/vehicle-assignments/${s.assignmentId}`, { headers });
      await request.delete(`${api}/units/${s.unitId}`, { headers });
      await request.delete(`${api}/intervals/${s.intervalId}`, { headers });
      await request.delete(`${api}/line_items/${s.partId}`, { headers });
    }
  });
}
