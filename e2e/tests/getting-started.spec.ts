import type { Page } from '@playwright/test';
import { apiSession, cpuThrottle, expect, expectNoPageScroll, login, screenshot, test } from './fixtures.ts';

/**
 * An empty fleet's dashboard shows the getting-started checklist (docs/product.md "Getting started"):
 * each step is ticked live as its data arrives, the tracker step gives the addresses to paste; once the
 * four are done it is gone. At 1280 and 375 px, in English and German.
 */

const WORDS = {
  en: { title: 'Getting started', progress: (n: number) => `${n} of 4 done`, tracker: 'Connect a tracker' },
  de: {
    title: 'Erste Schritte',
    progress: (n: number) => `${n} von 4 erledigt`,
    tracker: 'Tracker verbinden',
  },
} as const;

/** spec §6: view intervals, the least a member can hold. */
const VIEW_INTERVALS = 2;

async function ticked(page: Page, step: string) {
  await expect(page.getByTestId(`start-${step}`)).toHaveAttribute('data-done', 'true', { timeout: 20_000 });
}

for (const lang of ['en', 'de'] as const) {
  test(`the checklist of an empty fleet ticks its steps live and goes when all are done (${lang})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000 * cpuThrottle());
    const w = WORDS[lang];
    const root = await apiSession(request, 'root');
    const { headers } = await apiSession(request, 'manager');
    const stamp = `${lang}${Date.now().toString(36)}`;
    const name = `E2E start ${stamp}`;
    const made = await request.post('/api/fleets', { headers: root.headers, data: { n: name } });
    expect(made.ok(), await made.text()).toBe(true);
    const fid = (await made.json()).id as number;
    // The manager runs the new fleet with the rights they have in the demo fleet, alone on its list.
    const { fleets } = await (await request.get('/api/fleets', { headers })).json();
    const acl = (fleets as { id: number; acl: number }[])[0]?.acl ?? 0;
    const users = (await (
      await request.get(`/api/fleets/${fid}/users`, { headers: root.headers })
    ).json()) as {
      candidates: { id: number; login: string }[];
    };
    const person = (login: string) => users.candidates.find((c) => c.login === login)?.id;
    const alone = await request.put(`/api/fleets/${fid}/users`, {
      headers: root.headers,
      data: { users: [{ id: person('manager'), acl }] },
    });
    expect(alone.ok(), await alone.text()).toBe(true);
    const setLang = (l: string) => request.patch('/api/user/settings', { headers, data: { lang: l } });
    expect((await setLang(lang)).ok()).toBe(true);
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await login(page, 'manager');
      await expect(page).toHaveURL('/dashboard');
      await page.getByTestId('fleet-switcher').selectOption({ label: name });
      const list = page.getByTestId('getting-started');
      await expect(list.getByRole('heading', { name: w.title })).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('start-progress')).toHaveText(w.progress(0));
      for (const step of ['unit', 'tracker', 'interval', 'colleague']) {
        await expect(page.getByTestId(`start-${step}`)).not.toHaveAttribute('data-done');
      }
      // The tracker step: the OsmAnd path on the main port; the test server listens on no tracker port.
      await expect(list.getByText(w.tracker)).toBeVisible();
      await expect(page.getByTestId('start-osmand-http')).toHaveText(
        /^https?:\/\/[^/]+\/api\/ingest\/osmand$/,
      );
      await expect(page.getByTestId('start-osmand')).toHaveCount(0);
      await expect(page.getByTestId('start-teltonika-off')).toBeVisible();
      await screenshot(page, `getting-started-${lang}-1280`);
      await page.setViewportSize({ width: 375, height: 812 });
      await expectNoPageScroll(page, 375);
      await screenshot(page, `getting-started-${lang}-375`);

      // Each step is ticked as its data arrives over the live events, without a reload.
      const uid = `start-${stamp}`;
      const unit = await request.post(`/api/fleets/${fid}/units`, {
        headers,
        data: { nm: `Van ${stamp}`, uid, ut: null },
      });
      expect(unit.ok(), await unit.text()).toBe(true);
      await ticked(page, 'unit');
      await expect(page.getByTestId('start-progress')).toHaveText(w.progress(1));
      const reading = await request.get(
        `/api/ingest/osmand?id=${uid}&lat=59.437&lon=24.7536&timestamp=${Math.floor(Date.now() / 1000)}`,
      );
      expect((await reading.json()).ok).toBe(true);
      await ticked(page, 'tracker');
      await expect(page.getByTestId('start-osmand-http')).toHaveCount(0);
      const interval = await request.post(`/api/fleets/${fid}/intervals`, {
        headers,
        data: { n: `Oil ${stamp}`, de: 1, dd: 1, du: 'y', do: 30 },
      });
      expect(interval.ok(), await interval.text()).toBe(true);
      await ticked(page, 'interval');
      await expect(page.getByTestId('start-progress')).toHaveText(w.progress(3));
      await expectNoPageScroll(page, 375);
      await screenshot(page, `getting-started-three-${lang}-375`);

      // A colleague on the access list: the last step; with it done the checklist is gone.
      const put = await request.put(`/api/fleets/${fid}/users`, {
        headers: root.headers,
        data: {
          users: [
            { id: person('manager'), acl },
            { id: person('mechanic'), acl: VIEW_INTERVALS },
          ],
        },
      });
      expect(put.ok(), await put.text()).toBe(true);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.reload();
      await expect(page.getByTestId('dash-section-status')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('getting-started')).toHaveCount(0);
      await screenshot(page, `getting-started-done-${lang}-1280`);
    } finally {
      // The manager goes back to the demo fleet and off the new one's list, as the other journeys expect.
      const home = (fleets as { id: number }[])[0]?.id;
      await request.put('/api/user/fleet', { headers, data: { fid: home } });
      await request.put(`/api/fleets/${fid}/users`, { headers: root.headers, data: { users: [] } });
      await setLang('en');
    }
  });
}

test('a fleet with units, trackers, intervals and colleagues shows its admin no checklist', async ({
  page,
}) => {
  // The manager administers the demo fleet (units, trackers reporting, intervals, other members).
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByTestId('dash-section-status')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('getting-started')).toHaveCount(0);
});
