import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The confirm dialog of spec §8: a question with Cancel and OK; Escape and the close button cancel. */
export function ConfirmDialog({
  opened,
  title,
  text,
  busy,
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  text: string;
  busy?: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Text mb="md">{text}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button color="red" loading={busy} onClick={onConfirm}>
          {t('common.ok')}
        </Button>
      </Group>
    </Modal>
  );
}
