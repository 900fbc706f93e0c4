import { DEFECT_SEVERITIES, type InspectionItemWire } from '@fleetkeep/core';
import {
  Button,
  FileButton,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ResultDraft } from './rules.ts';
import { SignaturePad } from './SignaturePad.tsx';
import { useItemLabel } from './shared.tsx';

/** The longest side of a photo as sent: phone photos are scaled down in the browser first. */
const PHOTO_SIDE_MAX = 1600;

/** A chosen photo as a JPEG data URL, at most PHOTO_SIDE_MAX pixels on its longer side. */
export async function photoDataUrl(file: File): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, PHOTO_SIDE_MAX / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/jpeg', 0.8);
}

function PhotoButton({
  value,
  onChange,
  label,
}: {
  value: string | null;
  onChange: (v: string | null) => void;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="xs">
      <FileButton
        accept="image/*"
        onChange={async (file) => onChange(file ? await photoDataUrl(file) : null)}
      >
        {(props) => (
          <Button variant="default" size="md" {...props}>
            {value ? `✓ ${label}` : t('inspections.addPhoto')}
          </Button>
        )}
      </FileButton>
      {value && <img src={value} alt={label} style={{ height: 48, borderRadius: 4 }} />}
    </Group>
  );
}

/**
 * One item of the "Start inspection" flow at touch size: pass/fail as two large toggles, a fail's
 * severity, remark and photo; a number, a text, a photo or a signature for the other kinds.
 */
export function ItemInput({
  index,
  item,
  value,
  onChange,
  error,
}: {
  index: number;
  item: InspectionItemWire;
  value: ResultDraft;
  onChange: (patch: Partial<ResultDraft>) => void;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const label = useItemLabel()(item);
  const failed = item.k === 'pf' && value.ok === false;
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      data-testid={`item-${index}`}
      style={error ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
    >
      <Stack gap="xs">
        <Text fw={500}>
          {index + 1}. {label}
        </Text>
        {item.k === 'pf' && (
          <SegmentedControl
            fullWidth
            size="md"
            value={value.ok === null ? '' : value.ok ? 'pass' : 'fail'}
            color={value.ok === false ? 'red' : 'green'}
            onChange={(v) =>
              onChange({ ok: v === 'pass', sev: v === 'fail' ? (value.sev ?? item.sev) : null })
            }
            data={[
              { value: 'pass', label: t('inspections.pass') },
              { value: 'fail', label: t('inspections.fail') },
            ]}
            aria-label={label}
          />
        )}
        {failed && (
          <>
            <SegmentedControl
              fullWidth
              size="sm"
              value={value.sev ?? item.sev ?? 'major'}
              onChange={(v) => onChange({ sev: v as ResultDraft['sev'] })}
              data={DEFECT_SEVERITIES.map((s) => ({ value: s, label: t(`inspections.severity.${s}`) }))}
              aria-label={t('inspections.severityLabel')}
            />
            <Textarea
              label={t('inspections.remark')}
              value={value.tx}
              autosize
              minRows={1}
              onChange={(e) => onChange({ tx: e.currentTarget.value })}
            />
            <PhotoButton
              value={value.img}
              onChange={(img) => onChange({ img })}
              label={t('inspections.photo')}
            />
          </>
        )}
        {item.k === 'num' && (
          <NumberInput
            size="md"
            aria-label={label}
            value={value.v}
            min={0}
            onChange={(v) => onChange({ v: typeof v === 'number' ? v : '' })}
          />
        )}
        {item.k === 'text' && (
          <Textarea
            aria-label={label}
            value={value.tx}
            autosize
            minRows={2}
            onChange={(e) => onChange({ tx: e.currentTarget.value })}
          />
        )}
        {item.k === 'photo' && (
          <PhotoButton value={value.img} onChange={(img) => onChange({ img })} label={label} />
        )}
        {item.k === 'sig' && <SignaturePad label={label} onChange={(img) => onChange({ img })} />}
        {error && (
          <Text size="xs" c="red">
            {error}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
