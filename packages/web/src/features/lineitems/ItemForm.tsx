import { Limits, type LineItemWire } from '@fleetkeep/core';
import { Alert, Button, Group, Paper, Stack } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NumericInput } from '../../components/NumericInput.tsx';
import { RequiredInput } from '../../components/RequiredInput.tsx';
import { ButtonGroup } from '../../components/Toggles.tsx';
import { ApiError } from '../../lib/api.ts';
import {
  draftProblem,
  type ItemDraft,
  KIND,
  type LibraryKind,
  type LibraryTab,
  saveErrorKey,
} from './rules.ts';

export type Save = (draft: ItemDraft, id?: number) => Promise<unknown>;

export function errorText(t: (key: string) => string, error: unknown): string {
  return t(saveErrorKey(error instanceof ApiError ? error.code : undefined));
}

export function KindControl({
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
export function AddForm({
  tab,
  items,
  save,
}: {
  tab: LibraryTab;
  items: readonly LineItemWire[];
  save: Save;
}) {
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
            maxLength={Limits.stringMax}
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
