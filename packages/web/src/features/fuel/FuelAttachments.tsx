import { FUEL_ATTACHMENT_BYTES_MAX, FUEL_ATTACHMENTS_MAX } from '@fleetkeep/core';
import { useTranslation } from 'react-i18next';
import { Attachments } from '../../components/Attachments.tsx';
import { client } from '../../lib/client.ts';
import { useInvalidateFuel } from '../../lib/fuel.ts';
import { useDeleteFuelAttachment, useFuelAttachments } from './api.ts';

const TEST_IDS = {
  panel: 'fuel-attachments-panel',
  attach: 'fuel-attach',
  error: 'fuel-attach-error',
  table: 'fuel-attachments',
};

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
  const { t } = useTranslation();
  const list = useFuelAttachments(fid, fillingId);
  const remove = useDeleteFuelAttachment(fid, fillingId);
  const invalidate = useInvalidateFuel(fid);
  // One text for every cap problem, found before sending or by the server (error 2).
  const caps = () =>
    t('fuel.attachCaps', { files: FUEL_ATTACHMENTS_MAX, size: FUEL_ATTACHMENT_BYTES_MAX / (1024 * 1024) });
  return (
    <Attachments
      upload={(files, onProgress) => client.fuel.attachmentUpload.upload(fid, fillingId, files, onProgress)}
      fileUrl={(aid) => client.fuel.attachmentDownload.url(fid, fillingId, aid)}
      list={list}
      editable={editable}
      dateFormat={dateFormat}
      timeFormat={timeFormat}
      remove={remove}
      onUploaded={invalidate}
      capsMessage={caps}
      testIds={TEST_IDS}
    />
  );
}
