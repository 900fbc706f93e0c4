import { Button, Overlay, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLiveState } from '../lib/session.ts';

/** Spec §2: a blocking overlay while the live connection is down; the page reloads when it returns. */
export function ConnectionOverlay() {
  const { t } = useTranslation();
  const state = useLiveState();
  if (state !== 'lost') return null;
  return (
    <Overlay fixed zIndex={1000} backgroundOpacity={0.6} center>
      <Paper
        p="lg"
        shadow="md"
        maw={360}
        m="md"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="conn-lost"
      >
        <Stack align="center">
          <Text id="conn-lost" fw={500} ta="center">
            {t('connection.lost')}
          </Text>
          <Button onClick={() => window.location.reload()}>{t('connection.reload')}</Button>
        </Stack>
      </Paper>
    </Overlay>
  );
}
