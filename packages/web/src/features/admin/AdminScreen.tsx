import { canOpenActivation } from '@fleetkeep/core';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { SearchFilter } from '../../components/SearchFilter.tsx';
import { guardUser, useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useCan } from '../../lib/useCan.ts';
import { useAccounts, useFleets } from './api.ts';
import { CreateFleetDialog } from './CreateFleetDialog.tsx';
import { type AdminFleetRow, filterFleetRows, fleetRows, sortFleetRows, timeZoneLabel } from './rules.ts';
import { UnitTypesPanel } from './UnitTypesPanel.tsx';

/**
 * Spec §2 /admin: the fleets the user administers or whose notifications they view, each opening its
 * fleet administration (/fleet/{id}). The route guard (core guards.ts, case 'admin') already sent a user
 * with exactly one such fleet to it. Super users and account admins (need account.admin, spec §6) create
 * fleets here; the list is one column of rows, so it reads alike at 375 px and 1280 px.
 */
export default function AdminScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const canCreate = useCan('account.admin');
  // Unit types are the platform's: their Teltonika IO elements are a super user's setting.
  const isSu = useCan('platform.su');
  const fleets = useFleets();
  const accounts = useAccounts(canCreate);
  const [params, patchParams] = useUrlParams();
  const [creating, setCreating] = useState(false);
  const query = params.get('q') ?? '';
  const auth = session.status === 'authenticated' ? session.auth : null;
  const activation = auth !== null && canOpenActivation(guardUser(auth));

  const all = useMemo(
    () => sortFleetRows(fleetRows(fleets.data?.fleets ?? [], accounts.data, t('activation.ownAccount'))),
    [fleets.data, accounts.data, t],
  );
  const shown = useMemo(() => filterFleetRows(all, query), [all, query]);

  const setQuery = (q: string) =>
    patchParams((next) => {
      if (q === '') next.delete('q');
      else next.set('q', q);
      return next;
    });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Title order={1} size="h2">
          {t('menu.administration')}
        </Title>
        <Group gap="sm">
          {activation && (
            <Anchor component={Link} to="/activation" data-testid="admin-activation">
              {t('admin.openActivation')}
            </Anchor>
          )}
          {canCreate && (
            <Button onClick={() => setCreating(true)} data-testid="admin-create-fleet">
              {t('admin.createFleet')}
            </Button>
          )}
        </Group>
      </Group>
      <SearchFilter
        value={query}
        onChange={setQuery}
        aria-label={t('admin.filter')}
        placeholder={t('admin.filter')}
        maw={420}
      />
      {fleets.isPending && <Loading />}
      {fleets.isError && (
        <Alert color="red" role="alert">
          {t('activation.loadFailed')}
        </Alert>
      )}
      {fleets.data && (
        <>
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="admin-fleet-count">
            {shown.length === all.length
              ? t('controls.rows', { count: all.length })
              : t('controls.rowsShown', { count: shown.length, total: all.length })}
          </Text>
          {shown.length === 0 ? (
            <Text c="dimmed">{all.length === 0 ? t('admin.noFleets') : t('controls.noMatches')}</Text>
          ) : (
            <Stack
              component="ul"
              gap="xs"
              aria-label={t('admin.fleets')}
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
            >
              {shown.map((row) => (
                <FleetRow key={row.id} row={row} />
              ))}
            </Stack>
          )}
        </>
      )}
      {isSu && <UnitTypesPanel />}
      {creating && (
        <CreateFleetDialog
          accounts={accounts.data ?? []}
          onClose={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            navigate(`/fleet/${id}`);
          }}
        />
      )}
    </Stack>
  );
}

/** One fleet: its name links to its administration; account, units and zone below it. */
function FleetRow({ row }: { row: AdminFleetRow }) {
  const { t } = useTranslation();
  const units = `${row.ms === 1 ? t('fleetAdmin.miles') : t('fleetAdmin.km')}, ${
    row.fm === 2 ? t('fleetAdmin.gallons') : t('fleetAdmin.litres')
  }`;
  return (
    <Paper component="li" withBorder px="md" py="sm" style={{ minWidth: 0 }} aria-label={row.name}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Anchor
          component={Link}
          to={`/fleet/${row.id}`}
          fw={600}
          style={{ overflowWrap: 'anywhere', minWidth: 0 }}
        >
          {row.name}
        </Anchor>
        {!row.active && (
          <Badge color="red" variant="light" style={{ flexShrink: 0 }}>
            {t('activation.state.suspended')}
          </Badge>
        )}
      </Group>
      <Group gap={6} mt={4} c="dimmed" style={{ fontSize: 'var(--mantine-font-size-sm)', rowGap: 2 }}>
        {row.account && (
          <>
            <Text span size="sm" title={t('admin.account')} style={{ overflowWrap: 'anywhere' }}>
              {row.account}
            </Text>
            <Text span size="sm" aria-hidden>
              ·
            </Text>
          </>
        )}
        <Text span size="sm">
          {units}
        </Text>
        <Text span size="sm" aria-hidden>
          ·
        </Text>
        <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
          {timeZoneLabel(row.tz, t('setup.summerTime'))}
        </Text>
      </Group>
    </Paper>
  );
}
