import { formatNumber } from '@fleetkeep/core';
import { Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ImportProgress } from './progress.ts';

/**
 * The running import: the upload's share, then the server's rows checked and records
 * written as "n of N" with a determinate bar. Between the upload's end and the server's first report
 * the bar is full and moving ("checking and saving").
 */
export function ImportProgressBar({ progress }: { progress: ImportProgress }) {
  const { t } = useTranslation();
  const number = (n: number) => formatNumber(n, { decimals: 0 }); // spec §9
  const waiting = progress.phase === 'upload' && progress.share >= 1;
  const value =
    progress.phase === 'upload'
      ? progress.share * 100
      : progress.total > 0
        ? (progress.done / progress.total) * 100
        : 100;
  const label =
    progress.phase === 'upload'
      ? t(waiting ? 'imports.saving' : 'imports.uploading')
      : t(`imports.progress.${progress.phase}`, {
          done: number(progress.done),
          total: number(progress.total),
        });
  return (
    <Stack gap={4} data-testid="import-progress" data-phase={progress.phase}>
      <Progress value={value} animated={waiting} aria-label={label} size="lg" transitionDuration={150} />
      <Text size="sm" aria-live="polite" data-testid="import-progress-text">
        {label}
      </Text>
    </Stack>
  );
}
