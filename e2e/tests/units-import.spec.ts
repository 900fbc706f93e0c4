import type { APIRequestContext, Page } from '@playwright/test';
import { apiSession, expect, expectNoPageScroll, login, screenshot, test } from './fixtures.ts';

/**
 * The units import (docs/product.md "The vehicle profile"), at 1280 and at 375 px: the Import button of
 * the service objects list, a Fleetio-style CSV whose columns are guessed, the preview with a bad model
 * year fixed inline and a VIN whose check digit is only a warning, the import, and the units found on
 * /items by their plate. Each run removes the units it made.
 */

const WRONG_CHECK_VIN = '1M8GDM9A1KP042788';

function csvOf(tag: string): string {
  return [
    'Name,Year,Make,Model,VIN,License Plate,Type,Labels,Current Meter Value,Fuel Type',
    `${tag} van,2019,Ford,Transit,1M8GDM9AXKP042788,${tag}-P1,Van,"north; rental",12000,Gasoline`,
    `${tag} truck,1800,MAN,TGX,${WRONG_CHECK_VIN},${tag}-P2,Truck,north,,Diesel`,
  ].join('\n');
}

async function removeUnits(request: APIRequestContext, tag: string) {
  const { fid, headers } = await apiSession(request, 'admin');
  const units = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units as {
    id: number;
    nm: string;
  }[];
  for (const u of units.filter((x) => x.nm.startsWith(tag)))
    await request.delete(`/api/fleets/${fid}/units/${u.id}?archive=delete`, { headers });
}

async function importUnits(page: Page, tag: string, shot: string) {
  await page.goto('/items');
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('import-open').click();
  await (await chooser).setFiles({
    name: 'vehicles.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csvOf(tag)),
  });
  await expect(page).toHaveURL('/units/import');
  await expect(page.getByRole('heading', { name: 'Import units' })).toBeVisible();
  const mapping = page.getByTestId('import-mapping');
  // Fleetio's titles: "License Plate" is the plate, "Labels" the tags, "Year" the model year.
  await expect(mapping.getByLabel('Licence plate')).toHaveValue('5');
  await expect(mapping.getByLabel('Tags (separated by , or ;)')).toHaveValue('7');
  await expect(mapping.getByLabel('Model year')).toHaveValue('1');
  await screenshot(page, `${shot}-mapping`);
  await page.getByRole('button', { name: 'Preview' }).click();

  await expect(page.getByTestId('import-row-count')).toHaveText('Rows: 2');
  await expect(page.getByTestId('import-bad-count')).toHaveText('Rows with problems: 1');
  await expect(page.getByTestId('import-warning-count')).toHaveText('Warnings (imported as they are): 1');
  const vin = page.getByTestId('cell-1-vin');
  await expect(vin).toHaveAttribute('data-warning', 'true');
  await expect(vin).toHaveAttribute('title', /check digit \(9th character\) does not match/);
  const year = page.getByTestId('cell-1-model_year');
  await expect(year).toHaveAttribute('title', 'Model year must be 1886–2100');
  await screenshot(page, `${shot}-preview`);
  await year.fill('2021');
  await expect(page.getByTestId('import-bad-count')).toHaveText('Rows with problems: 0');
  await page.getByTestId('import-run').click();
  await expect(page.getByTestId('import-created')).toHaveText('Created: 2');

  await page.getByTestId('import-open-list').click();
  await expect(page).toHaveURL('/items');
  // The search finds a unit by its plate, with or without the dash.
  const table = page.getByTestId('objects');
  await expect(table.getByText(`${tag} van`)).toBeVisible();
  await page.goto(`/items?q=${tag.toLowerCase()}p2`);
  await expect(table.getByText(`${tag} truck`)).toBeVisible();
  await expect(table.getByText(`${tag} van`)).toHaveCount(0);
  await screenshot(page, `${shot}-list`);
}

test('units: a Fleetio CSV imported from the service objects list at 1280 px', async ({ page, request }) => {
  const tag = `ImpU${Date.now() % 100000}`;
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await importUnits(page, tag, 'units-import-1280');
    await expect(page.getByTestId('objects').getByText(`${tag}-P2`)).toBeVisible();
  } finally {
    await removeUnits(request, tag);
  }
});

test('units: the same import at 375 px, nothing sticking out sideways', async ({ page, request }) => {
  const tag = `ImpV${Date.now() % 100000}`;
  try {
    await page.setViewportSize({ width: 375, height: 800 });
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await importUnits(page, tag, 'units-import-375');
    await expectNoPageScroll(page);
  } finally {
    await removeUnits(request, tag);
  }
});

test('units: the Import button is only for those who may create units', async ({ page }) => {
  await login(page, 'mechanic');
  await expect(page).toHaveURL('/dashboard');
  await page.goto('/items');
  await expect(page.getByTestId('objects')).toBeVisible();
  await expect(page.getByTestId('import-open')).toHaveCount(0);
});
