import {
  CUSTOM_VALUE_MAX,
  type CustomFieldOwnerType,
  CustomFieldType,
  type CustomFieldValue,
  type CustomFieldWire,
} from '@fleetkeep/core';
import { SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fieldsOf, fieldValue, optionsOf, withValue } from '../lib/customFields.ts';
import { Select } from './Select.tsx';

/** The select value of "no value"; not a string a user can type into an option (a control character). */
const NOT_SET = '\u0000';

export interface CustomFieldsEditorProps {
  ownerType: CustomFieldOwnerType;
  /** The fleet's definitions (all owner types; those of `ownerType` are shown, sorted by name). */
  fields: readonly CustomFieldWire[];
  values: readonly CustomFieldValue[];
  onChange(values: CustomFieldValue[]): void;
  readOnly?: boolean;
  disabled?: boolean;
  /** Errors per field id (server details mapped with `errorsById`). */
  errors?: Readonly<Record<number, string>>;
}

/**
 * The values of an object's or service's custom fields: a text input per text field, a select per
 * list field (spec §3 "Custom field"). Read-only it shows the values as text, '-' when empty (spec §4).
 */
export function CustomFieldsEditor({
  ownerType,
  fields,
  values,
  onChange,
  readOnly = false,
  disabled = false,
  errors = {},
}: CustomFieldsEditorProps) {
  const { t } = useTranslation();
  const own = fieldsOf(fields, ownerType);
  if (own.length === 0)
    return (
      <Text c="dimmed" size="sm" data-testid="custom-fields-empty">
        {t('customFields.empty')}
      </Text>
    );
  const set = (id: number, v: string) => onChange(withValue(own, values, id, v));
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" data-testid="custom-fields">
      {own.map((field) => {
        const value = fieldValue(values, field.id);
        const testId = `cf-${field.id}`;
        if (readOnly)
          return (
            <Stack key={field.id} gap={0}>
              <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {field.n}
              </Text>
              <Text data-testid={testId} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
                {value || '-'}
              </Text>
            </Stack>
          );
        if (field.tp === CustomFieldType.list) {
          const options = optionsOf(field);
          // A value no longer among the options still shows, so that saving does not drop it unseen.
          const shown = value && !options.includes(value) ? [value, ...options] : options;
          // "Not set" first: clearing by keyboard too (Mantine's clear button is hidden from assistive tech).
          const items = [
            { value: NOT_SET, label: t('customFields.choose') },
            ...shown.map((o) => ({ value: o, label: o })),
          ];
          return (
            <Select
              key={field.id}
              label={field.n}
              placeholder={t('customFields.choose')}
              options={items}
              value={value || null}
              onChange={(v) => set(field.id, v === null || v === NOT_SET ? '' : v)}
              clearable
              disabled={disabled}
              error={errors[field.id]}
              data-testid={testId}
            />
          );
        }
        return (
          <TextInput
            key={field.id}
            label={field.n}
            value={value}
            maxLength={CUSTOM_VALUE_MAX}
            onChange={(e) => set(field.id, e.currentTarget.value)}
            disabled={disabled}
            error={errors[field.id]}
            data-testid={testId}
          />
        );
      })}
    </SimpleGrid>
  );
}
