import { apiSession, cpuThrottle, expect, expectNoPageScroll, login, screenshot, test } from './fixtures.ts';

/** A 1×1 PNG, as a phone's camera picture stands in for. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Issues (docs/product.md "Issues"): the viewer finds a defect and reports it with a photo on the unit's
 * "Issues" tab; the manager sees it in /issues (filters in the URL) and on the tab, opens it and closes
 * it as not a defect with a note; on a phone (375 px) the list is cards and the page has no sideways
 * scroll.
 */
test('report an issue with a photo, find it in /issues and on the unit, close it as not a defect', async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const uid = `iss-${Date.now().toString(36)}`;
  const created = await request.post(`/api/fleets/${fid}/units`, {
    headers,
    data: { nm: `Issue truck ${uid}`, uid, ut: null },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const unitId = (await created.json()).id as number;
  const title = `Brake squeal ${uid}`;
  const viewerContext = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  const managerContext = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  try {
    // The viewer reports it on the unit's tab, with a photo.
    const viewer = await viewerContext.newPage();
    await login(viewer, 'viewer');
    await expect(viewer).toHaveURL('/dashboard');
    await viewer.goto(`/unit/${unitId}?tab=issues`);
    await expect(viewer.getByRole('tab', { name: 'Issues' })).toHaveAttribute('aria-selected', 'true');
    await viewer.getByTestId('object-issue-report').click();
    const dialog = viewer.getByTestId('issue-report-dialog');
    await dialog.getByTestId('issue-report-submit').click();
    await expect(dialog).toContainText('Enter what is wrong');
    await dialog.getByTestId('issue-title').fill(title);
    await dialog.getByTestId('issue-description').fill('Front left wheel squeals when braking');
    await dialog.getByTestId('issue-priority').getByText('high', { exact: true }).click();
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: 'wheel.png', mimeType: 'image/png', buffer: PNG });
    await expect(dialog.getByTestId('issue-photos-chosen')).toHaveText('wheel.png');
    await screenshot(viewer, 'issues-report-1280');
    await dialog.getByTestId('issue-report-submit').click();
    await expect(dialog).toBeHidden();
    const row = viewer.getByTestId('object-issues').getByRole('row').filter({ hasText: title });
    await expect(row).toContainText('high');
    await expect(row).toContainText('Open');
    await expect(row).toContainText('Vera Viewer');
    await expect(row.getByRole('cell').last()).toHaveText('1');

    // The manager finds it in /issues, filtered by priority, and on the unit's tab.
    const manager = await managerContext.newPage();
    await login(manager, 'manager');
    await expect(manager).toHaveURL('/dashboard');
    await manager.getByRole('link', { name: 'Issues' }).first().click();
    await expect(manager).toHaveURL('/issues');
    const list = manager.getByTestId('issues-table');
    await expect(list.getByRole('row').filter({ hasText: title })).toContainText(`Issue truck ${uid}`);
    await manager.goto('/issues?priority=critical');
    await expect(list.getByRole('row').filter({ hasText: title })).toHaveCount(0);
    await manager.goto('/issues?priority=high');
    await expect(list.getByRole('row').filter({ hasText: title })).toHaveCount(1);
    await screenshot(manager, 'issues-list-1280');
    await manager.goto(`/unit/${unitId}?tab=issues`);
    await manager.getByTestId('object-issues').getByRole('link', { name: title }).click();

    // Its page: what was reported, the photo; closed as not a defect with a note.
    await expect(manager.getByTestId('issue-heading')).toHaveText(title);
    await expect(manager.getByTestId('issue-description')).toHaveText(
      'Front left wheel squeals when braking',
    );
    await expect(manager.getByTestId('issue-photos-table')).toContainText('wheel.png');
    await screenshot(manager, 'issue-page-1280');
    await manager.getByTestId('issue-close').click();
    const note = manager.getByTestId('issue-note-dialog');
    await note.getByTestId('issue-note-submit').click();
    await expect(note).toContainText('Enter a note');
    await note.getByTestId('issue-note').fill('New pads bedding in; normal for 200 km');
    await note.getByTestId('issue-note-submit').click();
    await expect(note).toBeHidden();
    await expect(manager.getByTestId('issue-status')).toHaveText('Not a defect');
    await expect(manager.getByTestId('issue-note-shown')).toContainText('New pads bedding in');
    await expect(manager.getByTestId('issue-reopen')).toBeVisible();

    // The viewer's tab follows live; the active list no longer holds it.
    await expect(row).toContainText('Not a defect');
    await expect(viewer.getByTestId('issue-close')).toHaveCount(0);

    // On a phone: the closed issues as cards, the issue page without sideways scroll.
    await manager.setViewportSize({ width: 375, height: 800 });
    await manager.goto('/issues?status=closed');
    await expect(manager.getByText(title)).toBeVisible();
    await expectNoPageScroll(manager);
    await screenshot(manager, 'issues-list-375');
    await manager.getByRole('link', { name: title }).click();
    await expect(manager).toHaveURL(/\/issues\/\d+$/);
    await expect(manager.getByTestId('issue-status')).toHaveText('Not a defect');
    await expectNoPageScroll(manager);
    await screenshot(manager, 'issue-page-375');
    await manager.goto('/issues');
    await expect(manager.getByRole('heading', { name: 'Issues' })).toBeVisible();
    await expect(manager.getByText(title)).toHaveCount(0);
  } finally {
    await viewerContext.close();
    await managerContext.close();
    await request.delete(`/api/fleets/${fid}/units/${unitId}`, { headers });
  }
});
