import { formatNumber, type ObjectType, routes, tagChoices } from '@fleetkeep/core';
import { Anchor, Badge, Button, FileButton, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Select } from '../../components/Select.tsx';
import { UnitTypeFilter } from '../../components/UnitTypeFilter.tsx';
import { kmToDisplay } from '../../lib/distance.ts';
import { useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useCan } from '../../lib/useCan.ts';
import { useExpiredDocumentOwners, usePeople, useUnits } from './api.ts';
import { useCurrentDrivers } from './assignmentsApi.ts';
import {
  decodeFilters,
  encodeFilters,
  filterObjects,
  KIND_OF_TYPE,
  type ObjectFilters,
  type ObjectRow,
  personRow,
  plateSearchText,
  selectionEntries,
  sortByName,
  stateOf,
  unitRow,
} from './rules.ts';
import { KIND_LABEL, useLabels } from './useLabels.ts';

const KIND_FILTER: { value: ObjectType; label: string }[] = [
  { value: 'u', label: 'objects.filterUnits' },
  { value: 'd', label: 'objects.filterDrivers' },
  { value: 't', label: 'objects.filterTrailers' },
];

/**
 * Spec §2 /items: units, drivers and trailers in one table with kind and unit-type filters, search,
 * natural sort, state (spec §4 Active / In service), counters in the fleet's units and CSV export; a
 * bulk mode hands the selection to the interval and service editors through navigation state.
 */
export default function ItemsScreen() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const canInterval = useCan(routes.intervals.create);
  const canService = useCan(routes.services.create);
  // The units import asks what creating a unit asks (docs/product.md "The vehicle profile").
  const canImport = useCan(routes.imports.importUnits);
  const labels = useLabels();
  const units = useUnits(fid);
  const drivers = usePeople(fid, 'drivers');
  const trailers = usePeople(fid, 'trailers');
  // The current driver of each unit (docs/product.md "Vehicle assignments").
  const currentDrivers = useCurrentDrivers(fid, useCan(routes.assignments.list));
  // Objects with an expired document are flagged (docs/product.md "Documents").
  const expired = useExpiredDocumentOwners(fid, useCan(routes.documents.list));
  const [params, patchParams] = useUrlParams();
  const kindParam = params.get('kind');
  const typesParam = params.get('ut');
  const tagParam = params.get('tag');
  const filters = useMemo(
    () =>
      decodeFilters(
        new URLSearchParams({ kind: kindParam ?? '', ut: typesParam ?? '', tag: tagParam ?? '' }),
      ),
    [kindParam, typesParam, tagParam],
  );
  // The tags of the fleet's units, for the tag filter (docs/product.md "The vehicle profile").
  const tags = useMemo(() => tagChoices((units.data ?? []).map((u) => u.vp?.tg)), [units.data]);
  const [bulk, setBulk] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);

  const all = useMemo(
    () =>
      sortByName([
        ...(units.data ?? []).map(unitRow),
        ...(drivers.data ?? []).map((p) => personRow(p, 'd')),
        ...(trailers.data ?? []).map((p) => personRow(p, 't')),
      ]),
    [units.data, drivers.data, trailers.data],
  );
  const rows = useMemo(() => filterObjects(all, filters), [all, filters]);
  // Only rows the filters still show count as selected.
  const chosen = useMemo(() => {
    const shown = new Set(rows.map((r) => r.key));
    return selectionEntries(selected.filter((k) => shown.has(k)));
  }, [rows, selected]);

  const columns = useMemo<DataColumn<ObjectRow>[]>(
    () => [
      {
        id: 'name',
        header: t('objects.name'),
        value: (r) => r.name,
        cell: (r) => (
          <Group gap={6} wrap="nowrap">
            <Anchor component={Link} to={`/${KIND_OF_TYPE[r.t]}/${r.id}`} fw={500}>
              {r.name}
            </Anchor>
            {expired.has(`${r.t}:${r.id}`) && (
              <Anchor component={Link} to={`/${KIND_OF_TYPE[r.t]}/${r.id}?tab=documents`} underline="never">
                <Badge color="red" variant="light" size="sm" data-testid={`expired-doc-${r.t}${r.id}`}>
                  {t('documents.expiredFlag')}
                </Badge>
              </Anchor>
            )}
          </Group>
        ),
        // At phone width each object is a card (as the services list): name, then kind, type, state and
        // counters, instead of a table scrolling sideways (spec §2 /items; docs/product.md "Phone").
        phone: 'title',
      },
      {
        id: 'kind',
        header: t('objects.kind'),
        value: (r) => t(KIND_LABEL[KIND_OF_TYPE[r.t]]),
        phone: 'detail',
        phoneCell: (r) => (
          <Text span size="sm" c="dimmed">
            {[t(KIND_LABEL[KIND_OF_TYPE[r.t]]), r.t === 'u' ? labels.typeName(r.ut) : '']
              .filter((v) => v !== '')
              .join(' · ')}
          </Text>
        ),
      },
      {
        id: 'type',
        header: t('objects.unitType'),
        value: (r) => (r.t === 'u' ? labels.typeName(r.ut) : ''),
        // On the card the type follows the kind (above).
      },
      {
        id: 'plate',
        header: t('vehicle.plate'),
        value: (r) => r.plate,
        // Search covers plate and VIN (docs/product.md "The vehicle profile"); the CSV has the plate.
        text: plateSearchText,
        csv: (r) => r.plate,
        cell: (r) => r.plate || '',
      },
      {
        id: 'tags',
        header: t('vehicle.tags'),
        value: (r) => r.tags.join(', '),
        cell: (r) => (
          <Group gap={4}>
            {r.tags.map((tag) => (
              <Badge key={tag} variant="outline" radius="sm" size="sm" tt="none">
                {tag}
              </Badge>
            ))}
          </Group>
        ),
      },
      {
        id: 'state',
        header: t('objects.state'),
        value: (r) => t(`objects.state_${stateOf(r)}`),
        cell: (r) => (
          <Badge variant="light" color={r.inService ? 'orange' : 'green'} radius="sm">
            {t(`objects.state_${stateOf(r)}`)}
          </Badge>
        ),
        phone: 'detail',
      },
      {
        id: 'driver',
        header: t('assignments.driver'),
        value: (r) => (r.t === 'u' ? (currentDrivers.get(r.id) ?? '') : ''),
        phone: 'detail',
        phoneCell: (r) => {
          const name = r.t === 'u' ? currentDrivers.get(r.id) : undefined;
          return name === undefined ? null : t('assignments.drivenBy', { name });
        },
      },
      {
        id: 'mileage',
        header: t('objects.mileage'),
        value: (r) => (r.mileage === null ? null : Math.round(kmToDisplay(r.mileage, labels.miles))),
        text: (r) => (r.mileage === null ? '' : labels.distance(r.mileage)),
        // The CSV keeps plain numbers (docs/product.md "Numbers, money and times").
        csv: (r) => (r.mileage === null ? null : Math.round(kmToDisplay(r.mileage, labels.miles))),
        // Spec §4: objects with no live data show '-'.
        cell: (r) => (r.mileage === null ? '-' : labels.distance(r.mileage)),
        // A card leaves out what the object has no data for.
        phone: 'detail',
        phoneCell: (r) => (r.mileage === null ? null : labels.distance(r.mileage)),
        searchable: false,
      },
      {
        id: 'engineHours',
        header: t('objects.engineHours'),
        value: (r) => r.engineHours,
        text: (r) => (r.engineHours === null ? '' : labels.engineHours(r.engineHours)),
        csv: (r) => (r.engineHours === null ? null : Math.round(r.engineHours)),
        cell: (r) => (r.engineHours === null ? '-' : labels.engineHours(r.engineHours)),
        phone: 'detail',
        phoneCell: (r) => (r.engineHours === null ? null : labels.engineHours(r.engineHours)),
        searchable: false,
      },
    ],
    [t, labels, currentDrivers, expired],
  );

  const setFilters = (patch: Partial<ObjectFilters>) =>
    patchParams((now) => encodeFilters(now, { ...decodeFilters(now), ...patch }));

  if (!auth) return null;
  const pending = units.isPending || drivers.isPending || trailers.isPending;
  return (
    <Stack>
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1} size="h2">
          {t('menu.items')}
        </Title>
        {canImport && (
          <FileButton
            accept=".csv,.txt,.xlsx"
            onChange={(file) => file && navigate('/units/import', { state: { file } })}
          >
            {(props) => (
              <Button variant="default" data-testid="import-open" {...props}>
                {t('imports.action')}
              </Button>
            )}
          </FileButton>
        )}
      </Group>
      {bulk && (
        <Group gap="sm" wrap="wrap" data-testid="objects-bulk-actions">
          <Text size="sm" c="dimmed">
            {t('objects.selected', { value: formatNumber(chosen.length) })}
          </Text>
          {canInterval && (
            <Button
              disabled={chosen.length === 0}
              onClick={() => navigate('/interval/new', { state: { assign: chosen } })}
            >
              {t('objects.createInterval')}
            </Button>
          )}
          {canService && (
            <Button
              variant="light"
              disabled={chosen.length === 0}
              onClick={() => navigate('/service/new', { state: { objects: chosen } })}
            >
              {t('objects.createServices')}
            </Button>
          )}
        </Group>
      )}
      {pending ? (
        <Loading />
      ) : (
        <DataTable
          // A new table on toggling drops the old selection.
          key={bulk ? 'bulk' : 'plain'}
          data={rows}
          columns={columns}
          getRowId={(r) => r.key}
          csvName="service-objects"
          rowLabel={(r) => r.name}
          onSelectionChange={bulk ? setSelected : undefined}
          emptyText={t('objects.empty')}
          minWidth={900}
          data-testid="objects"
          // On a phone the kind and type filters fold behind the Filters button (as on the services list).
          filters={
            <>
              <Select
                label={t('objects.kind')}
                options={KIND_FILTER.map((k) => ({ value: k.value, label: t(k.label) }))}
                value={filters.kind}
                clearable
                searchable={false}
                onChange={(v) => setFilters({ kind: (v as ObjectType | null) ?? null })}
                style={{ flex: '0 1 11rem' }}
                data-testid="objects-kind"
              />
              <UnitTypeFilter
                label={t('objects.unitType')}
                types={auth?.unit_types ?? []}
                value={filters.unitTypes}
                onChange={(unitTypes) => setFilters({ unitTypes })}
                unknownLabel={t('objects.typeUnknown')}
                style={{ flex: '1 1 14rem', maxWidth: '24rem' }}
                data-testid="objects-unit-types"
              />
              {tags.length > 0 && (
                <Select
                  label={t('vehicle.tagFilter')}
                  options={tags.map((tag) => ({ value: tag, label: tag }))}
                  value={filters.tag}
                  clearable
                  onChange={(v) => setFilters({ tag: v ?? null })}
                  style={{ flex: '0 1 11rem' }}
                  data-testid="objects-tag"
                />
              )}
            </>
          }
          activeFilters={
            (filters.kind !== null ? 1 : 0) + (filters.unitTypes.length > 0 ? 1 : 0) + (filters.tag ? 1 : 0)
          }
          toolbar={
            (canInterval || canService) && (
              <Switch
                label={t('objects.bulkMode')}
                checked={bulk}
                onChange={(e) => {
                  setBulk(e.currentTarget.checked);
                  setSelected([]);
                }}
                mb={8}
                data-testid="objects-bulk"
              />
            )
          }
        />
      )}
    </Stack>
  );
}
