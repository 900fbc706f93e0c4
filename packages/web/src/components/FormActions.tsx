import { Alert, Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The foot of a dialog's form: the failure the form shows above its buttons (a refusal no field
 * names), then Cancel and the submit button (Save unless `submitLabel` says otherwise).
 */
export function FormActions({
  failure,
  onCancel,
  busy,
  submitLabel,
  color,
  testId,
}: {
  failure: string | null;
  onCancel: () => void;
  busy: boolean;
  submitLabel?: ReactNode;
  color?: string;
  /** The submit button's `data-testid`. */
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" color={color} loading={busy} data-testid={testId}>
          {submitLabel ?? t('common.save')}
        </Button>
      </Group>
    </>
  );
}
