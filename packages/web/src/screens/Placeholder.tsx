import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Loading } from '../app/Loading.tsx';
import { useSession } from '../app/session.ts';
import { api } from '../lib/api.ts';
import { queryKeys } from '../lib/queryKeys.ts';

type Kind = 'units' | 'trailers' | 'drivers';
const COLLECTION = { units: 'avl_unit', trailers: 'trailer', drivers: 'driver' } as const;

/** The fleet's units, trailers or drivers, one query per collection (invalidated by live events). */
function useFleetObjects(kind: Kind | undefined, fid: number | null) {
  return useQuery({
    queryKey: queryKeys.collection(fid ?? 0, COLLECTION[kind ?? 'units']),
    queryFn: async ({ signal }) => {
      const reply = await api<Record<string, { id: number }[]>>(`/api/fleets/${fid}/${kind}`, { signal });
      return reply[kind ?? 'units'] ?? [];
    },
    enabled: kind !== undefined && fid !== null,
  });
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
