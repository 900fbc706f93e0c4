import { type CustomFieldOwnerType, CustomFieldType, type CustomFieldWire } from '@fleetkeep/core';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../app/Loading.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { ApiError } from '../../lib/api.ts';
import { useCustomFields } from '../../lib/fleetData.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useDeleteField } from './customfields/api.ts';
import { FieldDialog } from './customfields/FieldDialog.tsx';
import { OWNER_LABEL, OWNER_TYPES, optionsSummary, valuesOfRefusal } from './customfields/rules.ts';

/** Table state in the URL under this prefix (the screen's own `tab` parameter stays apart). */
const URL_PREFIX = 'cf';

/**
 * The fleet's custom-field definitions tab (issue 9 item 7; PRODUCT.md "Administration"; spec §7
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
      {
        id: 'actions',
        header: t('services.actions'),
        hiddenHeader: true,
        value: () => null,
        sortable: false,
        searchable: false,
        exported: false,
        cell: (f) => (
          <Group gap={4} wrap="nowrap" justify="flex-end">
            <Button
              size="xs"
              variant="subtle"
              aria-label={`${t('lineitems.edit')}: ${f.n}`}
              onClick={() => setDialog({ field: f })}
              data-testid={`cf-edit-${f.id}`}
            >
              {t('lineitems.edit')}
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              aria-label={`${t('common.delete')}: ${f.n}`}
              loading={remove.isPending && remove.variables?.id === f.id}
              disabled={remove.isPending}
              onClick={() => startDelete(f)}
              data-testid={`cf-delete-${f.id}`}
            >
              {t('common.delete')}
            </Button>
          </Group>
        ),
      },
    ],
    [t, remove.isPending, remove.variables],
  );

  if (fields.isPending) return <Loading />;
  if (fields.isError)
    return (
      <Alert color="red" role="alert">
        {t('customFields.loadFailed')}
      </Alert>
    );

  // A new field starts with the owner type the table is filtered by.
  const filtered = params.get(`${URL_PREFIX}f.owner`);
  const ownerFilter = OWNER_TYPES.find((o) => o === filtered) as CustomFieldOwnerType | undefined;

  return (
    <Stack gap="sm" data-testid="custom-fields-admin">
      <Text size="sm" c="dimmed">
        {t('customFieldsAdmin.intro')}
      </Text>
      {failure && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      <DataTable
        data={fields.data}
        columns={columns}
        getRowId={(f) => String(f.id)}
        urlPrefix={URL_PREFIX}
        csvName="custom-fields"
        emptyText={t('customFieldsAdmin.empty')}
        minWidth={560}
        toolbar={
          <Button onClick={() => setDialog({ field: null })} data-testid="cf-new">
            {t('customFieldsAdmin.new')}
          </Button>
        }
        data-testid="cf-table"
      />
      {dialog && (
        <FieldDialog
          fid={fid}
          field={dialog.field}
          fields={fields.data}
          ownerType={ownerFilter}
          onClose={() => setDialog(null)}
        />
      )}
      <ConfirmDialog
        opened={asking !== null}
        title={t('customFieldsAdmin.deleteTitle')}
        text={
          asking
            ? t('customFieldsAdmin.deleteWithValues', { name: asking.field.n, values: asking.values })
            : ''
        }
        busy={remove.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={confirmDelete}
      />
    </Stack>
  );
}
