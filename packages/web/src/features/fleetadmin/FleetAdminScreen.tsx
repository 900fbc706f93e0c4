import { Anchor, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { ScrollTabs } from '../../components/ScrollTabs/ScrollTabs.tsx';
import { canWith } from '../../lib/permissions.ts';
import { useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useFleet } from './api.ts';
import { CustomFieldsTab } from './CustomFieldsTab.tsx';
import { NotificationsTab } from './NotificationsTab.tsx';
import { ObjectsTab } from './ObjectsTab.tsx';
import { SettingsTab } from './SettingsTab.tsx';
import { UsersTab } from './UsersTab.tsx';

const ADMIN_TABS = ['users', 'objects', 'customfields'] as const;
type Tab = 'settings' | 'notifications' | (typeof ADMIN_TABS)[number];

/**
 * Spec §2 /fleet/{fleetId}: fleet administration (the route guard admits admin or viewNotification on
 * that fleet). Settings for everyone admitted (read-only without admin) and the notification set-up
 * for those who may view notifications; the access list, the service objects and the custom-field
 * definitions for fleet admins, whose calls need admin (spec §7 "Fleet", PRODUCT.md "Administration").
 */
export default function FleetAdminScreen() {
  const { t } = useTranslation();
  const session = useSession();
  const params = useParams();
  const fid = Number(params.id);
  const [search, patchSearch] = useUrlParams();
  const fleet = useFleet(fid);
  const auth = session.status === 'authenticated' ? session.auth : null;
  // Rights on the fleet of the URL, which need not be the current fleet.
  const acl = auth?.fleets.find((f) => f.id === fid)?.acl;
  const can = auth !== null ? canWith({ su: Boolean(auth.su), admin: Boolean(auth.admin) }, acl) : null;
  const isAdmin = can?.('fleet.admin') ?? false;
  // Channel set-ups are for fleet admins and those who may view notifications (spec §7).
  const seesNotifications = isAdmin || (can?.('notification.view') ?? false);
  const tabs: Tab[] = [
    'settings',
    ...(isAdmin ? ADMIN_TABS : []),
    ...(seesNotifications ? (['notifications'] as const) : []),
  ];
  const param = search.get('tab');
  const tab: Tab = tabs.find((name) => name === param) ?? 'settings';

  if (fleet.isPending) return <Loading />;
  if (!fleet.data) return <Text c="dimmed">{t('fleetAdmin.notFound')}</Text>;

  return (
    <Stack>
      <Stack gap={4} style={{ minWidth: 0 }}>
        <Text size="sm" c="dimmed">
          {t('screen.fleet')}
        </Text>
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }} data-testid="fleet-admin-title">
          {fleet.data.n}
        </Title>
        {isAdmin && (
          // Spec §2 /migration/{fleetId}: the fleet's export, import and migration (admin only).
          <Anchor component={Link} to={`/migration/${fid}`} size="sm" data-testid="fleet-admin-migration">
            {t('migration.open')}
          </Anchor>
        )}
      </Stack>
      <ScrollTabs
        value={tab}
        keepMounted={false}
        onChange={(v) =>
          patchSearch((next) => {
            if (v === null || v === 'settings') next.delete('tab');
            else next.set('tab', v);
            return next;
          })
        }
      >
        <Tabs.List>
          <Tabs.Tab value="settings">{t('fleetAdmin.tabSettings')}</Tabs.Tab>
          {isAdmin && <Tabs.Tab value="users">{t('fleetAdmin.tabUsers')}</Tabs.Tab>}
          {isAdmin && <Tabs.Tab value="objects">{t('fleetAdmin.tabObjects')}</Tabs.Tab>}
          {isAdmin && <Tabs.Tab value="customfields">{t('fleetAdmin.tabCustomFields')}</Tabs.Tab>}
          {seesNotifications && <Tabs.Tab value="notifications">{t('fleetAdmin.tabNotifications')}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="settings" pt="md">
          <SettingsTab fleet={fleet.data} readOnly={!isAdmin} />
        </Tabs.Panel>
        {isAdmin && (
          <Tabs.Panel value="users" pt="md">
            <UsersTab fid={fid} />
          </Tabs.Panel>
        )}
        {isAdmin && (
          <Tabs.Panel value="objects" pt="md">
            <ObjectsTab fid={fid} />
          </Tabs.Panel>
        )}
        {isAdmin && (
          <Tabs.Panel value="customfields" pt="md">
            <CustomFieldsTab fid={fid} />
          </Tabs.Panel>
        )}
        {seesNotifications && (
          <Tabs.Panel value="notifications" pt="md">
            <NotificationsTab fid={fid} />
          </Tabs.Panel>
        )}
      </ScrollTabs>
    </Stack>
  );
}
