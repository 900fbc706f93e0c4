import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Loading } from '../components/Loading.tsx';
import { usePeople, useUnits } from '../lib/fleetData.ts';
import { useSession } from '../lib/session.ts';

type Kind = 'units' | 'trailers' | 'drivers';

/** The fleet's units, trailers or drivers: the shared fleet lists (lib/fleetData.ts), read only for `kind`. */
function useFleetObjects(kind: Kind | undefined, fid: number | null) {
  const units = useUnits<{ id: number }>(kind === 'units' ? fid : null);
  const people = usePeople<{ id: number }>(
    kind === 'drivers' || kind === 'trailers' ? fid : null,
    kind === 'trailers' ? 'trailers' : 'drivers',
  );
  return kind === 'units' ? units : people;
}

/**
 * A titled placeholder for a screen that a later issue builds. Screens that wait for data show the
 * loading indicator meanwhile; an unknown unit, trailer or driver goes to /items (spec §2).
 */
export default function Placeholder({ title, waitFor }: { title: string; waitFor?: Kind }) {
  const { t } = useTranslation();
  const session = useSession();
  const params = useParams();
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const objects = useFleetObjects(waitFor, fid);
  if (waitFor && objects.isPending) return <Loading />;
  if (waitFor && params.id !== undefined && !objects.data?.some((o) => String(o.id) === params.id)) {
    return <Navigate to="/items" replace />;
  }
  return (
    <Stack>
      <Title order={1} size="h2">
        {t(title)}
      </Title>
      <Text c="dimmed">{t('screen.soon')}</Text>
    </Stack>
  );
}
