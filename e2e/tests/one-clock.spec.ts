import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../server.ts';
import { apiSession, cpuThrottle, expect, expectNoPageScroll, login, screenshot, test } from './fixtures.ts';
import { cleanUp, createDue } from './services-support.ts';

/**
 * One clock (docs/product.md "Numbers, money and times"): a browser in New York reads the demo fleet
 * (UTC+3). The bell, the delivery log and the meter history (who did what when) show the fleet's clock
 * with its zone named, in English and in German, at 1280 and 375 px. A browser whose clock is the
 * fleet's (Moscow) reads the same times without the zone.
 */

const FLEET_OFFSET = 3 * 3600;

/** A Unix time on the demo fleet's clock in the default formats (DD.MM.YYYY HH:mm[:ss]). */
function fleetClock(unix: number, seconds = false): string {
  const d = new Date((unix + FLEET_OFFSET) * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}${seconds ? `:${two(d.getUTCSeconds())}` : ''}`;
  return `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${time}`;
}

async function setSettings(request: APIRequestContext, lang: string) {
  const api = await apiSession(request, 'manager');
  const res = await request.patch('/api/user/settings', {
    headers: api.headers,
    data: { lang, dateFormat: 'DD.MM.YYYY', timeFormat: 'HH:mm' },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** An untracked unit with one reading recorded by hand an hour ago; its id and the reading's time. */
async function unitWithReading(request: APIRequestContext, fid: number, headers: Record<string, string>) {
  const uid = `clock-${Date.now().toString(36)}`;
  const created = await request.post(`/api/fleets/${fid}/units`, {
    headers,
    data: { nm: `Clock ${uid}`, uid, ut: null, cnm: 1000 },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const id = (await created.json()).id as number;
  const tm = Math.floor(Date.now() / 1000) - 3600;
  const read = await request.post(`/api/fleets/${fid}/units/${id}/meter/readings`, {
    headers,
    data: { tm, cnm: 1200 },
  });
  expect(read.ok(), await read.text()).toBe(true);
  return { id, tm };
}

async function openBell(page: Page) {
  const bell = page.getByTestId('bell');
  if ((await bell.getAttribute('aria-expanded')) !== 'true') await bell.click();
  await expect(page.getByTestId('bell-list')).toBeVisible();
}

for (const lang of ['en', 'de'] as const) {
  test(`one clock: bell, delivery log and meter history on the fleet's clock (${lang})`, async ({
    browser,
    request,
    baseURL,
  }) => {
    test.setTimeout(120_000 * cpuThrottle());
    const manager = await apiSession(request, 'manager');
    const mechanic = await apiSession(request, 'mechanic');
    const { fid, headers } = manager;
    const tag = `clock${lang}${Date.now().toString(36)}`;
    const unit = await unitWithReading(request, fid, headers);
    // A receiver that refuses: the bot test is logged as a failed test delivery.
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(500);
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const ids: number[] = [];
    const context = await browser.newContext({
      baseURL,
      locale: lang === 'de' ? 'de-DE' : 'en-US',
      timezoneId: 'America/New_York',
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    try {
      await setSettings(request, lang);
      ids.push(await createDue(request, fid, mechanic.headers, unit.id, `${tag} service`));
      const bot = await request.post(`/api/fleets/${fid}/bots/test`, {
        headers,
        data: { n: `${tag} bot`, k: 1, lang, url, token: '1:abc', chats: ['4242'] },
      });
      expect(bot.ok(), await bot.text()).toBe(true);

      // What the server recorded, in Unix seconds.
      type Alert = { tm: number; params: { service_name: string } };
      let alert: Alert | undefined;
      await expect
        .poll(
          async () => {
            const body = await (await request.get(`/api/fleets/${fid}/user/alerts`, { headers })).json();
            alert = (body.alerts as Alert[]).find((a) => a.params.service_name === `${tag} service`);
            return alert !== undefined;
          },
          { timeout: 20_000 },
        )
        .toBe(true);
      const deliveries = (await (await request.get(`/api/fleets/${fid}/deliveries`, { headers })).json())
        .deliveries as { tm: number; setup_name: string; recipient: string }[];
      const delivery = deliveries.find((d) => d.recipient === '4242' && d.setup_name.startsWith(tag));
      const reading = unit.tm;

      // The login screen speaks the browser's language.
      const words =
        lang === 'de' ? ['Benutzername', 'Passwort', 'Anmelden'] : ['User name', 'Password', 'Log in'];
      await page.goto('/login');
      await page.getByLabel(words[0]!).fill('manager');
      await page.getByLabel(words[1]!).and(page.locator('input')).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: words[2]! }).click();
      await expect(page).toHaveURL('/dashboard');
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        const shot = (name: string) => screenshot(page, `one-clock-${name}-${lang}-${width}`);

        // The bell: the notification's time on the fleet's clock, the zone named.
        await page.goto('/dashboard');
        await openBell(page);
        const item = page.getByTestId('bell-item').filter({ hasText: `${tag} service` });
        await expect(item.getByTestId('bell-time')).toHaveText(`${fleetClock(alert!.tm)} (UTC+3)`);
        await shot('bell');
        await page.keyboard.press('Escape');

        // The delivery log: the bot test's row.
        await page.goto(`/fleet/${fid}?tab=notifications`);
        const log = page.getByTestId('notify-deliveries');
        const row = log.getByRole('row').filter({ hasText: '4242' }).filter({ hasText: tag });
        await expect(row).toContainText(`${fleetClock(delivery?.tm ?? 0)} (UTC+3)`);
        await row.scrollIntoViewIfNeeded();
        await shot('deliveries');

        // The meter history: the newest reading's time to the second, the zone named.
        await page.goto(`/unit/${unit.id}?tab=meter`);
        const history = page.getByTestId('meter-history');
        await expect(history.getByText(`${fleetClock(reading, true)} (UTC+3)`).first()).toBeVisible();
        if (width === 375) await expectNoPageScroll(page);
        await shot('meter');
      }
      expect(delivery, 'the bot test is logged').toBeTruthy();
    } finally {
      await context.close();
      await setSettings(request, 'en');
      await cleanUp(request, fid, headers, ids, []);
      await request.delete(`/api/fleets/${fid}/units/${unit.id}`, { headers });
      receiver.close();
    }
  });
}

test('one clock: a browser on the fleet’s clock reads times without a zone', async ({
  browser,
  request,
  baseURL,
}) => {
  const { fid, headers } = await apiSession(request, 'manager');
  const unit = await unitWithReading(request, fid, headers);
  const reading = unit.tm;
  const context = await browser.newContext({ baseURL, timezoneId: 'Europe/Moscow' });
  const page = await context.newPage();
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/unit/${unit.id}?tab=meter`);
    const history = page.getByTestId('meter-history');
    await expect(history.getByText(fleetClock(reading, true), { exact: true }).first()).toBeVisible();
    await expect(history).not.toContainText('(UTC+3)');
  } finally {
    await context.close();
    await request.delete(`/api/fleets/${fid}/units/${unit.id}`, { headers });
  }
});
