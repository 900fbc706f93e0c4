import type { CustomFieldValue } from '@fleetkeep/core';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CustomFieldsEditor } from '../../../components/CustomFieldsEditor.tsx';
import { useCustomFields } from '../../../lib/fleetData.ts';

/**
 * Tab 4: the service's custom field values (spec §3 `cf`; the fleet's service fields, owner type `s`).
 * Editable on an open service with manageService and on an archived one with archiveEdit (the editor's
 * mode); sent with the editor's save. `errors` holds the editor's `cf.{index}` field errors.
 */
export function CustomFieldsTab({
  fid,
  values,
  onChange,
  readOnly,
  disabled,
  errors,
}: {
  fid: number;
  values: CustomFieldValue[];
  onChange(values: CustomFieldValue[]): void;
  readOnly: boolean;
  disabled: boolean;
  errors: Partial<Record<string, string>>;
}) {
  const { t } = useTranslation();
  const fields = useCustomFields(fid);
  if (fields.isPending) return <Text c="dimmed">{t('common.loading')}</Text>;
  if (fields.isError) return <Text c="red">{t('customFields.loadFailed')}</Text>;
  // Server details name the index in the list sent, which is the form's list (edits clear the errors).
  const byId: Record<number, string> = {};
  values.forEach((v, i) => {
    const e = errors[`cf.${i}`];
    if (e) byId[v.id] = e;
  });
  return (
    <div data-testid="service-custom">
      <CustomFieldsEditor
        ownerType="s"
        fields={fields.data}
        values={values}
        onChange={onChange}
        readOnly={readOnly}
        disabled={disabled}
        errors={byId}
      />
    </div>
  );
}
