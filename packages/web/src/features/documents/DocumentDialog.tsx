import {
  DOCUMENT_TYPES,
  type DocumentDetailWire,
  documentCreateBody,
  documentUpdateBody,
  Limits,
} from '@fleetkeep/core';
import { Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DatePicker } from '../../components/DatePicker.tsx';
import { FormActions } from '../../components/FormActions.tsx';
import { Select } from '../../components/Select.tsx';
import type { Problem } from '../../lib/coreResolver.ts';
import { useDrivers, useTrailers, useUnits } from '../../lib/fleetData.ts';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useCreateDocument, useDocumentTypes, useUpdateDocument } from './api.ts';
import { useDocumentFormat } from './format.ts';
import { createBody, type DocumentDraft, unixToDay, updateBody } from './rules.ts';

const FIELDS = ['owner', 'type', 'number', 'issuer', 'validFrom', 'validTo', 'cost'] as const;
type Field = (typeof FIELDS)[number];
const fieldOf = (path: readonly string[]): Field | null => {
  const head = path[0];
  if (head === 'owner_type' || head === 'owner_id') return 'owner';
  if (head === 'type' || head === 'type_id') return 'type';
  if (head === 'valid_from') return 'validFrom';
  if (head === 'valid_to') return 'validTo';
  if (head === 'number' || head === 'issuer' || head === 'cost') return head;
  return null;
};

/**
 * "New document" and "Edit document" (docs/product.md "Documents"): the owner (a unit, trailer or
 * driver; fixed once made), the type (built-in or fleet-defined), number, issuer, the current period and
 * its cost. Opened from an object's tab, the owner is chosen already.
 */
export function DocumentDialog({
  onClose,
  onSaved,
  owner,
  document,
}: {
  onClose: () => void;
  onSaved: (id: number) => void;
  owner?: string;
  document?: DocumentDetailWire;
}) {
  const { t } = useTranslation();
  const fmt = useDocumentFormat();
  const { fid, tz } = fmt;
  const units = useUnits(fid);
  const trailers = useTrailers(fid);
  const drivers = useDrivers(fid);
  const types = useDocumentTypes(fid);
  const create = useCreateDocument(fid);
  const update = useUpdateDocument(fid, document?.id ?? 0);
  const text = (problem: Problem) =>
    problem === 'required' ? t('documents.required') : t('documents.invalid');
  const body = (d: DocumentDraft) => (document ? updateBody(tz, d) : createBody(tz, d));
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<DocumentDraft, Field>({
    initial: () =>
      document
        ? {
            owner: `${document.owner_type}:${document.owner_id}`,
            type: document.type === 'custom' ? `c:${document.type_id}` : document.type,
            number: document.number,
            issuer: document.issuer,
            validFrom: unixToDay(tz, document.valid_from),
            validTo: unixToDay(tz, document.valid_to),
            cost: document.cost === null ? '' : String(document.cost),
          }
        : {
            owner: owner ?? null,
            type: null,
            number: '',
            issuer: '',
            validFrom: null,
            validTo: null,
            cost: '',
          },
    schema: document ? documentUpdateBody : documentCreateBody,
    body,
    fieldOf,
    text,
    check: (d) => ({
      ...(d.owner === null && { owner: t('documents.required') }),
      ...(d.type === null && { type: t('documents.required') }),
      ...(d.validTo === null && { validTo: t('documents.required') }),
    }),
    generic: t('common.error'),
  });

  const ownerOptions = useMemo(
    () => [
      ...(units.data ?? []).map((u) => ({ value: `u:${u.id}`, label: u.nm, group: t('documents.owner.u') })),
      ...(trailers.data ?? []).map((p) => ({
        value: `t:${p.id}`,
        label: p.n,
        group: t('documents.owner.t'),
      })),
      ...(drivers.data ?? []).map((p) => ({ value: `d:${p.id}`, label: p.n, group: t('documents.owner.d') })),
    ],
    [units.data, trailers.data, drivers.data, t],
  );
  const typeOptions = [
    ...DOCUMENT_TYPES.filter((k) => k !== 'custom').map((k) => ({
      value: k,
      label: t(`documents.type.${k}`),
    })),
    ...(types.data ?? []).map((c) => ({ value: `c:${c.id}`, label: c.name })),
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    if (document)
      update.mutate(updateBody(tz, draft), { onSuccess: (d) => onSaved(d.id), onError: showRefusal });
    else create.mutate(createBody(tz, draft), { onSuccess: (d) => onSaved(d.id), onError: showRefusal });
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t(document ? 'documents.edit' : 'documents.new')}
      centered
      size="lg"
      data-testid="doc-dialog"
    >
      <Stack component="form" onSubmit={submit} gap="sm">
        <Select
          label={t('documents.field.owner')}
          withAsterisk
          options={ownerOptions}
          value={draft.owner}
          disabled={document !== undefined || owner !== undefined}
          onChange={(v) => edit({ owner: v }, 'owner')}
          error={errors.owner || undefined}
          data-testid="doc-owner"
        />
        <Select
          label={t('documents.field.type')}
          withAsterisk
          options={typeOptions}
          value={draft.type}
          onChange={(v) => edit({ type: v }, 'type')}
          error={errors.type || undefined}
          data-testid="doc-type"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('documents.field.number')}
            maxLength={Limits.stringMax}
            value={draft.number}
            onChange={(e) => edit({ number: e.currentTarget.value }, 'number')}
            error={errors.number || undefined}
            data-testid="doc-number"
          />
          <TextInput
            label={t('documents.field.issuer')}
            maxLength={Limits.stringMax}
            value={draft.issuer}
            onChange={(e) => edit({ issuer: e.currentTarget.value }, 'issuer')}
            error={errors.issuer || undefined}
            data-testid="doc-issuer"
          />
          <DatePicker
            label={t('documents.field.validFrom')}
            value={draft.validFrom}
            dateFormat={fmt.dateFormat}
            onChange={(v) => edit({ validFrom: v }, 'validFrom')}
            error={errors.validFrom || undefined}
            data-testid="doc-valid-from"
          />
          <DatePicker
            label={t('documents.field.validTo')}
            withAsterisk
            value={draft.validTo}
            dateFormat={fmt.dateFormat}
            onChange={(v) => edit({ validTo: v }, 'validTo')}
            error={errors.validTo || undefined}
            data-testid="doc-valid-to"
          />
          <TextInput
            label={t('documents.field.cost')}
            inputMode="decimal"
            value={draft.cost}
            onChange={(e) => edit({ cost: e.currentTarget.value }, 'cost')}
            error={errors.cost || undefined}
            data-testid="doc-cost"
          />
        </SimpleGrid>
        <FormActions
          failure={failure}
          onCancel={onClose}
          busy={create.isPending || update.isPending}
          testId="doc-submit"
        />
      </Stack>
    </Modal>
  );
}
