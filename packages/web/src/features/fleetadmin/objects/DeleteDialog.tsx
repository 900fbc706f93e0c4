import { Alert, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { useDeleteObject } from './api.ts';
import type { ObjectKind, ObjectRow } from './rules.ts';

/**
 * Deleting a unit, driver or trailer (PRODUCT.md "Service objects and counters"): its interval assignments
 * and open services go; its archived services stay unless the box is ticked. Reports how many services
 * the server removed.
 */
export function DeleteDialog({
  fid,
  kind,
  object,
  onClose,
  onDeleted,
}: {
  fid: number;
  kind: ObjectKind;
  object: ObjectRow;
  onClose: () => void;
  onDeleted: (name: string, services: number) => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteObject(fid);
  const [withArchive, setWithArchive] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = () => {
    setFailure(null);
    remove.mutate(
      { kind, id: object.id, withArchive },
      {
        onSuccess: (reply) => onDeleted(object.name, reply.services),
        onError: (err) => setFailure(err instanceof ApiError ? err.reason : t('objects.saveFailed')),
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('fleetAdmin.objects.deleteTitle')} centered>
      <Stack gap="sm" data-testid="object-delete-dialog">
        <Text style={{ overflowWrap: 'anywhere' }}>
          {t('fleetAdmin.objects.deleteText', { name: object.name })}
        </Text>
        <Checkbox
          label={t('fleetAdmin.objects.deleteArchive')}
          checked={withArchive}
          onChange={(e) => setWithArchive(e.currentTarget.checked)}
          data-testid="object-delete-archive"
        />
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={confirm}
            data-testid="object-delete-confirm"
          >
            {t('common.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
