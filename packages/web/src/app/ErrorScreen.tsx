import { Button, Center, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { reportFault } from '../lib/faults.ts';

/** A screen that threw, or a chunk that failed to load: say so and offer a reload (spec §8). */
export function ErrorScreen() {
  const { t } = useTranslation();
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
    reportFault('render', error);
  }, [error]);
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" role="alert">
        <Text ta="center">{t('common.error')}</Text>
        <Button onClick={() => window.location.reload()}>{t('connection.reload')}</Button>
      </Stack>
    </Center>
  );
}
