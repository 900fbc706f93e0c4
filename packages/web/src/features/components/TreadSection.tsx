import { type ComponentDetailWire, componentTreadBody } from '@fleetkeep/core';
import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NumericInput } from '../../components/NumericInput.tsx';
import { useSession } from '../../lib/session.ts';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useComponentAction } from './api.ts';
import { useComponentFormat } from './format.ts';

interface Draft {
  depth: string;
}
const fieldOf = (path: readonly string[]): 'depth' | null => (path[0] === 'depth' ? 'depth' : null);

/** Tread-depth readings over time (a reading under the fleet's threshold is marked and notifies). */
export function TreadSection({ c, canManage }: { c: ComponentDetailWire; canManage: boolean }) {
  const { t } = useTranslation();
  const session = useSession();
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const act = useComponentAction(fid);
  const fmt = useComponentFormat();
  const { draft, errors, failure, edit, validate, showRefusal, accept } = useEditorForm<Draft, 'depth'>({
    initial: () => ({ depth: '' }),
    schema: componentTreadBody,
    body: (d) => ({ depth: d.depth }),
    fieldOf,
    text: () => t('fleetAdmin.notify.invalid'),
    generic: t('common.error'),
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    try {
      await act.mutateAsync({ action: 'tread', id: c.id, body: { depth: draft.depth } });
      accept({ depth: '' });
    } catch (err) {
      showRefusal(err);
    }
  };
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t('components.treads')}
      </Title>
      {c.treads.length === 0 ? (
        <Text c="dimmed">{t('components.noTreads')}</Text>
      ) : (
        <Table data-testid="comp-treads" maw={420}>
          <Table.Tbody>
            {[...c.treads].reverse().map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>{fmt.date(r.at)}</Table.Td>
                <Table.Td>
                  <Group gap={6}>
                    {fmt.depth(r.depth)}
                    {r.low && (
                      <Badge color="red" size="sm">
                        {t('components.treadLow')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canManage && c.state !== 'retired' && (
        <Group component="form" onSubmit={(e) => void submit(e)} align="flex-start" gap="xs">
          <NumericInput
            aria-label={t('components.field.treadMm')}
            placeholder={t('components.field.treadMm')}
            value={draft.depth}
            precision={1}
            onChange={(depth) => edit({ depth }, 'depth')}
            error={errors.depth || failure || undefined}
            w={160}
            data-testid="comp-tread-input"
          />
          <Button type="submit" variant="default" loading={act.isPending} data-testid="comp-tread-add">
            {t('components.addReading')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
