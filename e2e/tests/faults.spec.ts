import { apiSession, expect, login, test } from './fixtures.ts';

/** Spec §8: client faults reach the error-reporting service (the server) with the release 4.4.34. */

interface Fault {
  kind: string;
  release: string;
  message: string;
  url?: string;
  user: string | null;
}

test('uncaught errors, unhandled rejections and a screen that fails to load are reported with the release', async ({
  page,
  request,
}) => {
  const tag = `fault${Date.now().toString(36)}`;
  await login(page, 'manager');
  await expect(page).toHaveURL('/dashboard');

  const reported = page.waitForRequest(
    (r) => r.url().endsWith('/api/client_errors') && (r.postData() ?? '').includes(`${tag} rejected`),
  );
  await page.evaluate((t) => {
    setTimeout(() => {
      throw new Error(`${t} thrown`);
    });
    void Promise.reject(new Error(`${t} rejected`));
  }, tag);
  await reported;

  // A screen whose code cannot be loaded shows the error screen, and that is reported too.
  await page.route(/\/assets\/IntervalsScreen-[^/]+\.js$/, (route) => route.abort());
  await page.getByRole('navigation').first().getByRole('link', { name: 'Intervals' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Something went wrong' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();

  const root = await apiSession(request, 'root');
  await expect
    .poll(async () => {
      const body = await (await request.get('/api/admin/client_errors', { headers: root.headers })).json();
      return (body.faults as Fault[]).filter((f) => f.message.includes(tag) || f.url === '/intervals');
    })
    .toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'error',
          release: '4.4.34',
          message: `Error: ${tag} thrown`,
          url: '/dashboard',
          user: 'manager',
        }),
        expect.objectContaining({ kind: 'rejection', message: `Error: ${tag} rejected`, user: 'manager' }),
        expect.objectContaining({ kind: 'render', release: '4.4.34', url: '/intervals', user: 'manager' }),
      ]),
    );
});
