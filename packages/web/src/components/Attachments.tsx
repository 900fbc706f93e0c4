import { formatNumber, unitLabel } from '@fleetkeep/core';
import { Alert, Anchor, Button, FileButton, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api.ts';
import {
  ATTACHMENT_BYTES_MAX,
  ATTACHMENTS_MAX,
  type AttachmentCapProblem,
  attachmentCapProblem,
  sizeParts,
} from '../lib/attachments.ts';
import { fleetTime } from '../lib/fleetTime.ts';
import { useSession } from '../lib/session.ts';
import { downloadFile, type UploadHandle } from '../lib/transfer.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { IconButton } from './IconButton.tsx';

/** What the list shows of a file (the attachment wires of services and fuel fillings). */
export interface AttachmentFile {
  id: number;
  name: string;
  size: number;
  /** Unix seconds. */
  created: number;
}

export interface AttachmentsProps {
  /** Uploads files to the record (lib/client.ts `upload` of the owner's upload route). */
  upload: (files: readonly File[], onProgress: (ratio: number) => void) => UploadHandle<unknown>;
  /** Where a file downloads from (lib/client.ts `url` of the owner's download route). */
  fileUrl: (id: number) => string;
  /** The record's files (a TanStack query fits); nothing is shown while it is pending. */
  list: { data?: readonly AttachmentFile[] | undefined; isPending: boolean };
  editable: boolean;
  dateFormat: string;
  timeFormat: string;
  /** Deletes a file (a TanStack mutation fits). */
  remove: {
    mutate(id: number, options: { onError: (err: unknown) => void; onSettled: () => void }): void;
    isPending: boolean;
  };
  /** Refreshes the list (and whatever counts the files) after an upload, whether it failed or not. */
  onUploaded: () => Promise<unknown>;
  /** The text of a cap problem: found before sending, or `server` for the server's error 2 (spec §8). */
  capsMessage: (problem: AttachmentCapProblem | 'server') => string;
  testIds: { panel?: string; attach: string; error: string; table: string };
}

/**
 * A saved record's files (spec §5 "Attachments", PRODUCT.md "Services" and "Fuel fillings"): upload with
 * progress and cancel, download under the original name, delete after asking; 20 files and 32 MB at most.
 */
export function Attachments({
  upload: uploadTo,
  fileUrl,
  list,
  editable,
  dateFormat,
  timeFormat,
  remove,
  onUploaded,
  capsMessage,
  testIds,
}: AttachmentsProps) {
  const { t, i18n } = useTranslation();
  // One clock: the fleet's, its zone named when the browser's differs (docs/product.md).
  const session = useSession();
  const fleetTz =
    session.status === 'authenticated' ? session.auth.fleets.find((f) => f.id === session.auth.fid)?.tz : 0;
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<AttachmentFile | null>(null);
  const upload = useRef<UploadHandle<unknown> | null>(null);
  const resetRef = useRef<() => void>(null);
  const files = list.data ?? [];
  const busy = progress !== null;
  const megabytes = ATTACHMENT_BYTES_MAX / (1024 * 1024);

  const size = (bytes: number) => {
    const { value, unit } = sizeParts(bytes);
    return `${formatNumber(value, { decimals: 1, locale: i18n.language })} ${unitLabel(i18n.language, unit, value, 'narrow')}`;
  };
  const failure = (err: unknown) => {
    // Error 2: beyond the caps (spec §8).
    if (err instanceof ApiError && err.code === 2) return capsMessage('server');
    return t('serviceEditor.attachFailed', { reason: err instanceof ApiError ? err.reason : String(err) });
  };

  const start = async (picked: File[]) => {
    resetRef.current?.();
    if (picked.length === 0) return;
    setError(null);
    const cap = attachmentCapProblem(files, picked);
    if (cap) {
      // Spec §5 "Attachments": beyond the caps the server answers error 2; say so before sending.
      setError(capsMessage(cap));
      return;
    }
    setProgress(0);
    const handle = uploadTo(picked, setProgress);
    upload.current = handle;
    try {
      await handle.promise;
    } catch (err) {
      setError(failure(err));
    } finally {
      upload.current = null;
      setProgress(null);
      await onUploaded();
    }
  };

  const download = async (file: AttachmentFile) => {
    setError(null);
    try {
      await downloadFile(fileUrl(file.id), file.name);
    } catch (err) {
      setError(failure(err));
    }
  };

  return (
    <Stack gap="sm" data-testid={testIds.panel}>
      {editable && (
        <Group gap="sm" wrap="wrap">
          <FileButton resetRef={resetRef} multiple onChange={(f) => void start(f)} disabled={busy}>
            {(props) => (
              <Button {...props} variant="light" disabled={busy} data-testid={testIds.attach}>
                {t('serviceEditor.attachAdd')}
              </Button>
            )}
          </FileButton>
          <Text size="sm" c="dimmed">
            {t('serviceEditor.attachLimits', {
              files: ATTACHMENTS_MAX,
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
        <Alert color="red" role="alert" py="xs" data-testid={testIds.error}>
          {error}
        </Alert>
      )}
      {list.isPending ? null : files.length === 0 ? (
        <Text c="dimmed">{t('serviceEditor.noAttachments')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={420}>
          <Table striped data-testid={testIds.table}>
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
                    {fleetTime(f.created, fleetTz, { dateFormat, timeFormat })}
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
