import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../server.ts';
import {
  type ApiSession,
  apiSession,
  cpuThrottle,
  expect,
  expectNoPageScroll,
  login,
  screenshot,
  test,
} from './fixtures.ts';
import { cleanUp, createDue, demoUnits, inBatches, type Unit } from './services-support.ts';

/**
 * Popup bubbles and the bell's count (spec §4 "Notification kinds", §9
 * "Notifications": at most 5 bubbles, the unread count capped at 99+): a service the status engine
 * creates pops a bubble and counts on the bell for the manager, not for a user whose mask excludes the
 * kind; six notifications in a row show five bubbles; 100 unread show 99+.
 */

const unreadOf = async (page: Page) => Number(await page.getByTestId('bell').getAttribute('data-unread'));

/** One OsmAnd reading (odometer in km), where the unit stands (other journeys read the map). */
async function drive(
  request: APIRequestContext,
  unit: Unit & { pos?: { y: number; x: number } | null },
  km: number,
  at: number,
) {
  const pos = unit.pos ?? { y: 52.52, x: 13.4 };
  const res = await request.get(
    `/api/ingest/osmand?id=${unit.uid}&lat=${pos.y}&lon=${pos.x}&timestamp=${at}&odometer=${Math.round(km * 1000)}`,
  );
  expect(await res.json()).toEqual({ ok: true });
}

/** A user's notification mask as saved (`model.s` of /api/auth). */
async function maskOf(request: APIRequestContext, user: 'mechanic'): Promise<number> {
  const { access_token } = await (
    await request.post('/api/login', { data: { username: user, password: DEMO_PASSWORD } })
  ).json();
  const auth = await (await request.get(`/api/auth?access_token=${access_token}`)).json();
  return auth.model.s.notification.enabled as number;
}

/** Sets the user's notification mask (settings `notification.enabled`, DESIGN §6: 1 due … 16 rejected). */
async function setMask(request: APIRequestContext, s: ApiSession, enabled: number) {
  const res = await request.patch('/api/user/settings', {
    headers: s.headers,
    data: { notification: { enabled } },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

test('a service the status engine makes: a bubble and a count for the manager, none for a user whose mask excludes it', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const manager = await apiSession(request, 'manager');
  const mechanic = await apiSession(request, 'mechanic');
  const { fid, headers } = manager;
  const units = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units as (Unit & {
    pos: { y: number; x: number } | null;
  })[];
  const unit = units.find((u) => u.uid === 'demo-016');
  if (!unit) throw new Error('no unit demo-016');
  const tag = `eng${Date.now().toString(36)}`;
  const name = `${tag} Oil service`;
  const ids: number[] = [];
  const intervals: number[] = [];
  const mechanicPage = await (await browser.newContext()).newPage();
  const mask = await maskOf(request, 'mechanic');
  try {
    // The mechanic wants every kind but "due" (1).
    await setMask(request, mechanic, 31 & ~1);
    // Every 1 000 km, 100 km of notice; the unit's counter now is the baseline.
    const made = await request.post(`/api/fleets/${fid}/intervals`, {
      headers,
      data: {
        n: name,
        cnme: 1,
        cnmd: 1000,
        cnmo: 100,
        u: [{ t: 'u', id: unit.id, lcnm: Math.floor(unit.cnm) }],
      },
    });
    expect(made.ok(), await made.text()).toBe(true);
    intervals.push((await made.json()).id as number);

    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await login(mechanicPage, 'mechanic');
    await expect(mechanicPage).toHaveURL('/dashboard');
    const bell = page.getByTestId('bell');
    const mechanicBell = mechanicPage.getByTestId('bell');
    await expect(bell).toHaveAttribute('data-unread', /\d+/);
    await expect(mechanicBell).toHaveAttribute('data-unread', /\d+/);
    const before = await unreadOf(page);
    const mechanicBefore = await unreadOf(mechanicPage);

    // Readings: 950 km on, inside the notice: the engine makes the Due service (no one made it).
    const t0 = Math.floor(Date.now() / 1000);
    await drive(request, unit, Math.floor(unit.cnm) + 950, t0 + 1);
    const bubble = page.getByTestId('bubble').filter({ hasText: name });
    await expect(bubble).toContainText('Service is due');
    await expect(bubble).toContainText(unit.nm);
    await expect(bell).toHaveAttribute('data-unread', String(before + 1));
    const { services } = await (
      await request.get(`/api/fleets/${fid}/services?object_type=u&object_id=${unit.id}`, { headers })
    ).json();
    ids.push(...(services as { id: number; n: string }[]).filter((s) => s.n === name).map((s) => s.id));
    expect(ids).toHaveLength(1);
    await screenshot(page, 'notifications-engine-bubble-1280');

    // The mechanic's page heard the same live events: no bubble, no count (give it a moment).
    await mechanicPage.waitForTimeout(1500);
    await expect(mechanicPage.getByTestId('bubble').filter({ hasText: name })).toHaveCount(0);
    await expect(mechanicBell).toHaveAttribute('data-unread', String(mechanicBefore));
    const alerts = (
      await (await request.get(`/api/fleets/${fid}/user/alerts`, { headers: mechanic.headers })).json()
    ).alerts as { sid: number | null }[];
    expect(alerts.filter((a) => a.sid === ids[0])).toEqual([]);
  } finally {
    await setMask(request, mechanic, mask);
    await mechanicPage.context().close();
    await cleanUp(request, fid, headers, ids, intervals);
  }
});

test('six notifications in a row show five bubbles, the newest', async ({ page, request }) => {
  test.setTimeout(60_000 * cpuThrottle());
  const mechanic = await apiSession(request, 'mechanic');
  const { fid, headers } = mechanic;
  const unit = (await demoUnits(request, fid, headers))('demo-017');
  const tag = `six${Date.now().toString(36)}`;
  const ids: number[] = [];
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByTestId('bell')).toHaveAttribute('data-unread', /\d+/);
    await expect(page.getByTestId('bubble')).toHaveCount(0);
    for (let i = 1; i <= 6; i++) ids.push(await createDue(request, fid, headers, unit.id, `${tag} #${i}`));
    const bubbles = page.getByTestId('bubble');
    await expect(bubbles.filter({ hasText: `${tag} #6` })).toBeVisible();
    await expect(bubbles).toHaveCount(5);
    for (let i = 2; i <= 6; i++) await expect(bubbles.filter({ hasText: `${tag} #${i}` })).toHaveCount(1);
    await expect(bubbles.filter({ hasText: `${tag} #1` })).toHaveCount(0);
    await screenshot(page, 'notifications-five-bubbles-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(bubbles).toHaveCount(5);
    await screenshot(page, 'notifications-five-bubbles-375');
  } finally {
    await cleanUp(request, fid, headers, ids, []);
  }
});

test('100 unread notifications show 99+ on the bell', async ({ page, request }) => {
  test.setTimeout(180_000 * cpuThrottle());
  const mechanic = await apiSession(request, 'mechanic');
  const manager = await apiSession(request, 'manager');
  const { fid, headers } = mechanic;
  const unit = (await demoUnits(request, fid, headers))('demo-015');
  const tag = `cap${Date.now().toString(36)}`;
  const ids: number[] = [];
  try {
    const numbers = Array.from({ length: 100 }, (_, k) => k + 1);
    ids.push(...(await inBatches(numbers, (i) => createDue(request, fid, headers, unit.id, `${tag} #${i}`))));
    // The manager has them all, unread.
    await expect
      .poll(
        async () =>
          (
            (await (await request.get(`/api/fleets/${fid}/user/alerts`, { headers: manager.headers })).json())
              .alerts as { d: { n: string }; stm: number | null }[]
          ).filter((a) => a.d.n.startsWith(tag) && a.stm === null).length,
        { timeout: 30_000 },
      )
      .toBe(100);
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    const bell = page.getByTestId('bell');
    await expect.poll(() => unreadOf(page)).toBeGreaterThanOrEqual(100);
    await expect(bell).toHaveAccessibleName(/: 99\+$/);
    await expect(page.getByTestId('bell-count')).toContainText('99+');
    await screenshot(page, 'notifications-99plus-1280');
  } finally {
    await cleanUp(request, fid, headers, ids, []);
  }
});

test('the delivery log: a row per chat, tests marked, a failed delivery retried by hand', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000 * cpuThrottle());
  const manager = await apiSession(request, 'manager');
  const mechanic = await apiSession(request, 'mechanic');
  const { fid, headers } = manager;
  // A receiver that refuses everything (HTTP 500), on this machine.
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('receiver down');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const tag = `log${Date.now().toString(36)}`;
  const unit = (await demoUnits(request, fid, headers))('demo-002');
  const ids: number[] = [];
  let hookId: number | null = null;
  type Row = {
    id: number;
    sid: number | null;
    status: string;
    attempts: number;
    test: number;
    error: string | null;
  };
  const log = async () =>
    (await (await request.get(`/api/fleets/${fid}/deliveries`, { headers })).json()).deliveries as Row[];
  try {
    const hook = await request.post(`/api/fleets/${fid}/webhooks`, {
      headers,
      data: { n: `${tag} hook`, k: 1, url: `${url}/hook` },
    });
    expect(hook.ok(), await hook.text()).toBe(true);
    hookId = (await hook.json()).id as number;
    ids.push(await createDue(request, fid, mechanic.headers, unit.id, `${tag} service`));
    // Tried once, refused, waiting for its retry; the set-up deleted meanwhile gives it up.
    await expect
      .poll(async () => (await log()).find((d) => d.sid === ids[0])?.attempts ?? 0, { timeout: 20_000 })
      .toBe(1);
    expect((await request.delete(`/api/fleets/${fid}/webhooks/${hookId}`, { headers })).ok()).toBe(true);
    hookId = null;
    const failed = (await log()).find((d) => d.sid === ids[0]);
    expect(failed).toMatchObject({ status: 'failed', test: 0 });
    // A bot test to two chats: two logged test rows, one per chat.
    const botTest = await request.post(`/api/fleets/${fid}/bots/test`, {
      headers,
      data: { n: `${tag} bot`, k: 1, lang: 'en', url, token: '1:abc', chats: ['1001', '1002'] },
    });
    expect((await botTest.json()).ok).toBe(false);

    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/fleet/${fid}?tab=notifications`);
    const table = page.getByTestId('notify-deliveries');
    const botRows = table.getByRole('row').filter({ hasText: `${tag} bot` });
    await expect(botRows).toHaveCount(2);
    await expect(botRows.filter({ hasText: '1001' })).toContainText('Test');
    await expect(botRows.filter({ hasText: '1002' })).toContainText('Failed');
    // Tests are never retried: no button on their rows.
    await expect(botRows.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    const hookRow = table.getByRole('row').filter({ hasText: `${tag} hook` });
    await expect(hookRow).toContainText('The set-up was deleted');
    await page.setViewportSize({ width: 1280, height: 900 });
    await hookRow.scrollIntoViewIfNeeded();
    await screenshot(page, 'notifications-delivery-log-1280');
    await hookRow.getByRole('button', { name: 'Retry' }).click();
    // Tried once more (the set-up is gone: given up again), two attempts in all.
    await expect
      .poll(async () => (await log()).find((d) => d.sid === ids[0])?.attempts, { timeout: 20_000 })
      .toBe(2);
    await table.getByRole('button', { name: 'Refresh' }).click();
    await expect(hookRow).toContainText('Failed');
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoPageScroll(page);
    await screenshot(page, 'notifications-delivery-log-375');
  } finally {
    if (hookId !== null) await request.delete(`/api/fleets/${fid}/webhooks/${hookId}`, { headers });
    await cleanUp(request, fid, headers, ids, []);
    receiver.close();
  }
});
