import { type InspectionFormWire, routes } from '@fleetkeep/core';
import { Anchor, Badge, Button, Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Loading } from '../../components/Loading.tsx';
import { client } from '../../lib/client.ts';
import { usePermissions } from '../../lib/useCan.ts';
import { inspectionKeys, useDeleteForm, useInspectionForms } from './api.ts';
import { FormEditor } from './FormEditor.tsx';
import { useFormName, useInspectionContext } from './shared.tsx';

/** The fleet's retention of inspections (fleet admins change it; at least 3 months). */
function Retention({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const can = usePermissions();
  const qc = useQueryClient();
  const settings = useQuery({
    queryKey: inspectionKeys.settings(fid),
    queryFn: ({ signal }) => client.inspections.settings(fid, { signal }),
  });
  const save = useMutation({
    mutationFn: (rm: number) => client.inspections.setSettings(fid, { rm }),
    onSettled: () => qc.invalidateQueries({ queryKey: inspectionKeys.settings(fid) }),
  });
  const [value, setValue] = useState<number | null>(null);
  if (!settings.data) return null;
  const shown = value ?? settings.data.rm;
  const editable = can(routes.inspections.setSettings);
  return (
    <Group align="flex-end">
      <NumberInput
        label={t('inspections.retention')}
        description={t('inspections.retentionHint')}
        value={shown}
        min={3}
        max={120}
        disabled={!editable}
        onChange={(v) => setValue(typeof v === 'number' ? v : null)}
        error={shown < 3 ? t('inspections.retentionHint') : undefined}
      />
      {editable && (
        <Button
          variant="default"
          disabled={shown === settings.data.rm || shown < 3}
          loading={save.isPending}
          onClick={() => save.mutate(shown)}
        >
          {t('common.save')}
        </Button>
      )}
    </Group>
  );
}

/** /inspections/forms: the fleet's forms, the built-in DVIR first (copyable, not editable). */
export default function FormsScreen() {
  const { t } = useTranslation();
  const { fid } = useInspectionContext();
  const forms = useInspectionForms(fid);
  const remove = useDeleteForm(fid ?? 0);
  const formName = useFormName();
  const [editing, setEditing] = useState<{ source: InspectionFormWire | null; copy: boolean } | null>(null);
  const [deleting, setDeleting] = useState<InspectionFormWire | null>(null);
  if (fid === null) return null;
  if (forms.isPending) return <Loading />;
  return (
    <Stack maw={820}>
      <Anchor component={Link} to="/inspections" size="sm">
        ← {t('inspections.back')}
      </Anchor>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('inspections.forms')}
        </Title>
        <Button onClick={() => setEditing({ source: null, copy: false })}>{t('inspections.newForm')}</Button>
      </Group>
      {(forms.data ?? []).map((f) => (
        <Paper key={f.id} withBorder p="sm" radius="md" data-testid={`form-${f.id}`}>
          <Group justify="space-between" wrap="wrap">
            <Stack gap={2}>
              <Group gap="xs">
                <Text fw={600}>{formName(f)}</Text>
                {f.bi && <Badge variant="light">{t('inspections.builtin')}</Badge>}
              </Group>
              <Text size="sm" c="dimmed">
                {t('inspections.items')}: {f.items.length}
                {f.used > 0 ? ` · ${t('inspections.formUsed', { n: f.used })}` : ''}
              </Text>
            </Stack>
            <Group gap="xs">
              {!f.bi && (
                <Button size="xs" variant="default" onClick={() => setEditing({ source: f, copy: false })}>
                  {t('inspections.editForm')}
                </Button>
              )}
              <Button size="xs" variant="default" onClick={() => setEditing({ source: f, copy: true })}>
                {t('inspections.copy')}
              </Button>
              {!f.bi && (
                <Button size="xs" color="red" variant="light" onClick={() => setDeleting(f)}>
                  {t('inspections.deleteForm')}
                </Button>
              )}
            </Group>
          </Group>
        </Paper>
      ))}
      <Retention fid={fid} />
      {editing && (
        <FormEditor fid={fid} source={editing.source} copy={editing.copy} onClose={() => setEditing(null)} />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('inspections.deleteForm')}
        text={t('inspections.deleteFormConfirm')}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={async () => {
          if (deleting) await remove.mutateAsync(deleting.id);
          setDeleting(null);
        }}
      />
    </Stack>
  );
}
