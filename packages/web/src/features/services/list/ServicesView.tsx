import { type ServiceWire, unitLabel } from '@fleetkeep/core';
import { Alert, Box, Button, FileButton, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { DataTable } from '../../../components/DataTable/DataTable.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { ScrollTabs } from '../../../components/ScrollTabs/ScrollTabs.tsx';
import { dayjsLocale } from '../../../i18n/index.ts';
import { ApiError } from '../../../lib/api.ts';
import { serverIssues } from '../../../lib/refusal.ts';
import { useArchivedServices, useOpenServices } from '../../../lib/services.ts';
import { useSession } from '../../../lib/session.ts';
import { useUrlParams } from '../../../lib/urlParams.ts';
import { usePermissions } from '../../../lib/useCan.ts';
import { useBatchStatus, useDeleteArchived } from '../api.ts';
import { type ColumnContext, serviceColumns } from './columns.tsx';
import { useLookups } from './data.ts';
import { ListToolbar } from './ListToolbar.tsx';
import {
  type BulkAction,
  bulkActions,
  decodeFilters,
  decodePeriod,
  filterServices,
  fleetToday,
  type ListFilters,
  liveSelection,
  parseTab,
  periodError,
  type QuickAction,
  TABS,
  type Tab,
} from './rules.ts';
import classes from './Services.module.css';

const TAB_LABEL: Record<Tab, string> = {
  upcoming: 'services.tabUpcoming',
  inProgress: 'services.tabInProgress',
  archive: 'services.tabArchive',
};
const BULK_LABEL: Record<BulkAction, string> = {
  inProgress: 'services.actionInProgress',
  close: 'services.actionClose',
  reject: 'services.actionReject',
  delete: 'common.delete',
};

/** What a confirm dialog is about to do. */
interface Pending {
  action: 'reject' | 'delete';
  services: ServiceWire[];
}

/** A failed action: the server's reason and the names of the services it refused. */
interface Failure {
  reason: string;
  items: string[];
}

/**
 * Spec §2 /services: Upcoming (Due incl. overdue), In progress and Archive tabs; filters, search, sort
 * and the tab in the URL; quick status changes per row and bulk actions on selected rows (PRODUCT.md
 * "Services"). Live events refresh the lists (the queries live under the service collection). Loaded by
 * ServicesScreen.tsx, which starts its reads first.
 */
export default function ServicesView() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  const can = usePermissions();
  const tz = fleet?.tz ?? 0;
  const miles = fleet?.ms === 1;
  const [params, patchParams] = useUrlParams();
  const tab = parseTab(params.get('tab'));
  // The same filters object while the URL's filters stay the same: the 10,000-row list is filtered (and
  // the table rebuilds its rows) only when they change, not when the search or the sort does.
  const filterKey = JSON.stringify(decodeFilters(params, tab));
  const filters = useMemo(() => JSON.parse(filterKey) as ListFilters, [filterKey]);
  const today = fleetToday(tz, Math.floor(Date.now() / 1000));
  const period = decodePeriod(params, today);
  const badPeriod = periodError(period.from, period.to);

  const open = useOpenServices(tab === 'archive' ? null : fid);
  const archived = useArchivedServices(
    tab === 'archive' && badPeriod === null ? fid : null,
    period.from,
    period.to,
  );
  // The names only: live unit messages move counters, not names, and leave the table alone.
  const { names } = useLookups(fid);
  const batch = useBatchStatus(fid);
  const remove = useDeleteArchived(fid);

  const [selected, setSelected] = useState<string[]>([]);
  const [tableKey, setTableKey] = useState(0);
  const [pending, setPending] = useState<Pending | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);

  const source = tab === 'archive' ? archived : open;
  const rows = useMemo(
    () =>
      filterServices(
        source.data ?? [],
        tab,
        filters,
        (id) => names.unitType(id),
        (id) => names.unitTags(id),
      ),
    [source.data, tab, filters, names],
  );
  const selection = liveSelection(selected, rows);
  const selectedServices = rows.filter((s) => selection.includes(s.id));

  const clearSelection = () => {
    setSelected([]);
    setTableKey((k) => k + 1);
  };

  const fail = (err: unknown, services: ServiceWire[]) => {
    const reason = err instanceof ApiError ? err.reason : String(err);
    const byId = new Map(services.map((s) => [s.id, s.n]));
    // Refusals name a service by id or by its row in the request (lib/fieldErrors.ts).
    const issues = err instanceof ApiError ? serverIssues(err.details, 'services') : [];
    const items = issues.flatMap(({ id: named, row, message }) => {
      const id = named ?? (row !== null ? services[row]?.id : undefined);
      return id === undefined ? (message ? [message] : []) : [`${byId.get(id) ?? `#${id}`}: ${message}`];
    });
    setFailure({ reason, items });
  };

  const setStatus = (f: 2 | 16, services: ServiceWire[]) => {
    setFailure(null);
    batch.mutate(
      { f, ids: services.map((s) => s.id) },
      {
        onSuccess: () => {
          setPending(null);
          clearSelection();
        },
        onError: (err) => {
          setPending(null);
          fail(err, services);
        },
      },
    );
  };

  const deleteArchived = (services: ServiceWire[]) => {
    setFailure(null);
    remove.mutate(
      services.map((s) => s.id),
      {
        onSuccess: () => {
          setPending(null);
          clearSelection();
        },
        onError: (err) => {
          setPending(null);
          fail(err, services);
        },
      },
    );
  };

  const act = (action: BulkAction, services: ServiceWire[]) => {
    if (services.length === 0) return;
    const ids = services.map((s) => s.id);
    // The route guard reads `services` from the state (app/Guarded.tsx).
    if (action === 'close') void navigate('/services/close', { state: { services: ids } });
    else if (action === 'inProgress') setStatus(2, services);
    else setPending({ action, services });
  };

  const setTab = (next: string | null) => {
    const value = parseTab(next);
    clearSelection();
    setFailure(null);
    patchParams((p) => {
      if (value === 'upcoming') p.delete('tab');
      else p.set('tab', value);
      p.delete('st');
      return p;
    });
  };

  // The row actions read the latest state through a ref, so the columns stay the same object between
  // renders: the table keeps its row models and search text instead of rebuilding them for 10,000 rows.
  const rowActions = useRef({ act, setPending });
  rowActions.current = { act, setPending };
  const currency = fleet?.cur ?? '';
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const locale = dayjsLocale();
  const distanceUnit = unitLabel(i18n.language, miles ? 'mile' : 'kilometer');
  const columns = useMemo(
    () =>
      serviceColumns({
        t,
        tab,
        tz,
        miles,
        can,
        currency,
        dateFormat,
        locale,
        lang: i18n.language,
        distanceUnit,
        lookups: names,
        onQuick: (action: QuickAction, s: ServiceWire) => rowActions.current.act(action, [s]),
        onDelete: (s: ServiceWire) => rowActions.current.setPending({ action: 'delete', services: [s] }),
      } satisfies ColumnContext),
    [t, tab, tz, miles, can, currency, dateFormat, locale, i18n.language, distanceUnit, names],
  );
  const bulk = bulkActions(tab, can);
  const busy = batch.isPending || remove.isPending;

  if (!auth || fid === null) return null;

  const panel =
    source.isPending && !(tab === 'archive' && badPeriod) ? (
      <Loading />
    ) : source.isError ? (
      <Alert color="red" role="alert">
        {source.error instanceof ApiError ? source.error.reason : t('services.loadFailed')}
      </Alert>
    ) : (
      <Stack gap="xs">
        {bulk.length > 0 && selection.length > 0 && (
          <Group gap="xs" wrap="wrap" data-testid="services-bulk">
            <Text size="sm" fw={500}>
              {t('services.selected', { count: selection.length })}
            </Text>
            {bulk.map((a) => (
              <Button
                key={a}
                size="xs"
                variant={a === 'reject' || a === 'delete' ? 'light' : 'filled'}
                color={a === 'reject' || a === 'delete' ? 'red' : undefined}
                loading={busy && a === 'inProgress'}
                disabled={busy}
                onClick={() => act(a, selectedServices)}
                data-testid={`services-bulk-${a}`}
              >
                {t(BULK_LABEL[a])}
              </Button>
            ))}
          </Group>
        )}
        <Box className={classes.table}>
          <DataTable
            key={`${tab}-${tableKey}`}
            data={rows}
            columns={columns}
            getRowId={(s) => String(s.id)}
            csvName={`services-${tab}`}
            onSelectionChange={bulk.length > 0 ? setSelected : undefined}
            rowLabel={(s) => s.n}
            emptyText={t('services.empty')}
            minWidth={tab === 'upcoming' ? 980 : 860}
            filters={
              <ListToolbar
                tab={tab}
                filters={filters}
                period={period}
                dateFormat={dateFormat}
                tags={names.tags}
              />
            }
            activeFilters={
              (filters.object !== null ? 1 : 0) +
              (filters.unitTypes.length > 0 ? 1 : 0) +
              (filters.status !== null ? 1 : 0) +
              (filters.tag !== null ? 1 : 0)
            }
            data-testid="services"
          />
        </Box>
      </Stack>
    );

  return (
    <Stack>
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1} size="h2">
          {t('menu.services')}
        </Title>
        {can('service.manage') && (
          <Group gap="xs">
            <FileButton
              accept=".csv,.txt,.xlsx"
              onChange={(file) => file && navigate('/services/import', { state: { file } })}
            >
              {(props) => (
                <Button variant="default" data-testid="import-open" {...props}>
                  {t('imports.action')}
                </Button>
              )}
            </FileButton>
            <Button component={Link} to="/service/new" data-testid="service-new">
              {t('services.new')}
            </Button>
          </Group>
        )}
      </Group>
      {failure && (
        <Alert
          color="red"
          role="alert"
          title={t('services.nothingChanged')}
          withCloseButton
          closeButtonLabel={t('controls.clear')}
          onClose={() => setFailure(null)}
          data-testid="services-error"
        >
          <Text size="sm">{failure.reason}</Text>
          {failure.items.map((item) => (
            <Text size="sm" key={item}>
              {item}
            </Text>
          ))}
        </Alert>
      )}
      <ScrollTabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          {TABS.map((name) => (
            <Tabs.Tab key={name} value={name} data-testid={`services-tab-${name}`}>
              {t(TAB_LABEL[name])}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={tab} pt="md">
          {panel}
        </Tabs.Panel>
      </ScrollTabs>
      <ConfirmDialog
        opened={pending !== null}
        title={t(pending?.action === 'delete' ? 'services.deleteTitle' : 'services.rejectTitle')}
        text={
          pending?.services.length === 1
            ? t(pending.action === 'delete' ? 'services.deleteOne' : 'services.rejectOne', {
                name: pending.services[0]?.n ?? '',
              })
            : t(pending?.action === 'delete' ? 'services.deleteMany' : 'services.rejectMany', {
                count: pending?.services.length ?? 0,
              })
        }
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (!pending) return;
          if (pending.action === 'delete') deleteArchived(pending.services);
          else setStatus(16, pending.services);
        }}
      />
    </Stack>
  );
}
