import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiSession, expect, login, test } from './fixtures.ts';

/**
 * Accounts and activation (spec §4): root suspends the Northwind account on /activation while
 * Northwind's user (outsider) sits on the dashboard in another browser. The server ends that user's
 * sessions and sends user event 32 (forced logout): the open page goes to the login screen at once, and
 * logging in is refused while the account is suspended. (The "Current fleet has been suspended" dialog
 * is for users outside the suspended account whose current fleet lies in it: the access list admits
 * only users of the fleet's account or those below it, so a suspension signs all of them out.) The
 * account is activated again at the end, so that the journeys after this one find the demo as it was.
 */
const SHOTS = '/tmp/shots-h3';

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Makes `fid` root's current fleet (PUT /api/user/fleet refuses the fleet that is current already). */
async function rootOnFleet(request: APIRequestContext, fid: number): Promise<void> {
  const root = await apiSession(request, 'root');
  if (root.fid === fid) return;
  const res = await request.put('/api/user/fleet', { headers: root.headers, data: { fid } });
  expect(res.status()).toBe(200);
}

interface Ids {
  northwind: number;
  northwindFleet: number;
  demoFleet: number;
}

/** The Northwind account and fleet, and the demo fleet, which root is put on (the suspension leaves it). */
async function setUp(request: APIRequestContext): Promise<Ids> {
  const { headers } = await apiSession(request, 'root');
  const { accounts } = await (await request.get('/api/admin/accounts', { headers })).json();
  const list = accounts as { id: number; n: string; fleets: { id: number }[] }[];
  const northwind = list.find((a) => a.n === 'Northwind Haulage');
  const demo = list.find((a) => a.n === 'Demo Logistics');
  if (!northwind || !demo) throw new Error('demo data missing: accounts');
  const ids = {
    northwind: northwind.id,
    northwindFleet: northwind.fleets[0]!.id,
    demoFleet: demo.fleets[0]!.id,
  };
  await rootOnFleet(request, ids.demoFleet);
  return ids;
}

/** Whatever happened, Northwind is active again and root back on the demo fleet for the journeys after. */
async function tearDown(request: APIRequestContext, ids: Ids): Promise<void> {
  const { headers } = await apiSession(request, 'root');
  const res = await request.put(`/api/admin/accounts/${ids.northwind}`, { headers, data: { s: 1 } });
  expect(res.status()).toBe(200);
  await rootOnFleet(request, ids.demoFleet);
}

test('suspending an account signs its open session out at once; activating lets it back in', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  const ids = await setUp(request);
  const context = await browser.newContext({ baseURL });
  try {
    const outsider = await context.newPage();
    await login(outsider, 'outsider');
    await expect(outsider).toHaveURL('/dashboard');
    await expect(outsider.getByTestId('fleet-name')).toHaveText('Northwind fleet');

    await login(page, 'root');
    await expect(page).toHaveURL('/activation');
    const northwind = page
      .getByRole('tree', { name: 'Accounts' })
      .getByRole('treeitem')
      .filter({ hasText: 'Northwind Haulage' });
    await northwind.getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('dialog', { name: 'Suspend account' }).getByRole('button', { name: 'OK' }).click();
    await expect(northwind).toContainText('Suspended');

    // User event 32: the open session is logged out without a reload or a click.
    await expect(outsider).toHaveURL('/login');
    await expect(outsider.getByRole('button', { name: 'Log in' })).toBeVisible();
    // While suspended the right password is refused, and the screen says why.
    await login(outsider, 'outsider');
    await expect(outsider.getByText('Your account is suspended. Contact your administrator.')).toBeVisible();
    await shot(outsider, 'suspension-login-1280');
    await outsider.setViewportSize({ width: 375, height: 700 });
    await shot(outsider, 'suspension-login-375');

    // Root's own session keeps going: no fleet dialog, its current fleet is another account's.
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await northwind.getByRole('button', { name: 'Activate' }).click();
    await expect(northwind).toContainText('Active');
    await login(outsider, 'outsider');
    await expect(outsider).toHaveURL('/dashboard');
  } finally {
    await context.close();
    await tearDown(request, ids);
  }
});

test('a super user whose current fleet is suspended keeps it: no fleet dialog, the list marks it', async ({
  page,
  request,
}) => {
  const ids = await setUp(request);
  await rootOnFleet(request, ids.northwindFleet);
  // The fleet delete event on the socket, and the fleet lists read after it (the session checks there
  // whether the current fleet is really gone).
  let deleteSeen = false;
  let fleetReadsAfter = 0;
  page.on('websocket', (socket) =>
    socket.on('framereceived', (frame) => {
      const event = JSON.parse(String(frame.payload)) as { t?: string; s?: string; fid?: number };
      if (event.t === 'd' && event.s === 'fleet' && event.fid === ids.northwindFleet) deleteSeen = true;
    }),
  );
  page.on('requestfinished', (req) => {
    if (deleteSeen && new URL(req.url()).pathname === '/api/fleets') fleetReadsAfter++;
  });
  try {
    await login(page, 'root');
    await expect(page).toHaveURL('/activation');
    await expect(page.getByTestId('fleet-switcher').locator('option:checked')).toHaveText('Northwind fleet');
    const northwind = page
      .getByRole('tree', { name: 'Accounts' })
      .getByRole('treeitem')
      .filter({ hasText: 'Northwind Haulage' });
    await northwind.getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('dialog', { name: 'Suspend account' }).getByRole('button', { name: 'OK' }).click();
    await expect(northwind).toContainText('Suspended');

    // The suspension's fleet delete event reaches this session (spec §4), but the super user still
    // administers the fleet (server access.ts): the session reads its fleets again, and no "Current
    // fleet has been suspended" dialog blocks the screen.
    await expect.poll(() => fleetReadsAfter).toBeGreaterThan(0);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Root sees its fleets as admin only: Administration is in the top menu (spec §2).
    await page.getByRole('link', { name: 'Administration' }).click();
    const row = page.getByRole('list', { name: 'Fleets' }).getByRole('listitem', { name: 'Northwind fleet' });
    await expect(row).toContainText('Suspended');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await shot(page, 'suspension-admin-list-1280');
    await row.getByRole('link', { name: 'Northwind fleet' }).click();
    await expect(page.getByTestId('fleet-admin-title')).toHaveText('Northwind fleet');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  } finally {
    await tearDown(request, ids);
  }
});
