import type { APIRequestContext, Page } from '@playwright/test';
import { apiSession, expect, expectNoPageScroll, login, screenshot, test } from './fixtures.ts';

/**
 * The issues import (docs/product.md "Issues"), at 1280 and at 375 px: the Import button of /issues, a
 * Fleetio-style CSV whose columns are guessed, the preview with an unknown priority fixed inline, the
 * import, and the issues on the list (the resolved one under "All"). Each run removes the issues it made.
 */

async function truckName(request: APIRequestContext): Promise<string> {
  const { fid, headers } = await apiSession(request, 'manager');
  const { units } = await (await request.get(`/api/fleets/${fid}/units`, { headers })).json();
  return units[0].nm as string;
}

async function removeIssues(request: APIRequestContext, tag: string) {
  const { fid, headers } = await apiSession(request, 'manager');
  const { issues } = await (await request.get(`/api/fleets/${fid}/issues`, { headers })).json();
  for (const i of (issues as { id: number; title: string }[]).filter((x) => x.title.startsWith(tag)))
    await request.delete(`/api/fleets/${fid}/issues/${i.id}`, { headers });
}

async function importIssues(page: Page, tag: string, truck: string, shot: string) {
  await page.goto('/issues');
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('import-open').click();
  await (await chooser).setFiles({
    name: 'issues.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      [
        'Vehicle,Summary,Description,Priority,Reported date,Status',
        `${truck},${tag} mirror cracked,Left side,high,2026-01-02,open`,
        `${truck},${tag} horn weak,,urgent,2026-01-03,resolved`,
      ].join('\n'),
    ),
  });
  await expect(page).toHaveURL('/issues/import');
  await expect(page.getByRole('heading', { name: 'Import issues' })).toBeVisible();
  const mapping = page.getByTestId('import-mapping');
  // Fleetio's titles: "Vehicle" is the unit or trailer, "Summary" the title.
  await expect(mapping.getByLabel('Unit or trailer')).toHaveValue('0');
  await expect(mapping.getByLabel('Title')).toHaveValue('1');
  await screenshot(page, `${shot}-mapping`);
  await page.getByRole('button', { name: 'Preview' }).click();

  await expect(page.getByTestId('import-row-count')).toHaveText('Rows: 2');
  await expect(page.getByTestId('import-bad-count')).toHaveText('Rows with problems: 1');
  const priority = page.getByTestId('cell-1-priority');
  await expect(priority).toHaveAttribute('title', 'Priority must be low, medium, high or critical');
  await screenshot(page, `${shot}-preview`);
  await priority.fill('low');
  await expect(page.getByTestId('import-bad-count')).toHaveText('Rows with problems: 0');
  await page.getByTestId('import-run').click();
  await expect(page.getByTestId('import-created')).toHaveText('Created: 2');

  await page.getByTestId('import-open-list').click();
  await expect(page).toHaveURL('/issues');
  const table = page.getByTestId('issues-table');
  await expect(table.getByText(`${tag} mirror cracked`)).toBeVisible();
  // The resolved one is not among the active issues; "All" shows it.
  await expect(table.getByText(`${tag} horn weak`)).toHaveCount(0);
  await page.goto('/issues?status=all');
  await expect(table.getByText(`${tag} horn weak`)).toBeVisible();
  await screenshot(page, `${shot}-list`);
}

for (const width of [1280, 375]) {
  test(`issues: a Fleetio CSV imported from the issues list at ${width} px`, async ({ page, request }) => {
    const tag = `ImpI${width}-${Date.now() % 100000}`;
    const truck = await truckName(request);
    try {
      await page.setViewportSize({ width, height: 800 });
      await login(page, 'manager');
      await expect(page).toHaveURL('/dashboard');
      await importIssues(page, tag, truck, `issues-import-${width}`);
      await expectNoPageScroll(page, width);
    } finally {
      await removeIssues(request, tag);
    }
  });
}

test('issues: the Import button is only for those who manage issues', async ({ page }) => {
  await login(page, 'viewer');
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.goto('/issues');
  await expect(page.getByTestId('issues-table')).toBeVisible();
  await expect(page.getByTestId('import-open')).toHaveCount(0);
});
