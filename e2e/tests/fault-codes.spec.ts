import { apiSession, cpuThrottle, expect, login, screenshot, test } from './fixtures.ts';

/**
 * A unit's fault codes. A Traccar server forwards a position whose `dtcs` attribute reports two codes;
 * the open unit page's "Fault codes" tab shows them live, the one the fleet counts as critical marked.
 * The manager clears it (confirmed); reported again, it is active again with its count going on. The
 * critical code opened an issue on the unit, once.
 */
test('fault codes arrive live, are cleared and reopen', async ({ page, request }) => {
  test.setTimeout(60_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const uid = `dtc-${Date.now().toString(36)}`;
  const created = await request.post(`/api/fleets/${fid}/units`, {
    headers,
    data: { nm: `DTC ${uid}`, uid, ut: null },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const unitId = (await created.json()).id as number;
  const critical = await request.put(`/api/fleets/${fid}/critical-fault-codes`, {
    headers,
    data: { codes: ['P03'] },
  });
  expect(critical.ok(), await critical.text()).toBe(true);
  const forward = async (seconds: number, dtcs: string) => {
    const iso = new Date(seconds * 1000).toISOString();
    const res = await request.post('/api/ingest/traccar', {
      data: {
        position: { fixTime: iso, latitude: 53.9, longitude: 27.56, speed: 0, attributes: { dtcs } },
        device: { uniqueId: uid },
      },
    });
    expect(await res.json()).toEqual({ ok: true });
  };
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/unit/${unitId}?tab=faults`);
    const table = page.getByTestId('fault-codes');
    await expect(page.getByTestId('fault-codes-empty')).toHaveText('No fault codes reported', {
      timeout: 30_000 * cpuThrottle(),
    });

    const t0 = Math.floor(Date.now() / 1000) - 120;
    await forward(t0, 'P0300 P0171');
    const misfire = table.getByRole('row').filter({ hasText: 'P0300' });
    await expect(misfire).toContainText('Active');
    await expect(misfire.getByTestId('fault-critical')).toHaveText('Critical');
    const lean = table.getByRole('row').filter({ hasText: 'P0171' });
    await expect(lean).toContainText('Active');
    await expect(lean.getByTestId('fault-critical')).toHaveCount(0);
    await screenshot(page, 'fault-codes-1280');

    await misfire.getByTestId('fault-clear').click();
    const dialog = page.getByRole('dialog', { name: 'Clear fault code' });
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(dialog).toBeHidden();
    await expect(misfire).toContainText('Cleared');
    await expect(misfire).toContainText('Maria Manager');
    await expect(misfire.getByTestId('fault-clear')).toHaveCount(0);

    // Reported again after the clear: active again, the second report.
    await forward(Math.floor(Date.now() / 1000) + 1, 'P0300');
    await expect(misfire).toContainText('Active');
    await expect(misfire.getByRole('cell').nth(3)).toHaveText('2');

    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByText('P0171')).toBeVisible();
    await screenshot(page, 'fault-codes-375');

    // The critical code opened one issue on the unit (not two, though it came back after the clear).
    await page.goto(`/unit/${unitId}?tab=issues`);
    await expect(page.getByText('DTC P0300')).toHaveCount(1);
    await expect(page.getByText('DTC P0171')).toHaveCount(0);
  } finally {
    await request.put(`/api/fleets/${fid}/critical-fault-codes`, { headers, data: { codes: [] } });
    await request.delete(`/api/fleets/${fid}/units/${unitId}`, { headers });
  }
});

test('a fleet admin sets the critical fault codes in the fleet settings', async ({ page, request }) => {
  test.setTimeout(60_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const read = async () =>
    (await (await request.get(`/api/fleets/${fid}/critical-fault-codes`, { headers })).json()).codes;
  try {
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/fleet/${fid}`);
    const input = page.getByTestId('critical-fault-codes-input');
    await expect(input).toBeVisible({ timeout: 30_000 * cpuThrottle() });
    await input.fill('p03');
    await input.press('Enter');
    await input.fill('U0100');
    await input.press('Enter');
    await page.getByTestId('critical-fault-codes-save').click();
    await expect.poll(read).toEqual(['P03', 'U0100']);
    await expect(page.getByTestId('critical-fault-codes-save')).toBeDisabled();
  } finally {
    await request.put(`/api/fleets/${fid}/critical-fault-codes`, { headers, data: { codes: [] } });
  }
});
