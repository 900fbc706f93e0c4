import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { apiSession, cpuThrottle, expect, expectNoPageScroll, screenshot, test } from './fixtures.ts';
import { cleanUp, createDue, demoUnits } from './services-support.ts';

/**
 * The manager's second week in a German browser (docs/product.md "Notifications", "Imports"): a
 * brand-new user of the busy demo fleet opens an empty bell (none of the fleet's older notifications,
 * no "99+") that hears what happens after they joined, and imports a services CSV whose German column
 * titles ("Fahrzeug", "Wartung", "Datum", "Kilometerstand", "Kosten") are guessed as the right fields.
 * At 1280 and 375 px; the texts come from the German locale file.
 */

const LOCALES = path.resolve(import.meta.dirname, '../../packages/core/locales');
const de = JSON.parse(fs.readFileSync(path.join(LOCALES, 'de.json'), 'utf8')) as Record<string, unknown>;
function t(key: string): string {
  const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], de);
  if (typeof found !== 'string') throw new Error(`no text ${key} in de`);
  return found;
}

const PASSWORD = 'german-week-password-1';

/** A new user of the demo fleet's account, German, with every right on the demo fleet. */
async function newGermanUser(request: APIRequestContext, nm: string) {
  const admin = await apiSession(request, 'admin');
  const { fid, headers } = admin;
  const fleets: { id: number; aid: number }[] = (await (await request.get('/api/fleets', { headers })).json())
    .fleets;
  const aid = fleets.find((f) => f.id === fid)!.aid;
  // The list as read, the members' "assigned units only" flag included (a PUT without it clears it).
  const members: { id: number; acl: number; ao: 0 | 1 }[] = (
    await (await request.get(`/api/fleets/${fid}/users`, { headers })).json()
  ).users.map((u: { id: number; acl: number; ao: 0 | 1 }) => ({ id: u.id, acl: u.acl, ao: u.ao }));
  const made = await request.post(`/api/admin/accounts/${aid}/users`, {
    headers,
    data: { nm, lang: 'de', password: PASSWORD },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const id = (await made.json()).id as number;
  const acl = 1 | 2 | 4 | 16 | 32 | 64 | 128 | 256 | 512;
  const set = await request.put(`/api/fleets/${fid}/users`, {
    headers,
    data: { users: [...members, { id, acl }] },
  });
  expect(set.ok(), await set.text()).toBe(true);
  return {
    fid,
    headers,
    tearDown: async () => {
      await request.put(`/api/fleets/${fid}/users`, { headers, data: { users: members } });
      await request.delete(`/api/admin/users/${id}`, { headers });
    },
  };
}

test('German: a new user’s bell starts empty; a services CSV with German titles is guessed', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000 * cpuThrottle());
  const stamp = Date.now().toString(36);
  const nm = `neu-${stamp}`;
  const user = await newGermanUser(request, nm);
  const { fid, headers } = user;
  const mechanic = await apiSession(request, 'mechanic');
  const unit = (await demoUnits(request, fid, headers))('demo-005');
  const ids: number[] = [];
  const context = await browser.newContext({
    baseURL,
    locale: 'de-DE',
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  const shot = (name: string, width: number) => screenshot(page, `german-week-${name}-de-${width}`);
  try {
    // The demo fleet has many notifications from before this user existed: none of them are theirs.
    await page.goto('/login');
    await page.getByLabel(t('login.username')).fill(nm);
    await page.getByLabel(t('login.password')).and(page.locator('input')).fill(PASSWORD);
    await page.getByRole('button', { name: t('login.submit') }).click();
    await expect(page).toHaveURL('/dashboard');
    const bell = page.getByTestId('bell');
    await expect(bell).toHaveAttribute('data-unread', '0');
    await expect(page.getByTestId('bell-count')).not.toContainText('99+');
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      if ((await bell.getAttribute('aria-expanded')) !== 'true') await bell.click();
      const list = page.getByTestId('bell-list');
      await expect(list).toContainText(t('notifications.empty'));
      await expect(list.getByTestId('bell-item')).toHaveCount(0);
      if (width === 375) await expectNoPageScroll(page);
      await shot('bell-empty', width);
      await bell.click();
      await expect(bell).toHaveAttribute('aria-expanded', 'false');
    }
    // What happens after they joined is theirs: one unread.
    ids.push(await createDue(request, fid, mechanic.headers, unit.id, `Neu ${stamp}`));
    await expect(bell).toHaveAttribute('data-unread', '1', { timeout: 20_000 });

    // A services CSV titled as a German spreadsheet or a Fleetkeep report in German names its columns.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/services');
    const csv = [
      'Fahrzeug;Wartung;Datum;Kilometerstand;Kosten',
      `${unit.nm};Import ${stamp} Öl;2025-03-01;120000;89.50`,
      `${unit.nm};Import ${stamp} Reifen;2025-03-02;120500;410`,
    ].join('\r\n');
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('import-open').click();
    await (await chooser).setFiles({ name: 'wartungen.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page).toHaveURL('/services/import');
    const mapping = page.getByTestId('import-mapping');
    await expect(mapping.getByRole('combobox', { name: t('imports.field.unit'), exact: true })).toHaveValue(
      '0',
    );
    await expect(mapping.getByRole('combobox', { name: t('imports.field.name'), exact: true })).toHaveValue(
      '1',
    );
    await expect(
      mapping.getByRole('combobox', { name: t('imports.field.start_date'), exact: true }),
    ).toHaveValue('2');
    await expect(
      mapping.getByRole('combobox', { name: t('imports.field.mileage'), exact: true }),
    ).toHaveValue('3');
    await expect(
      mapping.getByRole('combobox', { name: t('imports.field.total_cost'), exact: true }),
    ).toHaveValue('4');
    await page.getByLabel(t('imports.dateFormat')).selectOption('YYYY-MM-DD');
    await shot('import-guess', 1280);
    await page.setViewportSize({ width: 375, height: 900 });
    await expectNoPageScroll(page);
    await shot('import-guess', 375);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: t('imports.preview') }).click();
    await expect(page.getByTestId('import-row-count')).toHaveText(t('imports.rows').replace('{{n}}', '2'));
    await expect(page.getByTestId('import-bad-count')).toHaveText(
      t('imports.problems').replace('{{n}}', '0'),
    );
    await page.getByTestId('import-run').click();
    await expect(page.getByTestId('import-result')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('import-created')).toContainText('2');

    // The imported services carry the guessed columns.
    const manager = await apiSession(request, 'manager');
    const listed = await request.get(`/api/fleets/${fid}/services`, { headers: manager.headers });
    expect(listed.ok(), await listed.text()).toBe(true);
    const all = (await listed.json()).services as {
      id: number;
      n: string;
      cnm: number | null;
    }[];
    const mine = all.filter((s) => s.n.startsWith(`Import ${stamp}`));
    ids.push(...mine.map((s) => s.id));
    expect(mine.map((s) => s.n).sort()).toEqual([`Import ${stamp} Reifen`, `Import ${stamp} Öl`]);
  } finally {
    await context.close();
    await cleanUp(request, fid, (await apiSession(request, 'manager')).headers, ids, []);
    await user.tearDown();
  }
});
