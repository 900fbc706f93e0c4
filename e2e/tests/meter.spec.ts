import { apiSession, cpuThrottle, expect, login, screenshot, test } from './fixtures.ts';

/**
 * A unit's meter history. A tracker's reading that the counter rules refuse is kept with its
 * reason; the manager sees it on the unit page's "Meter history" tab, accepts it (confirmed) and the
 * unit's mileage becomes the reading's. The tracker's first odometer is a new baseline, and the unit's
 * interval baselines move by the same step, which the history shows on the baseline's row.
 */
test('a refused reading is seen and accepted in the meter history', async ({ page, request }) => {
  test.setTimeout(60_000 * cpuThrottle());
  const { fid, headers } = await apiSession(request, 'manager');
  const uid = `meter-${Date.now().toString(36)}`;
  const created = await request.post(`/api/fleets/${fid}/units`, {
    headers,
    data: { nm: `Meter ${uid}`, uid, ut: null, cnm: 1000 },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const unitId = (await created.json()).id as number;
  // Oil every 15,000 km, last done at 500 km: 14,500 km to go, before and after the new baseline.
  const interval = await request.post(`/api/fleets/${fid}/intervals`, {
    headers,
    data: { n: `Oil ${uid}`, cnme: 1, cnmd: 15_000, cnmo: 500, u: [{ id: unitId, t: 'u', lcnm: 500 }] },
  });
  expect(interval.ok(), await interval.text()).toBe(true);
  const intervalId = (await interval.json()).id as number;
  try {
    const send = async (seconds: number, km: number) =>
      (
        await request.get(
          `/api/ingest/osmand?id=${uid}&lat=53.9&lon=27.56&timestamp=${seconds}&odometer=${Math.round(km * 1000)}`,
        )
      ).json();
    const t0 = Math.floor(Date.now() / 1000) - 120;
    // The tracker's first odometer is the baseline; 5,000 km a minute later is refused.
    expect(await send(t0, 200_000)).toEqual({ ok: true });
    expect(await send(t0 + 60, 205_000)).toEqual({ ok: false, reason: 'Reading refused' });

    await page.setViewportSize({ width: 1280, height: 800 });
    await login(page, 'manager');
    await expect(page).toHaveURL('/dashboard');
    await page.goto(`/unit/${unitId}?tab=meter`);
    const table = page.getByTestId('meter-history');
    const refused = table.getByRole('row').filter({ hasText: 'Implausible mileage jump' });
    // The first visit loads the unit page's code and data; a loaded machine may take a while.
    await expect(refused).toContainText('Refused', { timeout: 30_000 * cpuThrottle() });
    await expect(refused).toContainText(/205[,\s]?000 km/);
    const baseline = table.getByRole('row').filter({ hasText: 'Baseline' });
    await expect(baseline).toContainText(/200[,\s]?000 km/);
    // 1,000 km counted before, 200,000 km on the clock: the oil interval's last service moves by the step.
    await expect(baseline.getByTestId('meter-shift')).toHaveText(/\+199[,\s]?000 km/);
    await screenshot(page, 'meter-history-1280');

    await refused.getByTestId('meter-accept').click();
    const dialog = page.getByRole('dialog', { name: 'Accept reading' });
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(dialog).toBeHidden();
    const accepted = table.getByRole('row').filter({ hasText: 'Implausible mileage jump' });
    await expect(accepted).toContainText('Accepted');
    await expect(accepted).toContainText('Maria Manager');
    await expect(accepted.getByTestId('meter-accept')).toHaveCount(0);
    const unit = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()).units.find(
      (u: { id: number }) => u.id === unitId,
    );
    expect(unit.cnm).toBe(205_000);

    // The same history on a phone: one card per entry.
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'meter-history-375');
  } finally {
    await request.delete(`/api/fleets/${fid}/intervals/${intervalId}`, { headers });
    await request.delete(`/api/fleets/${fid}/units/${unitId}`, { headers });
  }
});
