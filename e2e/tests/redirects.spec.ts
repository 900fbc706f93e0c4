import type { APIRequestContext } from '@playwright/test';
import { apiSession, cpuThrottle, type DemoUser, expect, login, navigateInApp, test } from './fixtures.ts';

/**
 * Spec §2, every route's guard for every demo user, in the browser. The expected landings are written
 * out by hand from the spec's table (not computed with core/guards.ts, which the unit tests cover), so
 * that this sweep checks the shipped router against the contract:
 *   root      super user; fleets seen as admin only
 *   admin     account admin; admin-only membership of the demo fleet
 *   manager   every right in the demo fleet (admin bit included)
 *   mechanic  viewInterval | viewService | manageService
 *   viewer    viewInterval | viewService
 *   outsider  every right, in another account's fleet only
 */

interface Ids {
  demoFleet: number;
  otherFleet: number;
  unit: number;
  driver: number;
  trailer: number;
}

async function demoIds(request: APIRequestContext): Promise<Ids> {
  const headers = { Authorization: `SSID ${(await apiSession(request, 'manager')).session}` };
  const fleets = (await (await request.get('/api/fleets', { headers })).json()).fleets as {
    id: number;
    n: string;
  }[];
  const demoFleet = fleets[0]!.id;
  const otherHeaders = { Authorization: `SSID ${(await apiSession(request, 'outsider')).session}` };
  const other = (await (await request.get('/api/fleets', { headers: otherHeaders })).json()).fleets as {
    id: number;
  }[];
  const first = async (kind: 'units' | 'drivers' | 'trailers') => {
    const body = await (await request.get(`/api/fleets/${demoFleet}/${kind}`, { headers })).json();
    return (body[kind] as { id: number }[])[0]!.id;
  };
  return {
    demoFleet,
    otherFleet: other[0]!.id,
    unit: await first('units'),
    driver: await first('drivers'),
    trailer: await first('trailers'),
  };
}

/** [route, where each user ends up]; '=' means the route opens as asked. */
type Expect = Partial<Record<DemoUser, string>>;

function table(ids: Ids): [string, Expect][] {
  const d = ids.demoFleet;
  const o = ids.otherFleet;
  const ops = { root: '/activation', admin: '/activation' };
  const open = { manager: '=', mechanic: '=', viewer: '=', outsider: '=' };
  return [
    [
      '/',
      { ...ops, manager: '/dashboard', mechanic: '/dashboard', viewer: '/dashboard', outsider: '/dashboard' },
    ],
    [
      '/activation',
      { root: '=', admin: '=', manager: '/dashboard', viewer: '/dashboard', outsider: '/dashboard' },
    ],
    [
      '/admin',
      {
        root: '=',
        admin: `/fleet/${d}`,
        manager: `/fleet/${d}`,
        mechanic: '/dashboard',
        viewer: '/dashboard',
        outsider: `/fleet/${o}`,
      },
    ],
    [
      `/fleet/${d}`,
      {
        root: '=',
        admin: '=',
        manager: '=',
        mechanic: '/dashboard',
        viewer: '/dashboard',
        outsider: `/fleet/${o}`,
      },
    ],
    [
      `/migration/${d}`,
      {
        root: '=',
        admin: '=',
        manager: '=',
        mechanic: '/dashboard',
        viewer: '/dashboard',
        outsider: `/fleet/${o}`,
      },
    ],
    ['/dashboard', { ...ops, ...open }],
    ['/items', { ...ops, ...open }],
    [`/unit/${ids.unit}`, { ...ops, manager: '=', mechanic: '=', viewer: '=', outsider: '/items' }],
    [`/driver/${ids.driver}`, { ...ops, manager: '=', viewer: '=', outsider: '/items' }],
    [`/trailer/${ids.trailer}`, { ...ops, manager: '=', viewer: '=', outsider: '/items' }],
    ['/intervals', { ...ops, ...open }],
    ['/intervals/import', { ...ops, manager: '/dashboard', viewer: '/dashboard' }],
    ['/interval/new', { ...ops, manager: '=', mechanic: '/dashboard', viewer: '/dashboard', outsider: '=' }],
    ['/services', { ...ops, ...open }],
    ['/services/close', { ...ops, manager: '/dashboard', mechanic: '/dashboard', viewer: '/dashboard' }],
    ['/services/import', { ...ops, manager: '/dashboard', mechanic: '/dashboard' }],
    ['/service/new', { ...ops, manager: '=', mechanic: '=', viewer: '/dashboard', outsider: '=' }],
    ['/fuelfillings', { ...ops, ...open }],
    ['/fuelfillings/import', { ...ops, manager: '/dashboard' }],
    ['/fuelfilling/new', { ...ops, manager: '=', mechanic: '=', viewer: '/dashboard' }],
    ['/reports', { ...ops, ...open }],
    ['/lineitems', { ...ops, ...open }],
    ['/lineitems/import', { ...ops, manager: '/dashboard', viewer: '/dashboard' }],
    ['/tokens', { root: '=', admin: '=', ...open }],
    ['/settings', { root: '=', admin: '=', ...open }],
    ['/no/such/route', { ...ops, manager: '/dashboard', viewer: '/dashboard' }],
  ];
}

const USERS: DemoUser[] = ['root', 'admin', 'manager', 'mechanic', 'viewer', 'outsider'];

// The six users' checks only read: they may run on both workers at once.
test.describe.configure({ mode: 'parallel' });

for (const user of USERS) {
  test(`every spec §2 guard for ${user}`, async ({ page, request }) => {
    test.setTimeout(120_000 * cpuThrottle());
    const ids = await demoIds(request);
    await login(page, user);
    await expect(page).not.toHaveURL(/\/login/);
    let checked = 0;
    let first = true;
    for (const [route, expected] of table(ids)) {
      const target = expected[user];
      if (target === undefined) continue;
      // The first route by a full page load, the others inside the app (fixtures `navigateInApp`).
      if (first) {
        await page.goto(route);
        await expect(page.locator('html[data-screen]')).toHaveCount(1);
        first = false;
      } else {
        await navigateInApp(page, route);
      }
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      const landing = target === '=' ? route : target;
      expect(new URL(page.url()).pathname, `${user} opening ${route}`).toBe(landing);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });
}
