import { type CustomFieldOwnerType, CustomFieldType, type CustomFieldWire } from '@fleetkeep/core';
import { Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataColumn } from '../../components/DataTable/DataTable.tsx';
import { ListPanel } from '../../components/ListPanel.tsx';
import { Loading } from '../../components/Loading.tsx';
import { ApiError } from '../../lib/api.ts';
import { useCustomFields } from '../../lib/fleetData.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useDeleteField } from './customfields/api.ts';
import { FieldDialog } from './customfields/FieldDialog.tsx';
import { OWNER_LABEL, OWNER_TYPES, optionsSummary, valuesOfRefusal } from './customfields/rules.ts';

/** Table state in the URL under this prefix (the screen's own `tab` parameter stays apart). */
const URL_PREFIX = 'cf';

/**
 * The fleet's custom-field definitions tab (PRODUCT.md "Administration"; spec §7
 * "Custom fields"): the table with a filter by owner type, "New field", edit, and the safe delete that
 * asks first when the field has values (spec §7 `DELETE /custom-fields/{id}?safe=1`, then `safe=0`).
 */
export function CustomFieldsTab({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const fields = useCustomFields(fid);
  const [params] = useUrlParams();
  const remove = useDeleteField(fid);
  const [dialog, setDialog] = useState<{ field: CustomFieldWire | null } | null>(null);
  const [asking, setAsking] = useState<{ field: CustomFieldWire; values: number } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const ownerName = (o: CustomFieldOwnerType) => t(OWNER_LABEL[o]);
  const typeName = (tp: number) =>
    tp === CustomFieldType.list ? t('customFieldsAdmin.typeList') : t('customFieldsAdmin.typeText');

  /** Safe delete first; when the server names values, ask, then delete with them (safe=0). */
  const startDelete = (field: CustomFieldWire) => {
    setFailure(null);
    remove.mutate(
      { id: field.id, safe: true },
      {
        onError: (err) => {
          const values = err instanceof ApiError ? valuesOfRefusal(err.code, err.details) : null;
          if (values !== null) setAsking({ field, values });
          else setFailure(deleteFailure(err));
        },
      },
    );
  };
  const confirmDelete = () => {
    if (!asking) return;
    remove.mutate(
      { id: asking.field.id, safe: false },
      {
        onSuccess: () => setAsking(null),
        onError: (err) => {
          setAsking(null);
          setFailure(deleteFailure(err));
        },
      },
    );
  };
  const deleteFailure = (err: unknown) =>
    t('customFieldsAdmin.deleteFailed', { reason: err instanceof ApiError ? err.reason : String(err) });

  const columns = useMemo<DataColumn<CustomFieldWire>[]>(
    () => [
      {
        id: 'name',
        header: t('lineitems.name'),
        value: (f) => f.n,
        cell: (f) => (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {f.n}
          </Text>
        ),
      },
      {
        id: 'type',
        header: t('lineitems.type'),
        value: (f) => f.tp,
        text: (f) => typeName(f.tp),
      },
      {
        id: 'owner',
        header: t('customFieldsAdmin.ownerType'),
        value: (f) => f.t,
        text: (f) => ownerName(f.t),
        filter: {
          label: t('customFieldsAdmin.ownerType'),
          options: OWNER_TYPES.map((o) => ({ value: o, label: ownerName(o) })),
        },
      },
      {
        id: 'options',
        header: t('customFieldsAdmin.options'),
        value: (f) => optionsSummary(f),
        sortable: false,
        cell: (f) =>
          f.tp === CustomFieldType.list ? (
            <Text size="sm" lineClamp={2} title={optionsSummary(f)} style={{ overflowWrap: 'anywhere' }}>
              {optionsSummary(f)}
            </Text>
          ) : (
            '-'
          ),
      },
    ],
    [t],
  );

  // A new field starts with the owner type the table is filtered by.
  const filtered = params.get(`${URL_PREFIX}f.owner`);
  const ownerFilter = OWNER_TYPES.find((o) => o === filtered) as CustomFieldOwnerType | undefined;

  return (
    <ListPanel
      testId="custom-fields-admin"
      header={
        <Text size="sm" c="dimmed">
          {t('customFieldsAdmin.intro')}
        </Text>
      }
      notice={failure ? { ok: false, text: failure } : null}
      onNoticeClose={() => setFailure(null)}
      list={fields}
      loading={<Loading />}
      loadError={t('customFields.loadFailed')}
      columns={columns}
      getRowId={(f) => String(f.id)}
      urlPrefix={URL_PREFIX}
      csvName="custom-fields"
      emptyText={t('customFieldsAdmin.empty')}
      minWidth={560}
      data-testid="cf-table"
      create={{
        label: t('customFieldsAdmin.new'),
        testId: 'cf-new',
        onClick: () => setDialog({ field: null }),
      }}
      actions={{
        name: (f) => f.n,
        testIdPrefix: 'cf',
        onEdit: (f) => setDialog({ field: f }),
        onDelete: startDelete,
        deleting: {
          pending: remove.isPending,
          row: (f) => remove.isPending && remove.variables?.id === f.id,
        },
      }}
      confirm={{
        opened: asking !== null,
        title: t('customFieldsAdmin.deleteTitle'),
        text: asking
          ? t('customFieldsAdmin.deleteWithValues', { name: asking.field.n, values: asking.values })
          : '',
        busy: remove.isPending,
        onCancel: () => setAsking(null),
        onConfirm: confirmDelete,
      }}
    >
      {dialog && fields.data && (
        <FieldDialog
          fid={fid}
          field={dialog.field}
          fields={fields.data}
          ownerType={ownerFilter}
          onClose={() => setDialog(null)}
        />
      )}
    </ListPanel>
  );
}
