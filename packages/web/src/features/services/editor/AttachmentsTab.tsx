import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Attachments } from '../../../components/Attachments.tsx';
import { client } from '../../../lib/client.ts';
import { serviceKeys } from '../../../lib/services.ts';
import { useDeleteAttachment, useServiceAttachments } from '../api.ts';

const TEST_IDS = { attach: 'service-attach', error: 'service-attach-error', table: 'service-attachments' };

const CAPS = {
  tooMany: 'serviceEditor.attachTooMany',
  tooLarge: 'serviceEditor.attachTooLarge',
  server: 'serviceEditor.attachCaps',
} as const;

export interface AttachmentsTabProps {
  fid: number;
  serviceId: number;
  editable: boolean;
  dateFormat: string;
  timeFormat: string;
}

/** Tab 3: a saved service's files (PRODUCT.md "Services": any type, 20 files and 32 MB at most). */
export function AttachmentsTab({ fid, serviceId, editable, dateFormat, timeFormat }: AttachmentsTabProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useServiceAttachments(fid, serviceId);
  const remove = useDeleteAttachment(fid, serviceId);
  return (
    <Attachments
      upload={(files, onProgress) =>
        client.services.attachmentUpload.upload(fid, serviceId, files, onProgress)
      }
      fileUrl={(aid) => client.services.attachmentDownload.url(fid, serviceId, aid)}
      list={list}
      editable={editable}
      dateFormat={dateFormat}
      timeFormat={timeFormat}
      remove={remove}
      onUploaded={() => queryClient.invalidateQueries({ queryKey: serviceKeys.all(fid) })}
      capsMessage={(problem) => t(CAPS[problem])}
      testIds={TEST_IDS}
    />
  );
}
