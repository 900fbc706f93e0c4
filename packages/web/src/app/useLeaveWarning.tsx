import { Button, Group, Modal, Text } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { getSessionState } from './session.ts';

/**
 * Leave-page warning of spec §2: while `dirty`, leaving the page asks 'Warning!' with Leave and Stay.
 * Returns the dialog to render; closing or reloading the tab gets the browser's own question.
 */
export function useLeaveWarning(dirty: boolean): ReactNode {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      getSessionState().status === 'authenticated' &&
      currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  return (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title={t('leave.title')}
      centered
    >
      <Text mb="md">{t('leave.text')}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => blocker.reset?.()}>
          {t('leave.stay')}
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          {t('leave.leave')}
        </Button>
      </Group>
    </Modal>
  );
}
