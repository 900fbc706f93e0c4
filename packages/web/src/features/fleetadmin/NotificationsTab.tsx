import { Alert, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The place for the fleet's notification set-up (issue 9 item 7; PRODUCT.md "Notifications": in-app,
 * e-mail, messaging bot, external server). It sets up nothing yet and says so; the notifications issue
 * replaces it with the real set-up.
 */
export function NotificationsTab({ fid }: { fid: number }) {
  const { t } = useTranslation();
  return (
    <Stack maw={640} data-testid="fleet-notifications" data-fid={fid}>
      <Alert color="gray" title={t('fleetNotifications.title')}>
        <Stack gap="xs">
          <Text size="sm">{t('fleetNotifications.text')}</Text>
          <Text size="sm" c="dimmed">
            {t('fleetNotifications.none')}
          </Text>
        </Stack>
      </Alert>
    </Stack>
  );
}
