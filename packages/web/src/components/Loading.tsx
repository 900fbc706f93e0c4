import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The loading indicator of guards that wait for data and of lazily loaded screens. */
export function Loading() {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}
