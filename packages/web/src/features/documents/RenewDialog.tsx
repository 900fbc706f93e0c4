import { type DocumentDetailWire, documentRenewBody, Limits } from '@fleetkeep/core';
import { Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DatePicker } from '../../components/DatePicker.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useRenewDocument } from './api.ts';
import { useDocumentFormat } from './format.ts';
import { type RenewDraft, renewBody, unixToDay } from './rules.ts';

type Field = 'number' | 'validFrom' | 'validTo' | 'cost';
const fieldOf = (path: readonly string[]): Field | null => {
  const head = path[0];
  if (head === 'valid_from') return 'validFrom';
  if (head === 'valid_to') return 'validTo';
  if (head === 'number' || head === 'cost') return head;
  return null;
};

/** "Renew": a new period from the current one's end; the current one goes to the history. */
export function RenewDialog({ document, onClose }: { document: DocumentDetailWire; onClose: () => void }) {
  const { t } = useTranslation();
  const fmt = useDocumentFormat();
  const renew = useRenewDocument(fmt.fid, document.id);
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<RenewDraft, Field>({
    initial: () => ({
      number: document.number,
      validFrom: unixToDay(fmt.tz, document.valid_to + 1),
      validTo: null,
      cost: '',
    }),
    schema: documentRenewBody,
    body: (d) => renewBody(fmt.tz, d),
    fieldOf,
    text: (problem) => (problem === 'required' ? t('documents.required') : t('documents.invalid')),
    check: (d) => (d.validTo === null ? { validTo: t('documents.required') } : {}),
    generic: t('common.error'),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    renew.mutate(renewBody(fmt.tz, draft), { onSuccess: onClose, onError: showRefusal });
  };
  return (
    <Modal opened onClose={onClose} title={t('documents.renew')} centered data-testid="doc-renew-dialog">
      <Stack component="form" onSubmit={submit} gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <DatePicker
            label={t('documents.field.validFrom')}
            value={draft.validFrom}
            dateFormat={fmt.dateFormat}
            onChange={(v) => edit({ validFrom: v }, 'validFrom')}
            error={errors.validFrom || undefined}
            data-testid="doc-renew-from"
          />
          <DatePicker
            label={t('documents.field.validTo')}
            withAsterisk
            value={draft.validTo}
            dateFormat={fmt.dateFormat}
            onChange={(v) => edit({ validTo: v }, 'validTo')}
            error={errors.validTo || undefined}
            data-testid="doc-renew-to"
          />
          <TextInput
            label={t('documents.field.number')}
            maxLength={Limits.stringMax}
            value={draft.number}
            onChange={(e) => edit({ number: e.currentTarget.value }, 'number')}
            error={errors.number || undefined}
            data-testid="doc-renew-number"
          />
          <TextInput
            label={t('documents.field.cost')}
            inputMode="decimal"
            value={draft.cost}
            onChange={(e) => edit({ cost: e.currentTarget.value }, 'cost')}
            error={errors.cost || undefined}
            data-testid="doc-renew-cost"
          />
        </SimpleGrid>
        <FormActions failure={failure} onCancel={onClose} busy={renew.isPending} testId="doc-renew-submit" />
      </Stack>
    </Modal>
  );
}
