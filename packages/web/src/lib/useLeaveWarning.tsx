import { Button, Group, Modal, Text } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/**
 * Whether a blocked leave should ask at all: the app shell sets it (a signed-out user leaves without a
 * question). `lib/` sits below the shell, so the shell hands the check down instead of being imported.
 */
let leaveGate: () => boolean = () => true;

export function setLeaveWarningGate(gate: () => boolean): void {
  leaveGate = gate;
}

/**
 * Leave-page warning of spec §2: while `dirty`, leaving the page asks 'Warning!' with Leave and Stay.
 * Returns the dialog to render; closing or reloading the tab gets the browser's own question.
 * `tabParam` names the search parameter of the screen's tabs when the dirty form lives in one tab that
 * unmounts on a switch: then switching tabs is leaving too.
 */
export function useLeaveWarning(dirty: boolean, options: { tabParam?: string } = {}): ReactNode {
  const { t } = useTranslation();
  const { tabParam } = options;
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (!dirty || !leaveGate()) return false;
    if (currentLocation.pathname !== nextLocation.pathname) return true;
    if (tabParam === undefined) return false;
    const tabOf = (search: string) => new URLSearchParams(search).get(tabParam);
    return tabOf(currentLocation.search) !== tabOf(nextLocation.search);
  });

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

/**
 * The leave warning of a form that is dirty now: rendered only while it is, so that a clean form (or a
 * form without a warning, a dialog) registers no blocker. The router heeds only its latest blocker (it
 * warns "only supports one blocker at a time"), so forms that always held one would switch off the
 * warning of a dirty form mounted before them.
 */
export function LeaveWarning({ tabParam }: { tabParam?: string }) {
  return useLeaveWarning(true, { tabParam });
}
