import { bellVisible } from '@fleetkeep/core';
import { Box, Button, Modal, Text } from '@mantine/core';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { Loading } from '../components/Loading.tsx';
import { Toasts } from '../components/Toasts.tsx';
import { Banners } from '../features/banners/Banners.tsx';
import { HelpHost } from '../features/help/HelpHost.tsx';
import { NotificationBubbles } from '../features/notifications/Bubbles.tsx';
import { FLEET_DIALOG_TEXT } from '../lib/fleetDialogs.ts';
import { clearOrigin, guardUser, useFleetDialog, useSession } from '../lib/session.ts';
import { ConnectionOverlay } from './ConnectionOverlay.tsx';
import { Header } from './Header.tsx';

/** The authenticated frame: header, the routed screen, the connection overlay and the global dialogs. */
export default function Shell() {
  const { t } = useTranslation();
  const session = useSession();
  const fleetDialog = useFleetDialog();
  useEffect(clearOrigin, []);
  if (session.status !== 'authenticated') return <Loading />;
  return (
    <>
      <Header auth={session.auth} />
      <Banners auth={session.auth} />
      <Box component="main" p="md" maw={1200} mx="auto">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </Box>
      <HelpHost auth={session.auth} />
      <NotificationBubbles
        auth={session.auth}
        enabled={bellVisible(guardUser(session.auth), session.auth.model.s.notification?.enabled ?? 31)}
      />
      <ConnectionOverlay />
      <Toasts />
      <Modal
        opened={fleetDialog !== null}
        onClose={() => undefined}
        withCloseButton={false}
        closeOnEscape={false}
        closeOnClickOutside={false}
        centered
      >
        <Text mb="md" role="alert">
          {fleetDialog && t(FLEET_DIALOG_TEXT[fleetDialog])}
        </Text>
        <Button onClick={() => window.location.reload()}>{t('common.reload')}</Button>
      </Modal>
    </>
  );
}
