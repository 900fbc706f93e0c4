import { formatNumber, unitLabel } from '@fleetkeep/core';
import { Alert, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api.ts';
import { sizeParts } from '../../lib/attachments.ts';
import { type DownloadHandle, type DownloadProgress, downloadWithProgress } from '../../lib/transfer.ts';
import { EXPORT_FORMATS, type ExportFormat, progressRatio } from './rules.ts';

interface Running {
  format: ExportFormat;
  handle: DownloadHandle;
  progress: DownloadProgress;
}

export interface Exporter {
  running: Running | null;
  saved: string | null;
  failure: string | null;
  start: (format: ExportFormat) => void;
  cancel: () => void;
  dismiss: () => void;
}

/**
 * PRODUCT.md "Reports": exported as XLSX, CSV and PDF. Downloads the server's export of the report shown
 * (not the table's own CSV), following the bytes received against Content-Length, cancellable; the file
 * keeps the server's name. One export at a time; a failure keeps its reason for the status line.
 */
export function useExporter(path: (format: ExportFormat) => string, fallbackName: string): Exporter {
  const { t } = useTranslation();
  const [running, setRunning] = useState<Running | null>(null);
  // The outcome of the last export, with the report it was of: another report shows neither.
  const [failure, setFailure] = useState<{ of: string; text: string } | null>(null);
  const [saved, setSaved] = useState<{ of: string; name: string } | null>(null);
  const of = path('csv');
  const current = useRef<DownloadHandle | null>(null);

  // Leaving the screen stops a download still running.
  useEffect(() => () => current.current?.abort(), []);

  const start = (format: ExportFormat) => {
    setFailure(null);
    setSaved(null);
    let handle: DownloadHandle | null = null;
    const onProgress = (progress: DownloadProgress) =>
      setRunning((now) => (now && now.handle === handle ? { ...now, progress } : now));
    handle = downloadWithProgress(path(format), `${fallbackName}.${format}`, onProgress);
    const mine = handle;
    current.current = mine;
    setRunning({ format, handle: mine, progress: { loaded: 0, total: null } });
    mine.promise.then(
      (name) => {
        if (current.current !== mine) return;
        current.current = null;
        setRunning(null);
        setSaved({ of, name });
      },
      (err: unknown) => {
        if (current.current !== mine) return;
        current.current = null;
        setRunning(null);
        setFailure({
          of,
          text: t('reports.screen.exportFailed', {
            reason: err instanceof ApiError ? err.reason : String(err),
          }),
        });
      },
    );
  };

  const cancel = () => {
    const handle = current.current;
    current.current = null;
    setRunning(null);
    handle?.abort();
  };

  return {
    running,
    saved: saved?.of === of ? saved.name : null,
    failure: failure?.of === of ? failure.text : null,
    start,
    cancel,
    dismiss: () => setFailure(null),
  };
}

/** The XLSX, CSV and PDF buttons; the one of a running export shows it loads, the others wait. */
export function ExportButtons({ exporter, disabled }: { exporter: Exporter; disabled?: boolean }) {
  const { t } = useTranslation();
  const { running } = exporter;
  return (
    <Group gap="xs" wrap="wrap" role="group" aria-label={t('reports.screen.export')}>
      {EXPORT_FORMATS.map((format) => (
        <Button
          key={format}
          variant="default"
          onClick={() => exporter.start(format)}
          disabled={disabled || running !== null}
          loading={running?.format === format}
          aria-label={t('reports.screen.exportAs', { format: format.toUpperCase() })}
          data-testid={`report-export-${format}`}
        >
          {format.toUpperCase()}
        </Button>
      ))}
    </Group>
  );
}

/** What an export is doing: its progress with Cancel, the name it was saved under, or why it failed. */
export function ExportStatus({ exporter }: { exporter: Exporter }) {
  const { t, i18n } = useTranslation();
  const { running, saved, failure } = exporter;
  const sizeText = (bytes: number) => {
    const { value, unit } = sizeParts(bytes);
    return `${formatNumber(value, { decimals: 1 })} ${unitLabel(i18n.language, unit, value, 'narrow')}`;
  };
  if (running) {
    const ratio = progressRatio(running.progress);
    const title = t('reports.screen.downloading', { format: running.format.toUpperCase() });
    const { loaded, total } = running.progress;
    return (
      <Paper withBorder p="xs" radius="sm" data-testid="report-export-progress">
        <Group gap="sm" wrap="nowrap">
          <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
            <Text size="sm" aria-live="polite">
              {title} {total === null ? sizeText(loaded) : `${sizeText(loaded)} / ${sizeText(total)}`}
            </Text>
            <Progress
              value={ratio === null ? 100 : ratio * 100}
              animated={ratio === null}
              striped={ratio === null}
              aria-label={title}
            />
          </Stack>
          <Button variant="subtle" color="red" onClick={exporter.cancel} data-testid="report-export-cancel">
            {t('common.cancel')}
          </Button>
        </Group>
      </Paper>
    );
  }
  if (failure)
    return (
      <Alert
        color="red"
        role="alert"
        withCloseButton
        closeButtonLabel={t('controls.clear')}
        onClose={exporter.dismiss}
        data-testid="report-export-error"
      >
        {failure}
      </Alert>
    );
  if (saved)
    return (
      <Text size="sm" c="dimmed" data-testid="report-export-saved">
        {t('reports.screen.exported', { name: saved })}
      </Text>
    );
  return null;
}
