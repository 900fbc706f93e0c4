import { CRITICAL_FAULT_CODES_MAX, criticalFaultCodesBody } from '@fleetkeep/core';
import { Alert, Button, Group, Stack, TagsInput, Text } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/Loading.tsx';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useCriticalFaultCodes, useSetCriticalFaultCodes } from './api.ts';

type Field = 'codes';
interface Draft {
  codes: string[];
}
const fieldOf = (path: readonly string[]): Field | null => (path.includes('codes') ? 'codes' : null);

/**
 * The fleet setting "critical fault codes" (core contracts/fault-codes.ts): codes or prefixes (`P03`
 * covers P0300…P0399); a unit's code that matches is marked critical. Fleet admins edit it, others read.
 */
export function CriticalFaultCodes({ fid, readOnly }: { fid: number; readOnly: boolean }) {
  const critical = useCriticalFaultCodes(fid);
  if (critical.isPending) return <Loading />;
  if (critical.isError) return null;
  return <CriticalFaultCodesForm fid={fid} readOnly={readOnly} codes={critical.data} />;
}

function CriticalFaultCodesForm({
  fid,
  readOnly,
  codes,
}: {
  fid: number;
  readOnly: boolean;
  codes: string[];
}) {
  const { t } = useTranslation();
  const save = useSetCriticalFaultCodes(fid);
  const { draft, errors, failure, edit, validate, showRefusal, accept, dirty } = useEditorForm<Draft, Field>({
    initial: () => ({ codes }),
    schema: criticalFaultCodesBody,
    body: (d) => ({ codes: d.codes }),
    fieldOf,
    text: () => t('faultCodes.criticalInvalid', { max: CRITICAL_FAULT_CODES_MAX }),
    record: { version: codes.join(' '), draft: () => ({ codes }) },
    // The settings form above holds the tab's leave warning (one router blocker at a time).
    leave: false,
    generic: t('common.error'),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    save.mutate(draft.codes, {
      onSuccess: (saved) => accept({ codes: saved.codes }, saved.codes.join(' ')),
      onError: showRefusal,
    });
  };

  return (
    <Stack component="form" onSubmit={submit} gap="xs" data-testid="critical-fault-codes">
      <TagsInput
        label={t('faultCodes.critical')}
        description={t('faultCodes.criticalHint')}
        value={draft.codes}
        onChange={(value) =>
          edit({ codes: value.map((c) => c.trim().toUpperCase()).filter(Boolean) }, 'codes')
        }
        splitChars={[',', ' ', ';']}
        maxTags={CRITICAL_FAULT_CODES_MAX}
        clearable={!readOnly}
        disabled={readOnly || save.isPending}
        error={errors.codes || undefined}
        data-testid="critical-fault-codes-input"
      />
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      {!readOnly && (
        <Group gap="sm">
          <Button
            type="submit"
            loading={save.isPending}
            disabled={!dirty}
            data-testid="critical-fault-codes-save"
          >
            {t('common.save')}
          </Button>
          {save.isSuccess && !dirty && (
            <Text size="sm" c="green">
              {t('fleetAdmin.saved')}
            </Text>
          )}
        </Group>
      )}
    </Stack>
  );
}
