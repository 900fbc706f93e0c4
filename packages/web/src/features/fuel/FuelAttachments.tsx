import {
  FUEL_ATTACHMENT_BYTES_MAX,
  FUEL_ATTACHMENTS_MAX,
  type FuelAttachmentWire,
  formatDateTime,
  formatNumber,
  unitLabel,
} from '@fleetkeep/core';
import { Alert, Anchor, Button, FileButton, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { dayjsLocale } from '../../i18n/index.ts';
import { ApiError } from '../../lib/api.ts';
import { useInvalidateFuel } from '../../lib/fuel.ts';
import { attachmentsPath, useDeleteFuelAttachment, useFuelAttachments } from './api.ts';
import { attachmentCapProblem, sizeParts } from './attachments.ts';
import { downloadFile, type UploadHandle, uploadFiles } from './transfer.ts';

/**
 * A saved filling's files (spec §5 "Attachments", PRODUCT.md "Fuel fillings"): upload with progress and
 * cancel, download under the original name, delete after asking; the caps of service attachments.
 */
export function FuelAttachments({
  fid,
  fillingId,
  editable,
  dateFormat,
  timeFormat,
}: {
  fid: number;
  fillingId: number;
  editable: boolean;
  dateFormat: string;
  timeFormat: string;
}) {
  const { t, i18n } = useTranslation();
  const list = useFuelAttachments(fid, fillingId);
  const remove = useDeleteFuelAttachment(fid, fillingId);
  const invalidate = useInvalidateFuel(fid);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<FuelAttachmentWire | null>(null);
  const upload = useRef<UploadHandle | null>(null);
  const resetRef = useRef<() => void>(null);
  const files = list.data ?? [];
  const busy = progress !== null;
  const megabytes = FUEL_ATTACHMENT_BYTES_MAX / (1024 * 1024);

  const size = (bytes: number) => {
    const { value, unit } = sizeParts(bytes);
    return `${formatNumber(value, { decimals: 1 })} ${unitLabel(i18n.language, unit, value, 'narrow')}`;
  };
  const failure = (err: unknown) => {
    // Error 2: beyond the caps (spec §8).
    if (err instanceof ApiError && err.code === 2)
      return t('fuel.attachCaps', { files: FUEL_ATTACHMENTS_MAX, size: megabytes });
    return t('serviceEditor.attachFailed', { reason: err instanceof ApiError ? err.reason : String(err) });
  };

  const start = async (picked: File[]) => {
    resetRef.current?.();
    if (picked.length === 0) return;
    setError(null);
    if (attachmentCapProblem(files, picked)) {
      setError(t('fuel.attachCaps', { files: FUEL_ATTACHMENTS_MAX, size: megabytes }));
      return;
    }
    setProgress(0);
    const handle = uploadFiles(attachmentsPath(fid, fillingId), picked, setProgress);
    upload.current = handle;
    try {
      await handle.promise;
    } catch (err) {
      setError(failure(err));
    } finally {
      upload.current = null;
      setProgress(null);
      await invalidate();
    }
  };

  const download = async (file: FuelAttachmentWire) => {
    setError(null);
    try {
      await downloadFile(`${attachmentsPath(fid, fillingId)}/${file.id}`, file.name);
    } catch (err) {
      setError(failure(err));
    }
  };

  return (
    <Stack gap="sm" data-testid="fuel-attachments-panel">
      {editable && (
        <Group gap="sm" wrap="wrap">
          <FileButton resetRef={resetRef} multiple onChange={(f) => void start(f)} disabled={busy}>
            {(props) => (
              <Button {...props} variant="light" disabled={busy} data-testid="fuel-attach">
                {t('serviceEditor.attachAdd')}
              </Button>
            )}
          </FileButton>
          <Text size="sm" c="dimmed">
            {t('serviceEditor.attachLimits', {
              files: FUEL_ATTACHMENTS_MAX,
              size: `${megabytes} ${unitLabel(i18n.language, 'megabyte', megabytes, 'narrow')}`,
            })}
          </Text>
        </Group>
      )}
      {progress !== null && (
        <Group gap="sm" wrap="nowrap">
          <Progress
            value={Math.round(progress * 100)}
            style={{ flex: 1 }}
            aria-label={t('serviceEditor.uploading')}
            animated
          />
          <Text size="sm">{formatNumber(Math.round(progress * 100))} %</Text>
          <Button size="xs" variant="subtle" onClick={() => upload.current?.abort()}>
            {t('common.cancel')}
          </Button>
        </Group>
      )}
      {error && (
        <Alert color="red" role="alert" py="xs" data-testid="fuel-attach-error">
          {error}
        </Alert>
      )}
      {list.isPending ? null : files.length === 0 ? (
        <Text c="dimmed">{t('serviceEditor.noAttachments')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={420}>
          <Table striped data-testid="fuel-attachments">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('serviceEditor.fileName')}</Table.Th>
                <Table.Th ta="right">{t('serviceEditor.fileSize')}</Table.Th>
                <Table.Th>{t('serviceEditor.fileDate')}</Table.Th>
                {editable && <Table.Th w={48} />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {files.map((f) => (
                <Table.Tr key={f.id}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    <Anchor component="button" type="button" onClick={() => void download(f)}>
                      {f.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {size(f.size)}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(f.created, dateFormat, timeFormat, dayjsLocale())}
                  </Table.Td>
                  {editable && (
                    <Table.Td>
                      <IconButton
                        aria-label={t('serviceEditor.attachDelete', { name: f.name })}
                        color="red"
                        onClick={() => setConfirm(f)}
                      >
                        <span aria-hidden="true">✕</span>
                      </IconButton>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmDialog
        opened={confirm !== null}
        title={t('serviceEditor.attachDeleteTitle')}
        text={t('serviceEditor.attachDeleteConfirm', { name: confirm?.name ?? '' })}
        busy={remove.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() =>
          confirm &&
          remove.mutate(confirm.id, {
            onError: (err) => setError(failure(err)),
            onSettled: () => setConfirm(null),
          })
        }
      />
    </Stack>
  );
}
