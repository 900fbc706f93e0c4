import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** Set-up, look-ups and clean-up of the services journeys (services.spec.ts, maintenance.spec.ts). */

export interface Unit {
  id: number;
  /** Device id: demo-001 … demo-025. */
  uid: string;
  nm: string;
  cnm: number;
  cneh: number;
}

export const DAY = 86400;
export const now = () => Math.floor(Date.now() / 1000);

/** The fleet's demo units by device id. */
export async function demoUnits(request: APIRequestContext, fid: number, headers: Record<string, string>) {
  const { units } = (await (await request.get(`/api/fleets/${fid}/units`, { headers })).json()) as {
    units: Unit[];
  };
  return (name: string) => {
    const unit = units.find((u) => u.uid === name);
    if (!unit) throw new Error(`no unit ${name}`);
    return unit;
  };
}

/** Types a date into a DatePicker: focused first, as a person does (the field shows the date on focus). */
export async function typeDate(page: Page, testId: string, value: string) {
  const input = page.getByTestId(testId);
  await input.click();
  await input.fill(value);
  await input.blur();
}

/** A Due service planned in two days (PRODUCT.md "Services": Due needs a planned date today or later). */
/**
 * Runs `fn` over the items, a few requests at a time: set-up and clean-up of many rows that the journey
 * does not watch being made. Resolves to the results in the items' order.
 */
export async function inBatches<T, R>(
  items: readonly T[],
  fn: (item: T) => Promise<R>,
  size = 8,
): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    results.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  }
  return results;
}

export async function createDue(
  request: APIRequestContext,
  fid: number,
  headers: Record<string, string>,
  uid: number,
  n: string,
): Promise<number> {
  const res = await request.post(`/api/fleets/${fid}/services`, {
    headers,
    data: { t: 'u', uid, f: 1, n, limit_date: now() + 2 * DAY },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).id as number;
}

export async function serviceFlags(
  request: APIRequestContext,
  fid: number,
  headers: Record<string, string>,
  id: number,
): Promise<number> {
  return (await (await request.get(`/api/fleets/${fid}/services/${id}`, { headers })).json()).f as number;
}

/** Removes what a journey created: open services rejected, then every archived one deleted. */
export async function cleanUp(
  request: APIRequestContext,
  fid: number,
  headers: Record<string, string>,
  ids: number[],
  intervals: number[],
) {
  for (const id of intervals) await request.delete(`/api/fleets/${fid}/intervals/${id}`, { headers });
  await inBatches(ids, async (id) => {
    const f = await serviceFlags(request, fid, headers, id).catch(() => 8);
    if ((f & 24) === 0)
      await request.post(`/api/fleets/${fid}/services/${id}/status`, { headers, data: { f: 16 } });
  });
  if (ids.length)
    await request.delete(`/api/fleets/${fid}/services/archived/batch`, { headers, data: { services: ids } });
}

/** A row of the services table, by a pattern of its text. */
export const rowOf = (page: Page, name: string) =>
  page
    .getByTestId('services')
    .getByRole('row')
    .filter({ hasText: new RegExp(name) });

/** Saves a service being closed in its editor, confirms the move to the archive and waits for Closed. */
export async function saveClosed(page: Page) {
  await page.getByTestId('service-save').click();
  await page
    .getByRole('dialog', { name: 'Move to the archive?' })
    .getByRole('button', { name: 'OK' })
    .click();
  await expect(page.getByTestId('service-badge')).toHaveText('Closed');
}
