import { Divider, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { canWith } from '../../lib/permissions.ts';
import { useSession } from '../../lib/session.ts';
import { useFleetUsers } from './api.ts';
import { Deliveries } from './notifications/Deliveries.tsx';
import { CHANNELS } from './notifications/rules.ts';
import { SetupSection } from './notifications/SetupSection.tsx';

/**
 * The fleet's notification set-ups (PRODUCT.md "Notifications"): in-app, e-mail,
 * messaging bot and external server (webhook), each a table with new, edit, send test and delete, then
 * the delivery log. Admins and users with viewNotification (spec §6) see it; the in-app users picker
 * names the members when the caller may list them (fleet admins), else their ids.
 */
export function NotificationsTab({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const acl = auth?.fleets.find((f) => f.id === fid)?.acl;
  const isAdmin =
    auth !== null && canWith({ su: Boolean(auth.su), admin: Boolean(auth.admin) }, acl)('fleet.admin');
  const members = useFleetUsers(fid, isAdmin);
  const users = (members.data?.users ?? []).map((u) => ({ value: String(u.id), label: u.nm || u.login }));
  const lang = auth?.model.s.lang ?? 'en';

  return (
    <Stack gap="lg" data-testid="fleet-notifications" data-fid={fid}>
      <Title order={3}>{t('fleetNotifications.title')}</Title>
      {CHANNELS.map((channel, i) => (
        <Stack key={channel} gap="lg">
          {i > 0 && <Divider />}
          <SetupSection fid={fid} channel={channel} users={users} lang={lang} />
        </Stack>
      ))}
      <Divider />
      <Deliveries fid={fid} />
    </Stack>
  );
}
