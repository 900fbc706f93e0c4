import type { APIRequestContext, Page, Request } from '@playwright/test';
import { apiSession, cpuThrottle, expect, screenshotsAtBothWidths, test } from './fixtures.ts';

/**
 * The vehicle profile (docs/product.md "The vehicle profile"), in English and in German at 1280 and
 * 375 px: a unit's profile filled with a photo, the VIN's check digit read as it is typed (a warning,
 * then confirmed), the tag filter and the search by plate on /items, and the fuel editor flagging a
 * filling larger than the tank. The journey makes its own unit and users (one per language, so no demo
 * user's language changes under another journey) and removes them at the end.
 */

const PASSWORD = 'E2e-vehicle-pass-9';
/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const WORDS = {
  en: {
    checkWarning: 'The check digit (9th character) does not match',
    checkOk: 'Check digit correct.',
    chars: 'Only digits and capital letters, except I, O and Q.',
    overTank: 'Larger than the tank (60 L)',
  },
  de: {
    checkWarning: 'Die Prüfziffer (9. Zeichen) stimmt nicht',
    checkOk: 'Prüfziffer stimmt.',
    chars: 'Nur Ziffern und Großbuchstaben außer I, O und Q.',
    overTank: 'Mehr als der Tank fasst (60 l)',
  },
} as const;
type Lang = keyof typeof WORDS;

interface Setup {
  fid: number;
  headers: { Authorization: string };
  unitId: number;
  unitName: string;
  users: { id: number; nm: string; lang: Lang }[];
  members: { id: number; acl: number; ao: 0 | 1 }[];
}

async function setUp(request: APIRequestContext, stamp: string): Promise<Setup> {
  const admin = await apiSession(request, 'admin');
  const { fid, headers } = admin;
  const fleets: { id: number; aid: number }[] = (await (await request.get('/api/fleets', { headers })).json())
    .fleets;
  const aid = fleets.find((f) => f.id === fid)!.aid;
  const unitName = `E2E vehicle ${stamp}`;
  const made = await request.post(`/api/fleets/${fid}/units`, {
    headers,
    data: { nm: unitName, uid: `e2e-veh-${stamp}`, ut: null },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const unitId = (await made.json()).id as number;
  // The list as read, the members' "assigned units only" flag included (a PUT without it clears it).
  const members: { id: number; acl: number; ao: 0 | 1 }[] = (
    await (await request.get(`/api/fleets/${fid}/users`, { headers })).json()
  ).users.map((u: { id: number; acl: number; ao: 0 | 1 }) => ({ id: u.id, acl: u.acl, ao: u.ao }));
  const users: Setup['users'] = [];
  for (const lang of ['en', 'de'] as const) {
    const nm = `e2e-veh-${lang}-${stamp}`;
    const res = await request.post(`/api/admin/accounts/${aid}/users`, {
      headers,
      data: { nm, lang, password: PASSWORD },
    });
    expect(res.ok(), await res.text()).toBe(true);
    users.push({ id: (await res.json()).id, nm, lang });
  }
  // Every right on the demo fleet (ACL_ALL of core constants).
  const acl = 1 | 2 | 4 | 16 | 32 | 64 | 128 | 256 | 512;
  const set = await request.put(`/api/fleets/${fid}/users`, {
    headers,
    data: { users: [...members, ...users.map((u) => ({ id: u.id, acl }))] },
  });
  expect(set.ok(), await set.text()).toBe(true);
  return { fid, headers, unitId, unitName, users, members };
}

async function tearDown(request: APIRequestContext, s: Setup) {
  await request.put(`/api/fleets/${s.fid}/users`, { headers: s.headers, data: { users: s.members } });
  for (const u of s.users) await request.delete(`/api/admin/users/${u.id}`, { headers: s.headers });
  await request.delete(`/api/fleets/${s.fid}/units/${s.unitId}?archive=delete`, { headers: s.headers });
}

/** The unit's profile cleared and its photo removed, so each language starts from the same page. */
async function resetProfile(request: APIRequestContext, s: Setup) {
  const unit = (
    await (await request.get(`/api/fleets/${s.fid}/units`, { headers: s.headers })).json()
  ).units.find((u: { id: number }) => u.id === s.unitId);
  if (unit.ph !== null)
    await request.delete(`/api/fleets/${s.fid}/units/${s.unitId}/attachments/${unit.ph}`, {
      headers: s.headers,
    });
  const res = await request.put(`/api/fleets/${s.fid}/units/${s.unitId}`, {
    headers: s.headers,
    data: { vp: { vin: '', mk: '', md: '', yr: null, pl: '', ft: '', tc: null, tg: [], nt: '' } },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

async function signIn(page: Page, nm: string) {
  await page.goto('/login');
  await page.getByLabel(/User name|Benutzername/).fill(nm);
  await page
    .getByLabel(/Password|Passwort/)
    .and(page.locator('input'))
    .fill(PASSWORD);
  await page.locator('button[type=submit]').click();
  await page.waitForURL((url) => !url.pathname.includes('/login'));
}

async function journey(page: Page, request: APIRequestContext, s: Setup, lang: Lang, stamp: string) {
  const words = WORDS[lang];
  const user = s.users.find((u) => u.lang === lang)!;
  const plate = `E2E-${lang.toUpperCase()} ${stamp.slice(-4).toUpperCase()}`;
  const tag = `e2e-${lang}-${stamp}`;
  await resetProfile(request, s);
  await signIn(page, user.nm);
  await page.goto(`/unit/${s.unitId}?tab=profile`);
  const section = page.getByTestId('vehicle-section');
  await expect(section).toBeVisible();

  // The VIN as it is typed: bad characters refuse, a wrong check digit warns, the right one confirms.
  const vin = page.getByTestId('vehicle-vin');
  const check = page.getByTestId('vehicle-vin-check');
  await vin.fill('1M8GDM9AXKP04278O');
  await expect(check).toHaveText(words.chars);
  await vin.fill('1M8GDM9A1KP042788');
  await expect(check).toContainText(words.checkWarning);
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshotsAtBothWidths(page, `vehicle-vin-warning-${lang}`);
  await vin.fill('1m8gdm9axkp042788');
  await expect(vin).toHaveValue('1M8GDM9AXKP042788');
  await expect(check).toHaveText(words.checkOk);

  await page.getByTestId('vehicle-plate').fill(plate);
  await page.getByTestId('vehicle-make').fill('Mercedes-Benz');
  await page.getByTestId('vehicle-model').fill('Sprinter 316');
  await page.getByTestId('vehicle-year').fill('2019');
  await page.getByTestId('vehicle-tank').fill('60');
  const tags = page.getByTestId('vehicle-tags');
  await tags.fill(tag);
  await tags.press('Enter');
  await page.getByTestId('vehicle-notes').fill('E2E');
  await page.getByTestId('vehicle-save').click();
  await expect(page.getByTestId('vehicle-save')).toBeDisabled();
  await expect
    .poll(async () => {
      const units = (await (await request.get(`/api/fleets/${s.fid}/units`, { headers: s.headers })).json())
        .units;
      return units.find((u: { id: number }) => u.id === s.unitId).vp;
    })
    .toMatchObject({
      vin: '1M8GDM9AXKP042788',
      pl: plate,
      mk: 'Mercedes-Benz',
      yr: 2019,
      tc: 60,
      tu: 1,
      tg: [tag],
    });

  // The photo: shown on the profile once uploaded.
  await section
    .locator('input[type=file]')
    .setInputFiles({ name: 'van.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByTestId('vehicle-photo-image')).toBeVisible();
  await expect(page.getByTestId('vehicle-photo-remove')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await screenshotsAtBothWidths(page, `vehicle-profile-${lang}`);

  // Replace is one request (no delete first); an upload that fails on the way keeps the photo.
  const photoOf = async () =>
    (
      (await (await request.get(`/api/fleets/${s.fid}/units`, { headers: s.headers })).json()).units as {
        id: number;
        ph: number | null;
      }[]
    ).find((u) => u.id === s.unitId)!.ph;
  const first = await photoOf();
  expect(first).not.toBeNull();
  const photoCalls: string[] = [];
  const watch = (req: Request) => {
    if (req.url().includes(`/units/${s.unitId}/attachments`)) photoCalls.push(req.method());
  };
  page.on('request', watch);
  await page.route(`**/units/${s.unitId}/attachments`, (route) => route.abort('connectionreset'));
  await section
    .locator('input[type=file]')
    .setInputFiles({ name: 'lost.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByTestId('vehicle-photo').getByRole('alert')).toBeVisible();
  await page.unroute(`**/units/${s.unitId}/attachments`);
  expect(await photoOf()).toBe(first);
  await expect(page.getByTestId('vehicle-photo-image')).toBeVisible();
  await section
    .locator('input[type=file]')
    .setInputFiles({ name: 'van-new.png', mimeType: 'image/png', buffer: PNG });
  await expect.poll(photoOf).not.toBe(first);
  await expect(page.getByTestId('vehicle-photo-image')).toBeVisible();
  page.off('request', watch);
  expect(photoCalls.filter((m) => m !== 'GET')).toEqual(['POST', 'POST']);

  // /items: the tag filter lists this unit alone; the search finds it by plate without dash and space.
  await page.goto(`/items?tag=${encodeURIComponent(tag)}`);
  const table = page.getByTestId('objects');
  await expect(table.getByRole('link', { name: s.unitName })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Volvo FH16 #1' })).toHaveCount(0);
  await screenshotsAtBothWidths(page, `vehicle-items-tag-${lang}`);
  await page.goto(`/items?q=${encodeURIComponent(plate.replace(/[-\s]/g, '').toLowerCase())}`);
  await expect(table.getByRole('link', { name: s.unitName })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Volvo FH16 #1' })).toHaveCount(0);
  await page.goto(`/items?q=KP042788`);
  await expect(table.getByRole('link', { name: s.unitName })).toBeVisible();
  await screenshotsAtBothWidths(page, `vehicle-items-search-${lang}`);

  // The fuel editor: 80 litres into a 60 litre tank is flagged as it is typed, 50 is not.
  await page.goto(`/fuelfilling/new?unit=${s.unitId}`);
  const volume = page.getByTestId('fuel-volume');
  await volume.fill('50');
  await expect(page.getByTestId('fuel-over-tank')).toHaveCount(0);
  await volume.fill('80');
  await expect(page.getByTestId('fuel-over-tank')).toContainText(words.overTank);
  await screenshotsAtBothWidths(page, `vehicle-fuel-over-tank-${lang}`);
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
}

test('the vehicle profile in English and German: photo, VIN check, tag filter, plate search, tank', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000 * cpuThrottle());
  const stamp = Date.now().toString(36);
  const s = await setUp(request, stamp);
  try {
    await journey(page, request, s, 'en', stamp);
    await journey(page, request, s, 'de', stamp);
  } finally {
    await tearDown(request, s);
  }
});
