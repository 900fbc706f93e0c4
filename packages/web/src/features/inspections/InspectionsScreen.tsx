import { type InspectionRowWire, routes } from '@fleetkeep/core';
import { Alert, Anchor, Button, Group, Stack, Switch, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Select } from '../../components/Select.tsx';
import { useUnits } from '../../lib/fleetData.ts';
import { naturalCollator } from '../../lib/naturalSort.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { usePermissions } from '../../lib/useCan.ts';
import { useInspections } from './api.ts';
import { SeverityBadge, StateBadge, useFormName, useInspectionContext } from './shared.tsx';

/**
 * /inspections: the fleet's submitted inspections, newest first, filtered by unit and "only with
 * defects" (both in the URL), in the DataTable with phone cards; "Start inspection" for who submits,
 * "Inspection forms" for who manages them (docs/product.md "Inspections").
 */
/** A patch of the URL that sets or removes one parameter. */
const setParam = (name: string, value: string | null) => (params: URLSearchParams) => {
  if (value) params.set(name, value);
  else params.delete(name);
  return params;
};

export default function InspectionsScreen() {
  const { t } = useTranslation();
  const { fid, when } = useInspectionContext();
  const can = usePermissions();
  const [params, patchParams] = useUrlParams();
  const unit = Number(params.get('unit')) || undefined;
  const defectsOnly = params.get('defects') === '1';
  const list = useInspections(fid, {
    ot: unit ? 'u' : undefined,
    oi: unit,
    d: defectsOnly ? '1' : undefined,
  });
  const units = useUnits(fid);
  const formName = useFormName();
  const unitOptions = useMemo(
    () =>
      [...(units.data ?? [])]
        .sort((a, b) => naturalCollator.compare(a.nm, b.nm))
        .map((u) => ({ value: String(u.id), label: u.nm })),
    [units.data],
  );

  const columns = useMemo(
    (): DataColumn<InspectionRowWire>[] => [
      {
        id: 'at',
        header: t('inspections.submitted'),
        value: (r) => r.at,
        text: (r) => when(r.at),
        cell: (r) => (
          <Anchor component={Link} to={`/inspections/${r.id}`} style={{ whiteSpace: 'nowrap' }}>
            {when(r.at)}
          </Anchor>
        ),
        phone: 'title',
      },
      { id: 'object', header: t('inspections.object'), value: (r) => r.on, phone: 'detail' },
      { id: 'form', header: t('inspections.form'), value: (r) => formName(r) },
      { id: 'by', header: t('inspections.by'), value: (r) => r.by?.nm ?? '', phone: 'detail' },
      {
        id: 'defects',
        header: t('inspections.defects'),
        value: (r) => r.nd,
        cell: (r) => (r.ws ? <SeverityBadge severity={r.ws} /> : '—'),
        phoneCell: (r) => (r.ws ? <SeverityBadge severity={r.ws} /> : null),
        phone: 'detail',
      },
      {
        id: 'state',
        header: t('inspections.status'),
        value: (r) => t(`inspections.state.${r.st}`),
        cell: (r) => <StateBadge state={r.st} />,
        phone: 'end',
      },
    ],
    [t, when, formName],
  );

  if (fid === null) return null;
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('inspections.title')}
        </Title>
        <Group>
          {can(routes.inspectionForms.create) && (
            <Button variant="default" component={Link} to="/inspections/forms">
              {t('inspections.forms')}
            </Button>
          )}
          {can(routes.inspections.submit) && (
            <Button component={Link} to="/inspections/new" size="md" data-testid="start-inspection">
              {t('inspections.start')}
            </Button>
          )}
        </Group>
      </Group>
      {list.isError && <Alert color="red">{t('activation.loadFailed')}</Alert>}
      {list.isPending ? (
        <Loading />
      ) : (
        <DataTable
          data={list.data ?? []}
          columns={columns}
          getRowId={(r) => String(r.id)}
          csvName="inspections.csv"
          emptyText={t('inspections.none')}
          data-testid="inspections-table"
          activeFilters={(unit ? 1 : 0) + (defectsOnly ? 1 : 0)}
          filters={
            <Group>
              <Select
                aria-label={t('inspections.object')}
                placeholder={t('inspections.allObjects')}
                options={unitOptions}
                value={unit ? String(unit) : null}
                clearable
                onChange={(v) => patchParams(setParam('unit', v))}
              />
              <Switch
                label={t('inspections.onlyDefects')}
                checked={defectsOnly}
                onChange={(e) => patchParams(setParam('defects', e.currentTarget.checked ? '1' : null))}
              />
            </Group>
          }
        />
      )}
    </Stack>
  );
}
