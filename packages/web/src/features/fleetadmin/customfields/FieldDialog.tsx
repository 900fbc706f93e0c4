import {
  CUSTOM_FIELD_OPTIONS_MAX,
  type CustomFieldOwnerType,
  CustomFieldType,
  type CustomFieldWire,
  Limits,
} from '@fleetkeep/core';
import {
  Alert,
  Button,
  CloseButton,
  Group,
  Input,
  Modal,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { Select } from '../../../components/Select.tsx';
import type { Problem } from '../../../lib/coreResolver.ts';
import type { FieldErrors } from '../../../lib/editorForm.ts';
import { useEditorForm } from '../../../lib/useEditorForm.tsx';
import { useCreateField, useUpdateField } from './api.ts';
import {
  createBody,
  draftChanged,
  draftOf,
  type FieldDraft,
  type FieldType,
  fieldSchema,
  OWNER_LABEL,
  OWNER_TYPES,
  optionRow,
  ownProblems,
  serverFieldOf,
  updateBody,
  valuesOutside,
} from './rules.ts';

type Field = 'n' | 'options' | `option.${number}`;

/**
 * "New field" and "Edit field" (PRODUCT.md "Administration": name, type text or list with options, owner
 * type). The owner type is chosen once: the server keeps it, since values belong to their owners.
 * Closing with unsaved changes asks first.
 */
export function FieldDialog({
  fid,
  field,
  fields,
  ownerType,
  onClose,
}: {
  fid: number;
  /** The field being edited; null for a new one. */
  field: CustomFieldWire | null;
  /** The fleet's definitions, for the duplicate-name check. */
  fields: readonly CustomFieldWire[];
  /** The owner type a new field starts with (the table's filter, when set). */
  ownerType?: CustomFieldOwnerType;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [start] = useState(() => draftOf(field, ownerType));
  // The core contract's problems: the name's length, the number of options, an option's sent length.
  const problemText = (problem: Problem, at: Field, limit: number | null): string => {
    if (at === 'n')
      return problem === 'required' ? t('fleetAdmin.nameRequired') : t('fleetAdmin.nameTooLong');
    if (at === 'options') return t('customFieldsAdmin.tooManyOptions', { max: limit });
    return t('customFieldsAdmin.optionTooLong', { max: Limits.stringMax });
  };
  const ownErrors = (d: FieldDraft): FieldErrors<Field> => {
    const p = ownProblems(d, fields, field?.id ?? null);
    const out: FieldErrors<Field> = {};
    if (p.n) out.n = t('customFieldsAdmin.duplicateName');
    if (p.options) out.options = t('customFieldsAdmin.needOption');
    for (const [i, problem] of Object.entries(p.option))
      out[`option.${Number(i)}`] =
        problem === 'empty'
          ? t('customFieldsAdmin.optionEmpty')
          : problem === 'tooLong'
            ? t('customFieldsAdmin.optionTooLong', { max: Limits.stringMax })
            : t('customFieldsAdmin.optionDuplicate');
    return out;
  };
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<FieldDraft, Field>({
    initial: () => start,
    schema: fieldSchema(field !== null),
    body: field ? updateBody : createBody,
    fieldOf: serverFieldOf,
    text: problemText,
    check: ownErrors,
    generic: t('common.error'),
    reword: (err, view) => {
      const outside = valuesOutside(err.code, err.details);
      if (outside.length > 0) {
        const values = outside.map((o) => `${o.value} (${o.count})`).join(', ');
        return { fields: { options: t('customFieldsAdmin.valuesOutside', { values }) }, failure: null };
      }
      // 409: the name is taken for this owner type (the server names `body.n`), said in the user's language.
      if (err.code !== 10 || !('n' in view.fields)) return view;
      return { ...view, fields: { ...view.fields, n: t('customFieldsAdmin.duplicateName') } };
    },
  });
  const [asking, setAsking] = useState(false);
  const create = useCreateField(fid);
  const update = useUpdateField(fid);
  const busy = create.isPending || update.isPending;
  // Closing asks when the draft differs once trimmed (a blank typed and removed is no change).
  const dirty = draftChanged(draft, start);

  const setOption = (index: number, text: string) =>
    edit(
      { options: draft.options.map((o, i) => (i === index ? { ...o, text } : o)) },
      `option.${index}`,
      'options',
    );
  // Row errors follow their index, so removing a row clears them all rather than misplacing them.
  const removeOption = (index: number) =>
    edit(
      { options: draft.options.filter((_, i) => i !== index) },
      ...(Object.keys(errors).filter((k) => k.startsWith('option')) as Field[]),
    );
  const addOption = () => edit({ options: [...draft.options, optionRow()] }, 'options');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    if (field)
      update.mutate({ id: field.id, body: updateBody(draft) }, { onSuccess: onClose, onError: showRefusal });
    else create.mutate(createBody(draft), { onSuccess: onClose, onError: showRefusal });
  };

  const close = () => {
    if (busy) return;
    if (dirty) setAsking(true);
    else onClose();
  };

  const ownerOptions = OWNER_TYPES.map((o) => ({ value: o, label: t(OWNER_LABEL[o]) }));
  const isList = draft.tp === CustomFieldType.list;

  return (
    <>
      <Modal
        opened
        onClose={close}
        title={field ? t('customFieldsAdmin.editTitle') : t('customFieldsAdmin.newTitle')}
        centered
        data-testid="cf-dialog"
      >
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput
              label={t('lineitems.name')}
              required
              data-autofocus
              maxLength={Limits.stringMax}
              value={draft.n}
              error={errors.n}
              disabled={busy}
              onChange={(e) => edit({ n: e.currentTarget.value }, 'n')}
              data-testid="cf-name"
            />
            <Select
              label={t('customFieldsAdmin.ownerType')}
              description={field ? t('customFieldsAdmin.ownerFixed') : undefined}
              options={ownerOptions}
              value={draft.t}
              allowDeselect={false}
              searchable={false}
              disabled={busy || field !== null}
              onChange={(v) => v && edit({ t: v as CustomFieldOwnerType }, 'n')}
              data-testid="cf-owner"
            />
            <Input.Wrapper label={t('lineitems.type')} id="cf-type">
              <SegmentedControl
                fullWidth
                aria-labelledby="cf-type-label"
                value={String(draft.tp)}
                disabled={busy}
                onChange={(v) =>
                  edit(
                    { tp: (v === '2' ? CustomFieldType.list : CustomFieldType.text) as FieldType },
                    'options',
                  )
                }
                data={[
                  { value: String(CustomFieldType.text), label: t('customFieldsAdmin.typeText') },
                  { value: String(CustomFieldType.list), label: t('customFieldsAdmin.typeList') },
                ]}
                data-testid="cf-type"
              />
            </Input.Wrapper>
            {isList && (
              <Input.Wrapper
                label={t('customFieldsAdmin.options')}
                required
                error={errors.options}
                id="cf-options"
              >
                <Stack gap={6} mt={4} data-testid="cf-options">
                  {draft.options.map((option, index) => (
                    <Group key={option.key} gap={4} wrap="nowrap" align="flex-start">
                      <TextInput
                        style={{ flex: 1, minWidth: 0 }}
                        aria-label={t('customFieldsAdmin.option', { n: index + 1 })}
                        value={option.text}
                        maxLength={Limits.stringMax * 4}
                        error={errors[`option.${index}`]}
                        disabled={busy}
                        onChange={(e) => setOption(index, e.currentTarget.value)}
                        onKeyDown={(e) => {
                          // Enter in the last option adds the next one instead of saving.
                          if (e.key === 'Enter' && index === draft.options.length - 1) {
                            e.preventDefault();
                            addOption();
                          }
                        }}
                        data-testid={`cf-option-${index}`}
                      />
                      <CloseButton
                        mt={4}
                        aria-label={t('customFieldsAdmin.removeOption', { n: index + 1 })}
                        title={t('customFieldsAdmin.removeOption', { n: index + 1 })}
                        disabled={busy || draft.options.length === 1}
                        onClick={() => removeOption(index)}
                      />
                    </Group>
                  ))}
                  <Group>
                    <Button
                      variant="default"
                      size="xs"
                      onClick={addOption}
                      disabled={busy || draft.options.length >= CUSTOM_FIELD_OPTIONS_MAX}
                      data-testid="cf-add-option"
                    >
                      {t('customFieldsAdmin.addOption')}
                    </Button>
                  </Group>
                </Stack>
              </Input.Wrapper>
            )}
            {field && field.tp === CustomFieldType.list && !isList && (
              <Text size="sm" c="dimmed">
                {t('customFieldsAdmin.toTextNote')}
              </Text>
            )}
            {failure && (
              <Alert color="red" role="alert">
                {failure}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close} disabled={busy}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={busy} data-testid="cf-save">
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <ConfirmDialog
        opened={asking}
        title={t('leave.title')}
        text={t('customFieldsAdmin.discard')}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          onClose();
        }}
      />
    </>
  );
}
