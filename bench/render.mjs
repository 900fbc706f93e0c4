// Time to render the services list of 10,000 rows in Chromium (DESIGN §9). Debian's Chromium drives the
// built SPA against the benchmark server, whose fleet holds the 100,000 services of services.mjs (10,000
// of them open, so the Upcoming tab lists 10,000). Measured from the start of a navigation to the rows
// counter on screen: the reply, the parse, the table and its virtualised rows, as a person waits for
// them. The baseline, in the same browser and run, is the user settings screen (no fleet data). Each is
// loaded once to warm the caches (a returning user), then RUNS times; the medians are reported.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BenchError, round } from './lib.mjs';

const CHROMIUM = '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_RENDER_RUNS || 5);
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The rows counter once the list is on screen: the 10,000 generated open services plus the demo fleet's
 * own open ones (a dozen or so), i.e. 10,000 to 10,099 whatever the thousands separator.
 */
const LIST_COUNT = /\b10[\s,.\u00a0\u202f]?0\d\d\b/;

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function timed(page, url, ready) {
  const started = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await ready();
  return performance.now() - started;
}

async function series(page, url, ready) {
  await timed(page, url, ready);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timed(page, url, ready));
  return { median_ms: Math.round(median(runs)), runs_ms: runs.map((r) => Math.round(r)) };
}

export const servicesRender = {
  id: 'services_render',
  title: 'Chromium: /services with 10,000 open services on screen',
  kind: 'render',
  // Its data set: the 100,000 services that benchmark writes before the server starts.
  requires: ['services_active'],
  async run(ctx) {
    if (!fs.existsSync(CHROMIUM)) throw new BenchError(`${CHROMIUM} is missing (Debian package chromium)`);
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
      await page.goto(`${ctx.url}/login`);
      await page.getByLabel('User name').fill('manager');
      await page.getByLabel('Password').and(page.locator('input')).fill(ctx.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL('**/dashboard');

      // The services list reply as it travels (compressed when the browser accepts it) and decoded.
      const sizes = [];
      page.on('requestfinished', async (request) => {
        if (!/\/api\/fleets\/\d+\/services$/.test(new URL(request.url()).pathname)) return;
        const response = await request.response();
        const body = await response?.body().catch(() => undefined);
        const { responseBodySize } = await request.sizes();
        sizes.push({ wire: responseBodySize, decoded: body?.length ?? 0 });
      });
      const baseline = await series(page, `${ctx.url}/settings`, () =>
        page.getByRole('heading', { level: 1, name: 'User settings' }).waitFor(),
      );
      const list = await series(page, `${ctx.url}/services`, () =>
        page.getByTestId('services-count').filter({ hasText: LIST_COUNT }).waitFor({ timeout: 120_000 }),
      ).catch(async (err) => {
        const shot = path.join(os.tmpdir(), 'fleetkeep-bench-render.png');
        await page.screenshot({ path: shot }).catch(() => undefined);
        throw new BenchError(`the list did not show its 10,000 rows (screenshot: ${shot}): ${err.message}`);
      });
      // A search over the 10,000 rows: from the typed text to the table saying nothing matches, including
      // the search field's 250 ms pause before it applies the text. Then cleared again (Escape).
      const search = page.getByRole('searchbox', { name: 'Search' });
      const searches = [];
      for (let i = 0; i <= RUNS; i++) {
        const started = performance.now();
        await search.fill(`no such service ${i}`);
        await page.getByTestId('services-empty').waitFor({ timeout: 60_000 });
        if (i > 0) searches.push(performance.now() - started);
        await search.press('Escape');
        await page.getByTestId('services-empty').waitFor({ state: 'detached', timeout: 60_000 });
      }
      const searchMs = Math.round(median(searches));
      const reply = sizes.at(-1) ?? { wire: 0, decoded: 0 };
      return {
        render: { baseline, list, runs: RUNS },
        reply_bytes: reply,
        search: { median_ms: searchMs, runs_ms: searches.map((r) => Math.round(r)) },
        vs_baseline: {
          time: round(list.median_ms / Math.max(1, baseline.median_ms), 2),
          search: round(searchMs / Math.max(1, baseline.median_ms), 2),
        },
      };
    } finally {
      await browser.close();
    }
  },
};

export const benchmarks = [servicesRender];
