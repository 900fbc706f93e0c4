import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from '@playwright/test';
import {
  apiSession,
  expect,
  expectNoPageScroll,
  login,
  openUserMenu,
  screenshot,
  screenshotsAtBothWidths,
  test,
} from './fixtures.ts';
import { cleanUp, createDue, demoUnits } from './services-support.ts';

/**
 * The notification bell, its popup bubbles and the fleet's notification set-ups (
 * spec §2 "Notification bell", §4 "Notification kinds", §9 "Notifications"). Another demo user (the
 * mechanic) changes services through the API; the manager's page hears of it live.
 */

/** Opens or closes the bell's list (a click on the bell toggles it). */
async function setBell(page: Page, open: boolean) {
  const bell = page.getByTestId('bell');
  if ((await bell.getAttribute('aria-expanded')) !== String(open)) await bell.click();
  await expect(bell).toHaveAttribute('aria-expanded', String(open));
  if (open) await expect(page.getByTestId('bell-list')).toBeVisible();
}

/** The visible part only (the bell's list and the bubbles are fixed to the top of the window). */
async function viewShot(page: Page, name: string) {
  await screenshot(page, name);
  await page.screenshot({ path: path.resolve(import.meta.dirname, `../screenshots/${name}-view.png`) });
}

const unreadOf = async (page: Page) => Number(await page.getByTestId('bell').getAttribute('data-unread'));

test('a change by another user makes a bubble; clicking it reads it and opens the service', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const mechanic = await apiSession(request, 'mechanic');
  const { fid, headers } = mechanic;
  const unit = (await demoUnits(request, fid, headers))('demo-003');
  const ids: number[] = [];
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    const bell = page.getByTestId('bell');
    await expect(bell).toHaveAttribute('data-unread', /\d+/);
    // The first load makes no bubbles (spec §4: what it shows counts as read).
    await expect(page.getByTestId('bubble')).toHaveCount(0);
    const before = await unreadOf(page);

    const name = `Bell due ${Date.now()}`;
    ids.push(await createDue(request, fid, headers, unit.id, name));
    const bubble = page.getByTestId('bubble').filter({ hasText: name });
    await expect(bubble).toContainText('Service is due');
    await expect(bubble).toContainText(unit.nm);
    await expect(bell).toHaveAttribute('data-unread', String(before + 1));
    await screenshotsAtBothWidths(page, 'notifications-bubble');

    await bubble.click();
    await expect(page).toHaveURL(`/service/${ids[0]}`);
    await expect(page.getByTestId('bubble').filter({ hasText: name })).toHaveCount(0);
    await expect(bell).toHaveAttribute('data-unread', String(before));

    // The bell lists it, read, newest first, linking to the service.
    await setBell(page, true);
    const list = page.getByTestId('bell-list');
    const item = list.getByTestId('bell-item').filter({ hasText: name });
    await expect(item).toBeVisible();
    await expect(item).not.toHaveAttribute('data-unread');
    await expect(list.getByTestId('bell-item').first()).toContainText(name);
    await screenshotsAtBothWidths(page, 'notifications-bell');
    await setBell(page, false);
  } finally {
    await cleanUp(request, fid, headers, ids, []);
  }
});

test('mark all read and delete all of one kind', async ({ page, request }) => {
  test.setTimeout(60_000);
  const mechanic = await apiSession(request, 'mechanic');
  const { fid, headers } = mechanic;
  const unit = (await demoUnits(request, fid, headers))('demo-005');
  const ids: number[] = [];
  try {
    const name = `Bell kind ${Date.now()}`;
    ids.push(await createDue(request, fid, headers, unit.id, name));
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    const bell = page.getByTestId('bell');
    await expect(bell).toHaveAttribute('data-unread', /\d+/);
    const list = page.getByTestId('bell-list');

    // Rejected by the mechanic: "mark all read" of that kind sends only the unread ones, then "delete all".
    const res = await request.post(`/api/fleets/${fid}/services/${ids[0]}/status`, {
      headers,
      data: { f: 16 },
    });
    expect(res.ok(), await res.text()).toBe(true);
    await expect(page.getByTestId('bubble').filter({ hasText: 'Service is rejected' })).toBeVisible();
    await setBell(page, true);
    await list.getByTestId('bell-kind').selectOption('16');
    const rejected = list.getByTestId('bell-item').filter({ hasText: name });
    await expect(rejected).toHaveAttribute('data-unread', 'true');
    // Other unread ones of the kind (earlier journeys rejected their services) are read along.
    const unreadItems = list.locator('[data-testid="bell-item"][data-unread]');
    const ofKind = await unreadItems.count();
    const before = await unreadOf(page);
    await list.getByTestId('bell-read-all').click();
    await expect(rejected).not.toHaveAttribute('data-unread');
    await expect(unreadItems).toHaveCount(0);
    await expect(bell).toHaveAttribute('data-unread', String(before - ofKind));
    // The bubble of a read notification goes.
    await expect(page.getByTestId('bubble').filter({ hasText: 'Service is rejected' })).toHaveCount(0);

    await list.getByTestId('bell-delete-all').click();
    const confirm = page.getByRole('dialog', { name: 'Delete notifications' });
    await expect(confirm).toContainText('Service is rejected');
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(confirm).toHaveCount(0);
    const mine = await apiSession(request, 'manager');
    const { alerts } = await (
      await request.get(`/api/fleets/${fid}/user/alerts`, { headers: mine.headers })
    ).json();
    expect(alerts.filter((a: { t: number }) => a.t === 16)).toEqual([]);
  } finally {
    await cleanUp(request, fid, headers, ids, []);
  }
});

test('deleting one notification; the bell at phone width; full names in the user menu', async ({
  page,
  request,
}) => {
  const mechanic = await apiSession(request, 'mechanic');
  const { fid, headers } = mechanic;
  const unit = (await demoUnits(request, fid, headers))('demo-004');
  const ids: number[] = [];
  try {
    await page.setViewportSize({ width: 375, height: 740 });
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    const bell = page.getByTestId('bell');
    await expect(bell).toBeVisible();
    await expect(bell).toHaveAttribute('data-unread', /\d+/);
    const before = await unreadOf(page);

    const name = `Bell one ${Date.now()}`;
    ids.push(await createDue(request, fid, headers, unit.id, name));
    await expect(page.getByTestId('bubble').filter({ hasText: name })).toBeVisible();
    await expect(bell).toHaveAttribute('data-unread', String(before + 1));
    await expectNoPageScroll(page);

    await setBell(page, true);
    const item = page.getByTestId('bell-list').getByTestId('bell-item').filter({ hasText: name });
    await expect(item).toHaveAttribute('data-unread', 'true');
    await expectNoPageScroll(page);
    await viewShot(page, 'notifications-bell-phone-375');
    await item.getByTestId('bell-delete').click();
    await expect(item).toHaveCount(0);
    await expect(bell).toHaveAttribute('data-unread', String(before));
    // Deleting it took its bubble away too.
    await expect(page.getByTestId('bubble').filter({ hasText: name })).toHaveCount(0);
    await setBell(page, false);

    // The user menu names the user and the fleet in full where the header cuts them.
    await openUserMenu(page);
    const names = page.getByTestId('menu-names');
    await expect(names).toContainText('Maria Manager');
    await expect(names).toContainText('Demo Logistics fleet');
    await viewShot(page, 'notifications-header-menu-375');
  } finally {
    await cleanUp(request, fid, headers, ids, []);
  }
});

test('the fleet’s in-app set-up: created, edited, tested and deleted', async ({ page, request }) => {
  test.setTimeout(60_000);
  const { fid, headers } = await apiSession(request, 'manager');
  const setupsNow = async () =>
    (await (await request.get(`/api/fleets/${fid}/notifications`, { headers })).json()).notifications as {
      id: number;
      n: string;
      k: number;
      on: number;
    }[];
  const name = `Everyone ${Date.now()}`;
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/fleet/${fid}?tab=notifications`);
    const section = page.getByTestId('notify-inapp');
    await expect(section).toContainText('In-app');
    await section.getByTestId('notify-inapp-new').click();
    const dialog = page.getByRole('dialog', { name: /^In-app: / });
    await expect(dialog).toBeVisible();
    // Nothing checked: the form says so before sending.
    for (const kind of [
      'Service is due',
      'Service is in progress',
      'Service is overdue',
      'Service is rejected',
      'Service is closed',
    ])
      await dialog.getByRole('checkbox', { name: kind }).uncheck();
    await dialog.getByTestId('notify-save').click();
    await expect(dialog.getByTestId('notify-name')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog).toContainText('Required.');
    await dialog.getByTestId('notify-name').fill(name);
    await dialog.getByRole('checkbox', { name: 'Service is due' }).check();
    await dialog.getByRole('checkbox', { name: 'Service is closed' }).check();
    await screenshotsAtBothWidths(page, 'notifications-setup-dialog');
    await dialog.getByTestId('notify-save').click();
    await expect(dialog).toHaveCount(0);
    const created = (await setupsNow()).find((s) => s.n === name);
    expect(created).toMatchObject({ k: 9, on: 1 });
    if (!created) throw new Error('set-up not created');
    const row = section.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('Service is due, Service is closed');
    await expect(row).toContainText('All members');

    // Edit: every kind, switched off.
    await section.getByTestId(`notify-inapp-edit-${created.id}`).click();
    await expect(dialog.getByTestId('notify-name')).toHaveValue(name);
    for (const kind of ['Service is in progress', 'Service is overdue', 'Service is rejected'])
      await dialog.getByRole('checkbox', { name: kind }).check();
    await dialog.getByTestId('notify-on').uncheck();
    await dialog.getByTestId('notify-save').click();
    await expect(dialog).toHaveCount(0);
    expect((await setupsNow()).find((s) => s.id === created.id)).toMatchObject({ k: 31, on: 0 });
    await expect(row).toContainText('Off');

    // Send test: the in-app test reaches the set-up's users (every member) and says how many.
    await section.getByTestId(`notify-inapp-test-${created.id}`).click();
    await expect(section.getByTestId('notify-test-result')).toContainText(
      /Test notifications sent: [1-9]\d*\./,
    );
    // The test arrives in the manager's bell as a bubble (it names no service).
    await expect(page.getByTestId('bubble').filter({ hasText: name })).toBeVisible();

    await screenshotsAtBothWidths(page, 'notifications-fleet-tab');

    await section.getByTestId(`notify-inapp-delete-${created.id}`).click();
    const confirm = page.getByRole('dialog', { name: 'Delete set-up' });
    await expect(confirm).toContainText(name);
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(row).toHaveCount(0);
    expect((await setupsNow()).some((s) => s.id === created.id)).toBe(false);
  } finally {
    for (const s of await setupsNow().catch(() => []))
      if (s.n === name) await request.delete(`/api/fleets/${fid}/notifications/${s.id}`, { headers });
  }
});

test('a webhook set-up: its secret write-only, the test delivered signed to a receiver', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const { fid, headers } = await apiSession(request, 'manager');
  // A receiver on this machine for the webhook's test call.
  const received: { body: string; signature: string | undefined }[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const signature = Object.entries(req.headers).find(([k]) => k.includes('signature'))?.[1];
      received.push({ body, signature: typeof signature === 'string' ? signature : undefined });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  const stamp = Date.now();
  const listOf = async (path: string, field: string) =>
    (await (await request.get(`/api/fleets/${fid}/${path}`, { headers })).json())[field] as {
      id: number;
      n: string;
    }[];
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/fleet/${fid}?tab=notifications`);

    // External server: URL and a signing secret, which is never shown again.
    const hooks = page.getByTestId('notify-webhook');
    await hooks.getByTestId('notify-webhook-new').click();
    const dialog = page.getByRole('dialog', { name: /^External server \(webhook\): / });
    await dialog.getByTestId('notify-name').fill(`Hook ${stamp}`);
    await dialog.getByTestId('notify-url').fill(`http://127.0.0.1:${port}/fleet-events`);
    await dialog.getByTestId('notify-secret').fill('short');
    await dialog.getByTestId('notify-save').click();
    await expect(dialog).toContainText('At least 8 characters.');
    await dialog.getByTestId('notify-secret').fill('supersecret-1234');
    await dialog.getByTestId('notify-save').click();
    await expect(dialog).toHaveCount(0);
    const hook = (await listOf('webhooks', 'webhooks')).find((s) => s.n === `Hook ${stamp}`);
    if (!hook) throw new Error('webhook not created');
    const hookRow = hooks.getByRole('row').filter({ hasText: `Hook ${stamp}` });
    await expect(hookRow).toContainText(`http://127.0.0.1:${port}/fleet-events · signed`);
    await hooks.getByTestId(`notify-webhook-edit-${hook.id}`).click();
    await expect(dialog).toContainText('Set (ends in 1234)');
    await expect(dialog.getByTestId('notify-secret')).toHaveValue('');
    // The test uses the stored secret: the receiver gets a signed body.
    await dialog.getByTestId('notify-test').click();
    await expect(dialog.getByTestId('notify-test-result')).toContainText('Test delivered.');
    expect(received.length).toBeGreaterThan(0);
    expect(received[0]?.signature).toBeTruthy();
    await screenshotsAtBothWidths(page, 'notifications-webhook-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  } finally {
    for (const [path, field] of [
      ['mails', 'mails'],
      ['bots', 'bots'],
      ['webhooks', 'webhooks'],
    ] as const)
      for (const s of await listOf(path, field).catch(() => []))
        if (s.n.endsWith(String(stamp)))
          await request.delete(`/api/fleets/${fid}/${path}/${s.id}`, { headers });
    receiver.close();
  }
});

test('a bot set-up: the token required, a chat id the core contract refuses shown on its field', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const { fid, headers } = await apiSession(request, 'manager');
  const stamp = Date.now();
  const listOf = async () =>
    (await (await request.get(`/api/fleets/${fid}/bots`, { headers })).json()).bots as {
      id: number;
      n: string;
    }[];
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/fleet/${fid}?tab=notifications`);
    // Messaging bot: the token is required; a chat id the core contract refuses (checked in the form
    // before sending) is shown on its field in the user's language.
    const bots = page.getByTestId('notify-bot');
    await bots.getByTestId('notify-bot-new').click();
    const dialog = page.getByRole('dialog', { name: /^Messaging bot: / });
    await expect(dialog.getByTestId('notify-url')).toHaveValue('https://api.telegram.org');
    await dialog.getByTestId('notify-name').fill(`Bot ${stamp}`);
    await dialog.getByTestId('notify-chats').fill('not a chat');
    await dialog.getByTestId('notify-save').click();
    await expect(dialog.getByTestId('notify-token')).toHaveAttribute('data-invalid', 'true');
    await dialog.getByTestId('notify-token').fill('123456:ABCdef');
    await dialog.getByTestId('notify-save').click();
    await expect(dialog.getByTestId('notify-chats')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog).toContainText('Check this value.');
    await dialog.getByTestId('notify-chats').fill('-1001234567890\n@fleet_channel');
    await dialog.getByTestId('notify-save').click();
    await expect(dialog).toHaveCount(0);
    const botRow = bots.getByRole('row').filter({ hasText: `Bot ${stamp}` });
    await expect(botRow).toContainText('-1001234567890, @fleet_channel');
  } finally {
    for (const s of await listOf().catch(() => []))
      if (s.n.endsWith(String(stamp))) await request.delete(`/api/fleets/${fid}/bots/${s.id}`, { headers });
  }
});

test('an e-mail set-up: recipients checked, saved with its language, deleted with a confirmation', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const { fid, headers } = await apiSession(request, 'manager');
  const stamp = Date.now();
  const listOf = async () =>
    (await (await request.get(`/api/fleets/${fid}/mails`, { headers })).json()).mails as {
      id: number;
      n: string;
    }[];
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/fleet/${fid}?tab=notifications`);
    // Recipients one per line, a language.
    const mails = page.getByTestId('notify-mail');
    await mails.getByTestId('notify-mail-new').click();
    const dialog = page.getByRole('dialog', { name: /^E-mail: / });
    await dialog.getByTestId('notify-name').fill(`Mail ${stamp}`);
    await dialog.getByTestId('notify-recipients').fill('fleet@example.com\nnot-an-address');
    await dialog.getByTestId('notify-save').click();
    await expect(dialog).toContainText('Check this value.');
    await dialog.getByTestId('notify-recipients').fill('fleet@example.com\nworkshop@example.com');
    await dialog.getByTestId('notify-lang').selectOption('de');
    await dialog.getByTestId('notify-save').click();
    await expect(dialog).toHaveCount(0);
    const mailRow = mails.getByRole('row').filter({ hasText: `Mail ${stamp}` });
    await expect(mailRow).toContainText('Deutsch · fleet@example.com, workshop@example.com');
    await screenshotsAtBothWidths(page, 'notifications-channels-tab');

    // Deleted with a confirmation.
    const mail = (await listOf()).find((s) => s.n === `Mail ${stamp}`);
    if (!mail) throw new Error('mail set-up not created');
    await mails.getByTestId(`notify-mail-delete-${mail.id}`).click();
    const confirm = page.getByRole('dialog', { name: 'Delete set-up' });
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(mailRow).toHaveCount(0);
  } finally {
    for (const s of await listOf().catch(() => []))
      if (s.n.endsWith(String(stamp))) await request.delete(`/api/fleets/${fid}/mails/${s.id}`, { headers });
  }
});
