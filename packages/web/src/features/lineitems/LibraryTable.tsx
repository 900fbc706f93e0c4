import { formatMoneyRate, Limits, type LineItemWire } from '@fleetkeep/core';
import { Alert, Button, Group, Stack } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { NumericInput } from '../../components/NumericInput.tsx';
import { RequiredInput } from '../../components/RequiredInput.tsx';
import { AddForm, itemAlert, KindControl, type Save, useItemForm } from './ItemForm.tsx';
import { draftOfItem, emptyDraft, itemsOfTab, itemVersion, KIND, type LibraryTab } from './rules.ts';

/** One tab: optional add form, then the table with inline edit and delete. */
export function LibraryTable({
  tab,
  items,
  writable,
  currency,
  save,
  onDelete,
}: {
  tab: LibraryTab;
  items: readonly LineItemWire[];
  writable: boolean;
  currency: string;
  save: Save;
  onDelete: (item: LineItemWire) => void;
}) {
  const { t, i18n } = useTranslation();
  const rows = useMemo(() => itemsOfTab(items, tab), [items, tab]);
  const [editingId, setEditingId] = useState<number | null>(null);
  const edited = editingId === null ? undefined : items.find((i) => i.id === editingId);
  const { draft, errors, failure, edit, validate, showRefusal, accept, leaveWarning } = useItemForm(
    tab,
    items,
    edited ? { id: edited.id, version: itemVersion(edited), draft: () => draftOfItem(edited) } : null,
  );
  const editing = editingId === null ? null : { id: editingId, draft };
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState(false);

  const startEdit = (item: LineItemWire) => {
    accept(draftOfItem(item), itemVersion(item));
    setEditingId(item.id);
    setTouched(false);
  };
  const cancel = () => {
    accept(emptyDraft(tab));
    setEditingId(null);
  };
  const commit = async () => {
    if (!editing) return;
    setTouched(true);
    if (!validate()) return;
    setPending(true);
    try {
      await save(editing.draft, editing.id);
      accept(emptyDraft(tab));
      setEditingId(null);
    } catch (err) {
      showRefusal(err);
    } finally {
      setPending(false);
    }
  };
  const error = editing ? itemAlert(draft, errors, failure) : null;

  const columns = useMemo<DataColumn<LineItemWire>[]>(() => {
    const kindName = (kind: number) => (kind === KIND.labour ? t('lineitems.labour') : t('lineitems.part'));
    // A unit price keeps its 3 decimals (docs/product.md), in the user's language, the currency after it.
    const money = (cost: number) => formatMoneyRate(cost, currency, i18n.language);
    const isEditing = (item: LineItemWire) => editing?.id === item.id;
    const list: DataColumn<LineItemWire>[] = [
      {
        id: 'name',
        header: t('lineitems.name'),
        value: (i) => i.n,
        cell: (i) =>
          isEditing(i) && editing ? (
            <RequiredInput
              aria-label={t('lineitems.name')}
              size="xs"
              value={editing.draft.n}
              maxLength={Limits.stringMax}
              touched={touched}
              onBlur={() => setTouched(true)}
              disabled={pending}
              onChange={(n) => edit({ n }, 'n')}
            />
          ) : (
            i.n
          ),
        // At phone width each item is a card (docs/product.md "Phone"); its buttons wrap below the figures.
        phone: 'title',
      },
    ];
    if (tab === 'parts')
      list.push({
        id: 'type',
        header: t('lineitems.type'),
        value: (i) => i.t,
        text: (i) => kindName(i.t),
        cell: (i) =>
          isEditing(i) && editing ? (
            <KindControl
              value={editing.draft.t}
              disabled={pending}
              onChange={(k) => edit({ t: k }, 't', 'n')}
            />
          ) : (
            kindName(i.t)
          ),
        phone: 'detail',
        filter: {
          label: t('lineitems.type'),
          options: [
            { value: String(KIND.part), label: t('lineitems.part') },
            { value: String(KIND.labour), label: t('lineitems.labour') },
          ],
        },
      });
    list.push({
      id: 'cost',
      header: tab === 'fuel' ? t('lineitems.costPerUnit') : t('lineitems.cost'),
      value: (i) => i.c,
      text: (i) => money(i.c),
      phone: 'detail',
      cell: (i) =>
        isEditing(i) && editing ? (
          <NumericInput
            aria-label={tab === 'fuel' ? t('lineitems.costPerUnit') : t('lineitems.cost')}
            size="xs"
            value={editing.draft.c}
            precision={3}
            maxIntegerLength={9}
            disabled={pending}
            onChange={(c) => edit({ c }, 'c')}
            w="8rem"
          />
        ) : (
          money(i.c)
        ),
    });
    if (writable)
      list.push({
        id: 'actions',
        header: t('lineitems.actions'),
        hiddenHeader: true,
        phone: 'detail',
        value: () => null,
        sortable: false,
        searchable: false,
        exported: false,
        cell: (i) =>
          isEditing(i) ? (
            <Group gap={4} wrap="nowrap">
              <Button size="xs" loading={pending} onClick={() => void commit()}>
                {t('common.save')}
              </Button>
              <Button size="xs" variant="default" disabled={pending} onClick={cancel}>
                {t('common.cancel')}
              </Button>
            </Group>
          ) : (
            <Group gap={4} wrap="nowrap">
              <Button
                size="xs"
                variant="subtle"
                aria-label={`${t('lineitems.edit')}: ${i.n}`}
                disabled={editing !== null}
                onClick={() => startEdit(i)}
              >
                {t('lineitems.edit')}
              </Button>
              <Button
                size="xs"
                variant="subtle"
                color="red"
                aria-label={`${t('common.delete')}: ${i.n}`}
                disabled={editing !== null}
                onClick={() => onDelete(i)}
              >
                {t('common.delete')}
              </Button>
            </Group>
          ),
      });
    return list;
  }, [t, i18n.language, tab, currency, writable, editing, touched, pending, draft]);

  return (
    <Stack gap="sm">
      {writable && <AddForm tab={tab} items={items} save={save} />}
      {error && (
        <Alert color="red" role="alert" py="xs" data-testid={`edit-error-${tab}`}>
          {error}
        </Alert>
      )}
      <DataTable
        data={rows}
        columns={columns}
        getRowId={(i) => String(i.id)}
        urlPrefix={tab === 'fuel' ? 'f' : 'p'}
        csvName={tab === 'fuel' ? 'fuel' : 'line-items'}
        emptyText={t('lineitems.empty')}
        minWidth={writable ? 560 : 320}
        data-testid={`lineitems-${tab}`}
      />
      {leaveWarning}
    </Stack>
  );
}
