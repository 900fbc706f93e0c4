import { Alert, Button, Group, Menu, Modal, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '../../app/session.ts';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { NumericInput } from '../../components/NumericInput.tsx';
import { RequiredInput } from '../../components/RequiredInput.tsx';
import { ButtonGroup } from '../../components/Toggles.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { formatNumber } from '../../lib/format.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import {
  canWriteLibrary,
  costText,
  draftBody,
  draftProblem,
  type FuelPreset,
  type ItemDraft,
  itemsOfTab,
  KIND,
  type LibraryKind,
  type LibraryTab,
  type LineItem,
  missingPresets,
  saveErrorKey,
} from './rules.ts';

type Save = (draft: ItemDraft, id?: number) => Promise<unknown>;

function errorText(t: (key: string) => string, error: unknown): string {
  return t(saveErrorKey(error instanceof ApiError ? error.code : undefined));
}

function KindControl({
  value,
  onChange,
  disabled,
}: {
  value: LibraryKind;
  onChange: (kind: LibraryKind) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <ButtonGroup
      label={t('lineitems.type')}
      value={String(value)}
      disabled={disabled}
      onChange={(v) => onChange(Number(v) as LibraryKind)}
      items={[
        { v: String(KIND.part), l: t('lineitems.part') },
        { v: String(KIND.labour), l: t('lineitems.labour') },
      ]}
    />
  );
}

/** The row form at the top of a tab: name, type (parts tab), cost. */
function AddForm({ tab, items, save }: { tab: LibraryTab; items: readonly LineItem[]; save: Save }) {
  const { t } = useTranslation();
  const empty: ItemDraft = { n: '', t: tab === 'fuel' ? KIND.fuel : KIND.part, c: '' };
  const [draft, setDraft] = useState<ItemDraft>(empty);
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    const problem = draftProblem(draft, items);
    if (problem === 'nameRequired') return;
    if (problem) {
      setError(t(`lineitems.${problem}`));
      return;
    }
    setPending(true);
    setError(null);
    try {
      await save(draft);
      setDraft(empty);
      setTouched(false);
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setPending(false);
    }
  };
  return (
    <Paper withBorder p="sm" component="form" onSubmit={submit} data-testid={`add-${tab}`}>
      <Stack gap="xs">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <RequiredInput
            label={t('lineitems.name')}
            value={draft.n}
            maxLength={256}
            touched={touched}
            onBlur={() => setTouched(true)}
            disabled={pending}
            onChange={(n) => setDraft((d) => ({ ...d, n }))}
            style={{ flex: '1 1 12rem' }}
          />
          {tab === 'parts' && (
            <KindControl
              value={draft.t}
              disabled={pending}
              onChange={(k) => setDraft((d) => ({ ...d, t: k }))}
            />
          )}
          <NumericInput
            label={tab === 'fuel' ? t('lineitems.costPerUnit') : t('lineitems.cost')}
            value={draft.c}
            precision={3}
            maxIntegerLength={9}
            disabled={pending}
            onChange={(c) => setDraft((d) => ({ ...d, c }))}
            style={{ flex: '0 1 9rem' }}
          />
          <Button type="submit" loading={pending}>
            {t('lineitems.add')}
          </Button>
        </Group>
        {error && (
          <Alert color="red" role="alert" py="xs">
            {error}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

/** One tab: optional add form, then the table with inline edit and delete. */
function LibraryTable({
  tab,
  items,
  writable,
  currency,
  save,
  onDelete,
}: {
  tab: LibraryTab;
  items: readonly LineItem[];
  writable: boolean;
  currency: string;
  save: Save;
  onDelete: (item: LineItem) => void;
}) {
  const { t } = useTranslation();
  const rows = useMemo(() => itemsOfTab(items, tab), [items, tab]);
  const [editing, setEditing] = useState<{ id: number; draft: ItemDraft } | null>(null);
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const startEdit = (item: LineItem) => {
    setEditing({ id: item.id, draft: { n: item.n, t: item.t as LibraryKind, c: costText(item.c) } });
    setTouched(false);
    setError(null);
  };
  const cancel = () => {
    setEditing(null);
    setError(null);
  };
  const commit = async () => {
    if (!editing) return;
    setTouched(true);
    const problem = draftProblem(editing.draft, items, editing.id);
    if (problem === 'nameRequired') return;
    if (problem) {
      setError(t(`lineitems.${problem}`));
      return;
    }
    setPending(true);
    setError(null);
    try {
      await save(editing.draft, editing.id);
      setEditing(null);
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setPending(false);
    }
  };
  const patch = (p: Partial<ItemDraft>) => setEditing((e) => (e ? { ...e, draft: { ...e.draft, ...p } } : e));

  const columns = useMemo<DataColumn<LineItem>[]>(() => {
    const kindName = (kind: number) => (kind === KIND.labour ? t('lineitems.labour') : t('lineitems.part'));
    const money = (cost: number) => `${formatNumber(cost)}${currency ? ` ${currency}` : ''}`;
    const isEditing = (item: LineItem) => editing?.id === item.id;
    const list: DataColumn<LineItem>[] = [
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
              maxLength={256}
              touched={touched}
              onBlur={() => setTouched(true)}
              disabled={pending}
              onChange={(n) => patch({ n })}
            />
          ) : (
            i.n
          ),
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
            <KindControl value={editing.draft.t} disabled={pending} onChange={(k) => patch({ t: k })} />
          ) : (
            kindName(i.t)
          ),
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
      cell: (i) =>
        isEditing(i) && editing ? (
          <NumericInput
            aria-label={tab === 'fuel' ? t('lineitems.costPerUnit') : t('lineitems.cost')}
            size="xs"
            value={editing.draft.c}
            precision={3}
            maxIntegerLength={9}
            disabled={pending}
            onChange={(c) => patch({ c })}
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
  }, [t, tab, currency, writable, editing, touched, pending]);

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
    </Stack>
  );
}

/** Spec §2 /lineitems: the fleet's library of parts, labour and fuel (PRODUCT.md "Line-items library"). */
export default function LineItemsScreen() {
  const { t } = useTranslation();
  const session = useSession();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const tab: LibraryTab = params.get('tab') === 'fuel' ? 'fuel' : 'parts';
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  const writable = !auth?.su && canWriteLibrary(fleet?.acl ?? 0);
  const key = queryKeys.collection(fid ?? 0, 'lineitem');

  const items = useQuery({
    queryKey: key,
    enabled: fid !== null,
    queryFn: async ({ signal }) =>
      (await api<{ line_items: LineItem[] }>(`/api/fleets/${fid}/line_items`, { signal })).line_items,
  });
  const presets = useQuery({
    queryKey: queryKeys.fuelPresets(fid ?? 0),
    enabled: fid !== null && writable,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async ({ signal }) =>
      (await api<{ fuel_presets: FuelPreset[] }>(`/api/fleets/${fid}/line_items/fuel_presets`, { signal }))
        .fuel_presets,
  });
  const [confirm, setConfirm] = useState<LineItem | null>(null);
  const [presetError, setPresetError] = useState<string | null>(null);

  const refresh = () => client.invalidateQueries({ queryKey: key });
  const save: Save = async (draft, id) => {
    const body = draftBody(draft);
    if (id === undefined) await api(`/api/fleets/${fid}/line_items`, { method: 'POST', body });
    else await api(`/api/fleets/${fid}/line_items/${id}`, { method: 'PUT', body });
    await refresh();
  };
  const remove = useMutation({
    mutationFn: (id: number) => api(`/api/fleets/${fid}/line_items/${id}`, { method: 'DELETE' }),
    onSettled: () => {
      setConfirm(null);
      void refresh();
    },
  });
  const addPreset = useMutation({
    mutationFn: (preset: FuelPreset) =>
      api(`/api/fleets/${fid}/line_items`, {
        method: 'POST',
        body: { n: preset.n, t: KIND.fuel, c: preset.c },
      }),
    onMutate: () => setPresetError(null),
    onError: (err) => setPresetError(errorText(t, err)),
    onSettled: () => void refresh(),
  });

  if (!auth || fid === null) return null;
  const library = items.data ?? [];
  const missing = missingPresets(presets.data ?? [], library);
  const table = (which: LibraryTab) =>
    items.isPending ? null : items.isError ? (
      <Alert color="red" role="alert">
        {t('lineitems.loadFailed')}
      </Alert>
    ) : (
      <LibraryTable
        tab={which}
        items={library}
        writable={writable}
        currency={fleet?.cur ?? ''}
        save={save}
        onDelete={setConfirm}
      />
    );

  return (
    <Stack>
      <Title order={1} size="h2">
        {t('menu.lineitems')}
      </Title>
      <Tabs
        value={tab}
        onChange={(v) =>
          setParams(
            (p) => {
              const next = new URLSearchParams(p);
              if (v === 'fuel') next.set('tab', 'fuel');
              else next.delete('tab');
              return next;
            },
            { replace: true },
          )
        }
      >
        <Tabs.List>
          <Tabs.Tab value="parts">{t('lineitems.partsTab')}</Tabs.Tab>
          <Tabs.Tab value="fuel">{t('lineitems.fuelTab')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="parts" pt="md">
          {tab === 'parts' && table('parts')}
        </Tabs.Panel>
        <Tabs.Panel value="fuel" pt="md">
          {tab === 'fuel' && (
            <Stack gap="sm">
              {writable && (
                <Group>
                  <Menu position="bottom-start" withinPortal>
                    <Menu.Target>
                      <Button variant="light" disabled={missing.length === 0} loading={addPreset.isPending}>
                        {t('lineitems.addPreset')}
                      </Button>
                    </Menu.Target>
                    <Menu.Dropdown>
                      {missing.map((p) => (
                        <Menu.Item key={p.n} onClick={() => addPreset.mutate(p)}>
                          {p.n}
                        </Menu.Item>
                      ))}
                    </Menu.Dropdown>
                  </Menu>
                </Group>
              )}
              {presetError && (
                <Alert color="red" role="alert" py="xs">
                  {presetError}
                </Alert>
              )}
              {table('fuel')}
            </Stack>
          )}
        </Tabs.Panel>
      </Tabs>
      <Modal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={t('lineitems.deleteTitle')}
        centered
      >
        <Text mb="md">{t('lineitems.deleteConfirm', { name: confirm?.n ?? '' })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirm(null)}>
            {t('common.cancel')}
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => confirm && remove.mutate(confirm.id)}>
            {t('common.ok')}
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
