import { formatDate, type SessionAuthReply } from '@fleetkeep/core';
import { Alert, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STORAGE_PREFIX } from '../../lib/storage.ts';
import { appConfig, noticeId, noticeText, shutdownActive } from './banners.ts';

const dismissKey = (id: string) => `${STORAGE_PREFIX}notice.${id}`;

function isDismissed(id: string): boolean {
  try {
    return sessionStorage.getItem(dismissKey(id)) === '1';
  } catch {
    return false;
  }
}

/** The maintenance notice (dismissible for the session) and the shutdown notice (spec §8). */
export function Banners({ auth }: { auth: SessionAuthReply }) {
  const { t, i18n } = useTranslation();
  const config = appConfig(auth);
  const notice = noticeText(config.notification, i18n.language);
  const id = notice === null ? '' : noticeId(notice);
  const [dismissed, setDismissed] = useState<string | null>(() => (id && isDismissed(id) ? id : null));
  const shutdown = config.shutdownNotification;
  const showShutdown = shutdownActive(shutdown, Date.now() / 1000);
  const showNotice = notice !== null && dismissed !== id && !isDismissed(id);
  if (!showNotice && !showShutdown) return null;

  const dismiss = () => {
    try {
      sessionStorage.setItem(dismissKey(id), '1');
    } catch {
      // the notice then comes back on reload
    }
    setDismissed(id);
  };

  return (
    <Stack gap={0}>
      {showNotice && (
        <Alert
          color="yellow"
          radius={0}
          role="status"
          data-testid="notice-banner"
          withCloseButton
          closeButtonLabel={t('banner.dismiss')}
          onClose={dismiss}
          styles={{ message: { whiteSpace: 'pre-line' } }}
        >
          {notice}
        </Alert>
      )}
      {showShutdown && shutdown && (
        <Alert color="red" radius={0} role="status" data-testid="shutdown-banner">
          {t('banner.shutdown', {
            date: formatDate(shutdown.sdf, auth.model.s.dateFormat || 'DD.MM.YYYY', i18n.language),
          })}
        </Alert>
      )}
    </Stack>
  );
}
