import { componentSettingsBody, routes } from '@fleetkeep/core';
import { Button, Group } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NumericInput } from '../../components/NumericInput.tsx';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useCan } from '../../lib/useCan.ts';
import { useEditorForm } from '../../lib/useEditorForm.tsx';

interface Draft {
  tread_threshold: string;
}
const fieldOf = (path: readonly string[]): 'tread_threshold' | null =>
  path[0] === 'tread_threshold' ? 'tread_threshold' : null;

/** The fleet's tread-depth threshold (a reading under it notifies, kind 4096); managers change it. */
export function ThresholdSetting({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const canEdit = useCan(routes.components.updateSettings);
  const queryClient = useQueryClient();
  const key = [...queryKeys.fleet(fid), 'components', 'settings'];
  const settings = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => client.components.settings(fid, { signal }),
  });
  const save = useMutation({
    mutationFn: (body: Draft) => client.components.updateSettings(fid, body),
    onSuccess: () =>
      void queryClient.invalidateQueries({ queryKey: [...queryKeys.fleet(fid), 'components'] }),
  });
  const { draft, errors, failure, edit, validate, showRefusal, accept, dirty } = useEditorForm<
    Draft,
    'tread_threshold'
  >({
    initial: () => ({ tread_threshold: '' }),
    schema: componentSettingsBody,
    body: (d) => d,
    fieldOf,
    text: () => t('fleetAdmin.notify.invalid'),
    generic: t('common.error'),
  });
  const loaded = settings.data?.tread_threshold;
  useEffect(() => {
    if (loaded !== undefined) accept({ tread_threshold: String(loaded) });
  }, [loaded]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    try {
      const saved = await save.mutateAsync(draft);
      accept({ tread_threshold: String(saved.tread_threshold) });
    } catch (err) {
      showRefusal(err);
    }
  };
  return (
    <Group component="form" onSubmit={(e) => void submit(e)} align="flex-end" gap="xs">
      <NumericInput
        label={t('components.threshold')}
        value={draft.tread_threshold}
        precision={1}
        disabled={!canEdit}
        onChange={(v) => edit({ tread_threshold: v }, 'tread_threshold')}
        error={errors.tread_threshold || failure || undefined}
        w={200}
        data-testid="comp-threshold"
      />
      {canEdit && (
        <Button type="submit" variant="default" disabled={!dirty} loading={save.isPending}>
          {t('common.save')}
        </Button>
      )}
    </Group>
  );
}
