import {
  type DefectSeverity,
  formatFleetDateTime,
  type InspectionItemWire,
  type InspectionState,
} from '@fleetkeep/core';
import { Badge, Image } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dayjsLocale } from '../../i18n/index.ts';
import { useSession } from '../../lib/session.ts';
import { fetchObjectUrl } from '../../lib/transfer.ts';
import { imageUrl } from './api.ts';

/** What every inspection screen reads of the session: the fleet, its zone and the user's formats. */
export function useInspectionContext() {
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  const tz = fleet?.tz ?? 0;
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const timeFormat = auth?.model.s.timeFormat || 'HH:mm';
  const when = (t: number) => formatFleetDateTime(t, tz, dateFormat, timeFormat, dayjsLocale());
  return { auth, fid, fleet, miles: fleet?.ms === 1, when };
}

/** An item's label in the reader's language: built-in items by their locale key. */
export function useItemLabel() {
  const { t } = useTranslation();
  return (item: Pick<InspectionItemWire, 'l' | 'key'>) => (item.key ? t(item.key) : item.l);
}

/** A form's name in the reader's language (the built-in DVIR has a translated name). */
export function useFormName() {
  const { t } = useTranslation();
  return (form: { n?: string; fn?: string; bi: string | null }) =>
    form.bi === 'dvir' ? t('inspections.dvir.name') : (form.n ?? form.fn ?? '');
}

const SEVERITY_COLOR: Record<DefectSeverity, string> = { minor: 'yellow', major: 'orange', dangerous: 'red' };
const STATE_COLOR: Record<InspectionState, string> = { ok: 'green', defects: 'red', certified: 'blue' };

export function SeverityBadge({ severity }: { severity: DefectSeverity }) {
  const { t } = useTranslation();
  return (
    <Badge color={SEVERITY_COLOR[severity]} variant="light" style={{ flexShrink: 0 }}>
      {t(`inspections.severity.${severity}`)}
    </Badge>
  );
}

export function StateBadge({ state }: { state: InspectionState }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATE_COLOR[state]} variant="light" data-testid="inspection-state">
      {t(`inspections.state.${state}`)}
    </Badge>
  );
}

/** A stored image of an inspection, fetched with the session header. */
export function InspectionImage({
  fid,
  id,
  aid,
  alt,
  h = 96,
}: {
  fid: number;
  id: number;
  aid: number;
  alt: string;
  h?: number;
}) {
  const src = useQuery({
    queryKey: ['inspection-image', fid, id, aid],
    queryFn: ({ signal }) => fetchObjectUrl(imageUrl(fid, id, aid), signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (!src.data) return null;
  return <Image src={src.data} alt={alt} h={h} w="auto" fit="contain" radius="sm" bg="white" />;
}
