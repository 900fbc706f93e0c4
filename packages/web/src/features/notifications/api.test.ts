import type { AlertListReply, LiveEvent, NotificationWire } from '@fleetkeep/core';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { client } from '../../lib/client.ts';
import { alertsQuery, notificationFilter } from './api.ts';

vi.mock('../../lib/client.ts', () => ({ client: { notifications: { alerts: vi.fn() } } }));

const note = (id: string): NotificationWire => ({
  id,
  nid: null,
  t: 16,
  tm: 1_795_900_000,
  stm: null,
  d: { f: 16, n: `Service ${id}` },
  params: { object_name: 'demo-005', service_name: `Service ${id}` },
  to: '/service/1',
  read: false,
  sid: 1,
});

describe('the bell list and live notifications', () => {
  it('keeps a notification announced while the list is being read, whose reply lacks it', async () => {
    const queryClient = new QueryClient();
    const fid = 7;
    const query = alertsQuery(fid);
    let server: AlertListReply = { alerts: [note('e1')], unread: 1 };
    let reads = 0;
    let answerFirst: () => void = () => undefined;
    vi.mocked(client.notifications.alerts).mockImplementation(async () => {
      reads++;
      const answer = structuredClone(server);
      await new Promise<void>((resolve) => (answerFirst = resolve));
      return answer;
    });
    const observer = new QueryObserver(queryClient, query);
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(reads).toBe(1));

    // The server answered the first read, then the notification was committed and announced.
    const created = note('e2');
    server = { alerts: [created, ...server.alerts], unread: 2 };
    const event = { s: 'notification', t: 'c', fid, d: created } as unknown as LiveEvent;
    expect(notificationFilter(queryClient, () => fid)(event)).toBe(true);
    answerFirst();

    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('success'));
    const kept = queryClient.getQueryData<AlertListReply>(query.queryKey);
    expect(kept?.alerts.map((n) => n.id)).toEqual(['e2', 'e1']);
    expect(kept?.unread).toBe(2);
    expect(reads).toBe(1);
    unsubscribe();
  });
});
