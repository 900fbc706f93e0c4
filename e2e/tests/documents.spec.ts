import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from '@playwright/test';
import {
  apiSession,
  cpuThrottle,
  expect,
  expectNoPageScroll,
  fleetDay,
  login,
  screenshot,
  test,
} from './fixtures.ts';
import { typeDate } from './services-support.ts';

/**
 * Documents and renewals (docs/product.md "Documents"), at 1280 and 375 px: an insurance that ends in
 * ten days enters its 30-day reminder window as it is saved, so a webhook set-up for kind 2048 receives
 * "document expiring" at once and the dashboard's "documents expiring or expired" lists it; the manager
 * opens it from there and renews it, the old period staying in the history.
 */

const DAY = 86_400;

async function signedIn(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');
  return page;
}

async function startReceiver() {
  const received: { event: string; body: Record<string, any> }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({
        event: String(req.headers['x-fleetkeep-event'] ?? ''),
        body: JSON.parse(body || '{}'),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

for (const width of [1280, 375]) {
  test(`a document nearing expiry shows on the dashboard, sends a reminder and is renewed (${width} px)`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(90_000 * cpuThrottle());
    const { fid, headers } = await apiSession(request, 'manager');
    const api = `/api/fleets/${fid}`;
    const hook = await startReceiver();
    const stamp = `${width}-${Date.now()}`;
    const setup = await (
      await request.post(`${api}/webhooks`, {
        headers,
        data: {
          n: `Docs ${stamp}`,
          k: 2048,
          lang: 'en',
          url: `http://127.0.0.1:${hook.port}/docs`,
          secret: 'docs-secret',
        },
      })
    ).json();
    const units = await (await request.get(`${api}/units`, { headers })).json();
    const unit = (Array.isArray(units) ? units : units.units)[0] as { id: number; nm: string };
    const number = `INS-${stamp}`;
    const made = await request.post(`${api}/documents`, {
      headers,
      data: {
        owner_type: 'u',
        owner_id: unit.id,
        type: 'insurance',
        number,
        issuer: 'Northstar Insurance',
        valid_to: Math.floor(Date.now() / 1000) + 10 * DAY,
        cost: '640.50',
      },
    });
    expect(made.status()).toBe(200);
    const doc = await made.json();
    try {
      // The reminder reaches the receiver once, with the document.
      await expect
        .poll(() => hook.received.filter((r) => r.body.document?.id === doc.id).length, { timeout: 30_000 })
        .toBe(1);
      const reminder = hook.received.find((r) => r.body.document?.id === doc.id)!;
      expect(reminder.event).toBe('document.expiring');
      expect(reminder.body).toMatchObject({
        event: { kind: 2048, kind_name: 'documentExpiring' },
        object: { type: 'unit', id: unit.id },
        document: { number, reminder_days: 30 },
      });
      expect(reminder.body.text.subject).toBe(`Document expiring: Insurance – ${unit.nm}`);

      const page = await signedIn(browser, width);
      const section = page.getByTestId('dash-expiring-documents');
      await expect(section.getByTestId(`dash-doc-${doc.id}`)).toBeVisible();
      if (width === 375) await expectNoPageScroll(page);
      await screenshot(page, `documents-dashboard-${width}`);

      await section.getByTestId(`dash-doc-${doc.id}`).click();
      await expect(page).toHaveURL(`/documents/${doc.id}`);
      await expect(page.getByTestId('doc-state')).toHaveText(/Days left: (9|10)/);
      await page.getByTestId('doc-renew').click();
      const dialog = page.getByTestId('doc-renew-dialog');
      await typeDate(page, 'doc-renew-to', fleetDay(375));
      await dialog.getByTestId('doc-renew-cost').fill('702.25');
      await dialog.getByTestId('doc-renew-submit').click();
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId('doc-state')).toHaveText('Valid');
      const periods = page.getByTestId('doc-periods').locator('tbody tr');
      await expect(periods).toHaveCount(2);
      await expect(periods.nth(1)).toContainText(number);
      if (width === 375) await expectNoPageScroll(page);
      await screenshot(page, `documents-page-${width}`);

      // The documents screen and the unit's tab list it as valid now.
      await page.goto('/documents?owner=u');
      await expect(page.getByTestId(`doc-state-${doc.id}`).first()).toHaveText('Valid');
      if (width === 375) await expectNoPageScroll(page);
      await screenshot(page, `documents-list-${width}`);
      await page.goto(`/unit/${unit.id}?tab=documents`);
      await expect(page.getByTestId('object-docs')).toContainText('Insurance');
      await screenshot(page, `documents-unit-tab-${width}`);
      // A renewal is no new reminder while the new period is far from its end.
      expect(hook.received.filter((r) => r.body.document?.id === doc.id)).toHaveLength(1);
      await page.context().close();
    } finally {
      await request.delete(`${api}/documents/${doc.id}`, { headers });
      await request.delete(`${api}/webhooks/${setup.id}`, { headers });
      await hook.close();
    }
  });
}
