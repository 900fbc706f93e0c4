import type { LineItemFuelPresetWire, LineItemWire } from '@fleetkeep/core';
import { Alert, Button, FileButton, Group, Menu, Stack, Tabs, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ScrollTabs } from '../../components/ScrollTabs/ScrollTabs.tsx';
import { client } from '../../lib/client.ts';
import { useLibrary } from '../../lib/fleetData.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useCan } from '../../lib/useCan.ts';
import { errorText, type Save } from './ItemForm.tsx';
import { LibraryTable } from './LibraryTable.tsx';
import { draftBody, KIND, type LibraryTab, missingPresets } from './rules.ts';

/** Spec §2 /lineitems: the fleet's library of parts, labour and fuel (PRODUCT.md "Line-items library"). */
export default function LineItemsScreen() {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const [params, patchParams] = useUrlParams();
  const tab: LibraryTab = params.get('tab') === 'fuel' ? 'fuel' : 'parts';
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  const writable = useCan('lineitem.manage');
  const navigate = useNavigate();
  const key = queryKeys.collection(fid ?? 0, 'lineitem');

  const items = useLibrary(fid);
  const presets = useQuery({
    queryKey: queryKeys.fuelPresets(fid ?? 0),
    enabled: fid !== null && writable,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async ({ signal }) => (await client.lineitems.fuelPresets(fid ?? 0, { signal })).fuel_presets,
  });
  const [confirm, setConfirm] = useState<LineItemWire | null>(null);
  const [presetError, setPresetError] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const save: Save = async (draft, id) => {
    const body = draftBody(draft);
    if (id === undefined) await client.lineitems.create(fid ?? 0, body);
    else await client.lineitems.update(fid ?? 0, id, body);
    await refresh();
  };
  const remove = useMutation({
    mutationFn: (id: number) => client.lineitems.remove(fid ?? 0, id),
    onSettled: () => {
      setConfirm(null);
      void refresh();
    },
  });
  const addPreset = useMutation({
    mutationFn: (preset: LineItemFuelPresetWire) =>
      client.lineitems.create(fid ?? 0, { n: preset.n, t: KIND.fuel, c: preset.c }),
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
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1} size="h2">
          {t('menu.lineitems')}
        </Title>
        {writable && (
          <FileButton
            accept=".csv,.txt,.xlsx"
            onChange={(file) => file && navigate('/lineitems/import', { state: { file } })}
          >
            {(props) => (
              <Button variant="default" data-testid="import-open" {...props}>
                {t('imports.action')}
              </Button>
            )}
          </FileButton>
        )}
      </Group>
      <ScrollTabs
        value={tab}
        onChange={(v) =>
          patchParams((p) => {
            if (v === 'fuel') p.set('tab', 'fuel');
            else p.delete('tab');
            return p;
          })
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
      </ScrollTabs>
      <ConfirmDialog
        opened={confirm !== null}
        title={t('lineitems.deleteTitle')}
        text={t('lineitems.deleteConfirm', { name: confirm?.n ?? '' })}
        busy={remove.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => confirm && remove.mutate(confirm.id)}
      />
    </Stack>
  );
}
