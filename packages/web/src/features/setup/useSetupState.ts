import { useQuery } from '@tanstack/react-query';
import { client } from '../../lib/client.ts';

/** Cache key of `GET /api/setup` (DESIGN §8: is the first-run set-up needed?). */
export const SETUP_QUERY_KEY = ['setup'] as const;

/**
 * Whether the database still has no user, asked once when the app starts without a session (the login
 * screen sends the visitor to /setup then). Undefined while asking; a failed call counts as not needed,
 * so that the login stays reachable.
 */
export function useSetupNeeded(enabled = true): boolean | undefined {
  const query = useQuery({
    queryKey: SETUP_QUERY_KEY,
    queryFn: () => client.setup.state(),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    retry: 0,
  });
  if (query.isError) return false;
  return query.data?.needed;
}
