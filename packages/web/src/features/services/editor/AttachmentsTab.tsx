import {
  formatDateTime,
  formatNumber,
  SERVICE_ATTACHMENTS_MAX,
  type ServiceAttachmentWire,
  unitLabel,
} from '@fleetkeep/core';
import { Alert, Anchor, Button, FileButton, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { IconButton } from '../../../components/IconButton.tsx';
import { dayjsLocale } from '../../../i18n/index.ts';
import { ApiError } from '../../../lib/api.ts';
import { serviceKeys } from '../../../lib/services.ts';
import { attachmentsPath, useDeleteAttachment, useServiceAttachments } from '../api.ts';
import { attachmentCapProblem, sizeParts } from './rules.ts';
import { downloadFile, type UploadHandle, uploadFiles } from './transfer.ts';

const UNIT = { B: 'byte', KB: 'kilobyte', MB: 'megabyte' } as const;

export interface AttachmentsTabProps {
  fid: number;
  serviceId: number;
  editable: boolean;
  dateFormat: string;
  timeFormat: string;
}

/** Tab 3: a saved service's files (PRODUCT.md "Services": any type, 20 files and 32 MB at most). */
export function AttachmentsTab({ fid, serviceId, editable, dateFormat, timeFormat }: AttachmentsTabProps) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const list = useServiceAttachments(fid, serviceId);
  const remove = useDeleteAttachment(fid, serviceId);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<ServiceAttachmentWire | null>(null);
  const upload = useRef<UploadHandle | null>(null);
  const resetRef = useRef<() => void>(null);
  const files = list.data ?? [];
  const busy = progress !== null;

  const size = (bytes: number) => {
    const { value, unit } = sizeParts(bytes);
    return `${formatNumber(value, { decimals: 1 })} ${unitLabel(i18n.language, UNIT[unit], value, 'narrow')}`;
  };
  const failure = (err: unknown) => {
    // Error 2: beyond the caps (spec §8).
    if (err instanceof ApiError && err.code === 2) return t('serviceEditor.attachCaps');
    return t('serviceEditor.attachFailed', { reason: err instanceof ApiError ? err.reason : String(err) });
  };

  const start = async (picked: File[]) => {
    resetRef.current?.();
    if (picked.length === 0) return;
    setError(null);
    const cap = attachmentCapProblem(files, picked);
    if (cap) {
      // Spec §5 "Attachments": beyond the caps the server answers error 2; say so before sending.
      setError(t(cap === 'tooMany' ? 'serviceEditor.attachTooMany' : 'serviceEditor.attachTooLarge'));
      return;
    }
    setProgress(0);
    const handle = uploadFiles(attachmentsPath(fid, serviceId), picked, setProgress);
    upload.current = handle;
    try {
      await handle.promise;
    } catch (err) {
      setError(failure(err));
    } finally {
      upload.current = null;
      setProgress(null);
      await client.invalidateQueries({ queryKey: serviceKeys.all(fid) });
    }
  };

  const download = async (file: ServiceAttachmentWire) => {
    setError(null);
    try {
      await downloadFile(`${attachmentsPath(fid, serviceId)}/${file.id}`, file.name);
    } catch (err) {
      setError(failure(err));
    }
  };

  return (
    <Stack gap="sm">
      {editable && (
        <Group gap="sm" wrap="wrap">
          <FileButton resetRef={resetRef} multiple onChange={(f) => void start(f)} disabled={busy}>
            {(props) => (
              <Button {...props} variant="light" disabled={busy} data-testid="service-attach">
                {t('serviceEditor.attachAdd')}
              </Button>
            )}
          </FileButton>
          <Text size="sm" c="dimmed">
            {t('serviceEditor.attachLimits', {
              files: SERVICE_ATTACHMENTS_MAX,
              size: `32 ${unitLabel(i18n.language, 'megabyte', 32, 'narrow')}`,
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
        <Alert color="red" role="alert" py="xs" data-testid="service-attach-error">
          {error}
        </Alert>
      )}
      {list.isPending ? null : files.length === 0 ? (
        <Text c="dimmed">{t('serviceEditor.noAttachments')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={420}>
          <Table striped data-testid="service-attachments">
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
