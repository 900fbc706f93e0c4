import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { freePort, type ServerInfo, startServer, stopServer } from '../server.ts';
import { apiSession, cpuThrottle, expect, expectNoPageScroll, login, test } from './fixtures.ts';

/**
 * Report mails (spec §7 "Report mails"), a tab of /reports: the demo manager creates a
 * report mail (recipients checked, a report, CSV, a daily schedule with the period it covers), sends it
 * now to a real SMTP listener — the server of this journey has SMTP_URL — and sees the last send's time
 * and result; edits the schedule; a viewer reads the list without the buttons; the manager deletes it
 * after a confirmation.
 */

const SHOTS = '/tmp/shots-reportmails';

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** A minimal SMTP listener: accepts every mail and keeps its raw text (no TLS, no auth). */
async function startSmtp() {
  const mails: string[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let data: string | null = null;
    const say = (line: string) => socket.write(`${line}\r\n`);
    say('220 localhost test SMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (data !== null) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          mails.push(data + buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          data = null;
          say('250 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') say('250 localhost');
        else if (verb === 'DATA') {
          data = '';
          say('354 go on');
        } else if (verb === 'QUIT') {
          say('221 bye');
          socket.end();
        } else say('250 ok');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { mails, url: `smtp://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

test('report mails: create, send now with the result shown, edit, read-only for a viewer, delete', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000 * cpuThrottle());
  const smtp = await startSmtp();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-e2e-reportmails-'));
  const info: ServerInfo = { port: await freePort(), dataDir, pidFile: path.join(dataDir, 'server.pid') };
  const previous = process.env.SMTP_URL;
  process.env.SMTP_URL = smtp.url;
  try {
    await startServer(info);
    const base = `http://127.0.0.1:${info.port}`;
    await page.goto(`${base}/login`);
    await login(page, 'manager');
    await expect(page).toHaveURL(`${base}/dashboard`);
    await page.goto(`${base}/reports?type=fuel`);
    await page.getByTestId('reports-tab-mails').click();
    await expect(page).toHaveURL(/tab=mails/);
    const panel = page.getByTestId('reportmails');
    await expect(panel.getByText('No report mails yet.')).toBeVisible();

    // New: the shown report is preselected; a bad address is caught before sending.
    await panel.getByTestId('reportmail-new').click();
    const dialog = page.getByRole('dialog', { name: 'New report mail' });
    await expect(dialog.getByTestId('reportmail-report')).toHaveValue('fuel');
    await dialog.getByTestId('reportmail-name').fill('Fuel every morning');
    await dialog.getByTestId('reportmail-recipients').fill('boss@example.com\nnot-an-address');
    await dialog.getByTestId('reportmail-save').click();
    await expect(dialog.getByText('Check this value.')).toBeVisible();
    await dialog.getByTestId('reportmail-recipients').fill('boss@example.com, fleet@example.com');
    await dialog.getByTestId('reportmail-format').getByText('CSV', { exact: true }).click();
    await expect(dialog.getByRole('radio', { name: 'CSV' })).toBeChecked();
    await dialog.getByTestId('reportmail-every').selectOption('daily');
    await expect(dialog.getByTestId('reportmail-weekday')).toHaveCount(0);
    await expect(dialog.getByTestId('reportmail-period')).toHaveText('Each mail covers the previous day.');
    await dialog.getByTestId('reportmail-hour').selectOption('7');
    await shot(page, 'reportmail-dialog-1280');
    await dialog.getByTestId('reportmail-save').click();
    await expect(dialog).toHaveCount(0);

    const row = panel.getByRole('row').filter({ hasText: 'Fuel every morning' });
    await expect(row).toContainText('Fuel fillings');
    await expect(row).toContainText('CSV');
    await expect(row).toContainText('Daily · 07:00');
    await expect(row).toContainText('boss@example.com, fleet@example.com');
    await expect(row).toContainText('Not sent yet');

    // Send now: the SMTP listener receives the CSV; the row shows the time and "Sent".
    const { fid, headers } = await apiSession(request, 'manager', base);
    const list = async () =>
      (await (await request.get(`${base}/api/fleets/${fid}/reportmails`, { headers })).json())
        .reportmails as {
        id: number;
        name: string;
        every: string;
        monthday: number | string;
      }[];
    const mail = (await list()).find((m) => m.name === 'Fuel every morning');
    if (!mail) throw new Error('report mail not created');
    await row.getByTestId(`reportmail-send-${mail.id}`).click();
    await expect(panel.getByTestId('reportmail-notice')).toHaveText('The report mail was sent.');
    await expect(row.getByTestId(`reportmail-last-${mail.id}`)).toContainText('Sent');
    await expect(row.getByTestId(`reportmail-last-${mail.id}`)).toContainText(/\d{2}:\d{2}/);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]).toMatch(/Content-Type: text\/csv/i);
    expect(smtp.mails[0]).toMatch(/filename="?fuel-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv/);
    expect(smtp.mails[0]).toMatch(/To: boss@example\.com, fleet@example\.com/);
    await shot(page, 'reportmails-1280');

    // Edit: monthly on the last day.
    await row.getByTestId(`reportmail-edit-${mail.id}`).click();
    const edit = page.getByRole('dialog', { name: 'Edit report mail' });
    await expect(edit.getByTestId('reportmail-name')).toHaveValue('Fuel every morning');
    await edit.getByTestId('reportmail-every').selectOption('monthly');
    await edit.getByTestId('reportmail-monthday').selectOption('last');
    await expect(edit.getByTestId('reportmail-period')).toHaveText(
      'Each mail covers the previous calendar month.',
    );
    await edit.getByTestId('reportmail-save').click();
    await expect(edit).toHaveCount(0);
    await expect(row).toContainText('Monthly · Last day of the month · 07:00');
    expect((await list()).find((m) => m.id === mail.id)).toMatchObject({
      every: 'monthly',
      monthday: 'last',
    });

    // Phone width: the page does not scroll sideways.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(row).toBeVisible();
    await expectNoPageScroll(page);
    await shot(page, 'reportmails-375');
    await row.getByTestId(`reportmail-edit-${mail.id}`).click();
    const small = page.getByRole('dialog', { name: 'Edit report mail' });
    await expect(small.getByTestId('reportmail-monthday')).toHaveValue('last');
    await expectNoPageScroll(page);
    await shot(page, 'reportmail-dialog-375');
    await small.getByRole('button', { name: 'Cancel' }).click();
    await expect(small).toHaveCount(0);
    await page.setViewportSize({ width: 1280, height: 800 });

    // A viewer reads the list, without the buttons.
    const viewer = await page.context().browser()?.newPage();
    if (!viewer) throw new Error('no second page');
    try {
      await viewer.goto(`${base}/login`);
      await login(viewer, 'viewer');
      await expect(viewer).toHaveURL(`${base}/dashboard`);
      await viewer.goto(`${base}/reports?tab=mails`);
      const seen = viewer
        .getByTestId('reportmails')
        .getByRole('row')
        .filter({ hasText: 'Fuel every morning' });
      await expect(seen).toContainText('Sent');
      await expect(viewer.getByTestId('reportmail-new')).toHaveCount(0);
      await expect(viewer.getByTestId(`reportmail-send-${mail.id}`)).toHaveCount(0);
    } finally {
      await viewer.close();
    }

    // Delete after the confirmation.
    await row.getByTestId(`reportmail-delete-${mail.id}`).click();
    const confirm = page.getByRole('dialog', { name: 'Delete' });
    await expect(confirm).toContainText('Delete the report mail “Fuel every morning”?');
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(panel.getByText('No report mails yet.')).toBeVisible();
    expect(await list()).toEqual([]);
  } finally {
    if (previous === undefined) delete process.env.SMTP_URL;
    else process.env.SMTP_URL = previous;
    await stopServer(info);
    fs.rmSync(dataDir, { recursive: true, force: true });
    await smtp.close();
  }
});
