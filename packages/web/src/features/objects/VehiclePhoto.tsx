import { UNIT_PHOTO_BYTES_MAX, UNIT_PHOTO_TYPES } from '@fleetkeep/core';
import { Button, FileButton, Group, Image, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api.ts';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { fetchObjectUrl } from '../../lib/transfer.ts';

/** The photo's object URL, fetched with the session header (no plain link can carry it). */
function usePhotoUrl(fid: number, unitId: number, photoId: number | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (photoId === null) {
      setUrl(null);
      return;
    }
    const controller = new AbortController();
    let made: string | null = null;
    fetchObjectUrl(client.fleets.unitPhotoDownload.url(fid, unitId, photoId), controller.signal)
      .then((u) => {
        made = u;
        setUrl(u);
      })
      .catch(() => setUrl(null));
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [fid, unitId, photoId]);
  return url;
}

/**
 * The unit photo (docs/product.md "The vehicle profile"): one JPEG, PNG, WebP or GIF image of at most
 * 5 MB, stored as the unit's one attachment; a new photo replaces the old one.
 */
export function VehiclePhoto({
  fid,
  unitId,
  photoId,
  editable,
}: {
  fid: number;
  unitId: number;
  photoId: number | null;
  editable: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const url = usePhotoUrl(fid, unitId, photoId);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(
        err instanceof ApiError && err.code === 2 ? t('vehicle.photoTooLarge') : t('vehicle.photoFailed'),
      );
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: queryKeys.collection(fid, 'avl_unit') });
    }
  };
  const replace = (file: File | null) => {
    if (!file) return;
    if (!(UNIT_PHOTO_TYPES as readonly string[]).includes(file.type)) {
      setError(t('vehicle.photoType'));
      return;
    }
    if (file.size > UNIT_PHOTO_BYTES_MAX) {
      setError(t('vehicle.photoTooLarge'));
      return;
    }
    // One request: the server swaps the photo in one transaction, so a failed upload keeps the old one.
    void run(async () => {
      await client.fleets.unitPhotoUpload.upload(fid, unitId, [file], () => {}).promise;
    });
  };

  return (
    <Stack gap="xs" data-testid="vehicle-photo">
      {url ? (
        <Image
          src={url}
          alt={t('vehicle.photo')}
          radius="sm"
          maw={320}
          mah={240}
          fit="contain"
          data-testid="vehicle-photo-image"
        />
      ) : (
        <Text size="sm" c="dimmed">
          {t('vehicle.noPhoto')}
        </Text>
      )}
      {editable && (
        <Group gap="xs">
          <FileButton onChange={replace} accept={UNIT_PHOTO_TYPES.join(',')}>
            {(props) => (
              <Button {...props} variant="light" size="xs" loading={busy} data-testid="vehicle-photo-upload">
                {photoId === null ? t('vehicle.addPhoto') : t('vehicle.replacePhoto')}
              </Button>
            )}
          </FileButton>
          {photoId !== null && (
            <Button
              variant="subtle"
              color="red"
              size="xs"
              disabled={busy}
              onClick={() => void run(() => client.fleets.unitPhotoRemove(fid, unitId, photoId))}
              data-testid="vehicle-photo-remove"
            >
              {t('vehicle.removePhoto')}
            </Button>
          )}
        </Group>
      )}
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
