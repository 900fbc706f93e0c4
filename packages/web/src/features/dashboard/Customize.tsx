import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../../components/IconButton.tsx';
import { Checkbox } from '../../components/Toggles.tsx';
import {
  DEFAULT_LAYOUT,
  type Layout,
  moveSection,
  sameLayout,
  sectionTitleKey,
  toggleSection,
} from './rules.ts';

/**
 * The "Customize" dialog (PRODUCT.md "Dashboard": sections shown or hidden and reordered): a row per
 * section with its show box and up/down buttons, and a way back to the default layout. Every change
 * applies at once and is saved for the user by the screen.
 */
export function CustomizeDialog({
  opened,
  onClose,
  layout,
  onChange,
  failed,
}: {
  opened: boolean;
  onClose: () => void;
  layout: Layout;
  onChange: (next: Layout) => void;
  failed: boolean;
}) {
  const { t } = useTranslation();
  const last = layout.order.length - 1;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('dashboard.customizeTitle')}
      closeButtonProps={{ 'aria-label': t('dashboard.close') }}
    >
      <Stack gap="xs">
        {layout.order.map((id, i) => {
          const name = t(sectionTitleKey(id));
          return (
            <Group key={id} justify="space-between" wrap="nowrap" gap="xs" data-testid={`customize-${id}`}>
              <Checkbox
                label={name}
                checked={!layout.hidden.includes(id)}
                onChange={() => onChange(toggleSection(layout, id))}
              />
              <Group gap={4} wrap="nowrap">
                <IconButton
                  aria-label={t('dashboard.moveUp', { name })}
                  disabled={i === 0}
                  onClick={() => onChange(moveSection(layout, id, -1))}
                >
                  ↑
                </IconButton>
                <IconButton
                  aria-label={t('dashboard.moveDown', { name })}
                  disabled={i === last}
                  onClick={() => onChange(moveSection(layout, id, 1))}
                >
                  ↓
                </IconButton>
              </Group>
            </Group>
          );
        })}
        {failed && (
          <Text c="red" size="sm" role="alert">
            {t('dashboard.saveFailed')}
          </Text>
        )}
        <Group justify="space-between" mt="sm">
          <Button
            variant="default"
            disabled={sameLayout(layout, DEFAULT_LAYOUT)}
            onClick={() => onChange(DEFAULT_LAYOUT)}
          >
            {t('dashboard.resetLayout')}
          </Button>
          <Button onClick={onClose}>{t('dashboard.close')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
