import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Loading } from '../../app/Loading.tsx';
import { useSession } from '../../app/session.ts';
import { canWith } from '../../lib/permissions.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useFleet } from './api.ts';
import { SettingsTab } from './SettingsTab.tsx';
import { UsersTab } from './UsersTab.tsx';

const TABS = ['settings', 'users'] as const;
type Tab = (typeof TABS)[number];

/**
 * Spec §2 /fleet/{fleetId}: fleet administration (the route guard admits admin or viewNotification on
 * that fleet). Settings for everyone admitted (read-only without admin); the access list for fleet
 * admins, whose calls need admin (spec §7 "Fleet").
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
  const isAdmin =
    auth !== null && canWith({ su: Boolean(auth.su), admin: Boolean(auth.admin) }, acl)('fleet.admin');
  const param = search.get('tab');
  const tab: Tab = isAdmin && (TABS as readonly string[]).includes(param ?? '') ? (param as Tab) : 'settings';

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
      </Stack>
      <Tabs
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
        </Tabs.List>
        <Tabs.Panel value="settings" pt="md">
          <SettingsTab fleet={fleet.data} readOnly={!isAdmin} />
        </Tabs.Panel>
        {isAdmin && (
          <Tabs.Panel value="users" pt="md">
            <UsersTab fid={fid} />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
