import { guardRoute, type RouteName } from '@fleetkeep/core';
import { type ReactNode, Suspense } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { Loading } from '../components/Loading.tsx';
import { ScreenMark } from '../components/ScreenMark.tsx';
import { guardUser, useSession } from '../lib/session.ts';

/** Import rows or selected services passed through navigation state (spec §2). */
function hasNavigationState(state: unknown): boolean {
  if (typeof state !== 'object' || state === null) return false;
  const { rows, services } = state as { rows?: unknown; services?: unknown };
  return (Array.isArray(rows) && rows.length > 0) || (Array.isArray(services) && services.length > 0);
}

/** Applies the route guard of core `guards.ts` to one route; the screen renders only when allowed. */
export function Guarded({ route, children }: { route: RouteName; children: ReactNode }) {
  const session = useSession();
  const params = useParams();
  const location = useLocation();
  if (session.status !== 'authenticated') return <Loading />;
  const decision = guardRoute(guardUser(session.auth), route, {
    id: params.id,
    hasState: hasNavigationState(location.state),
  });
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  return (
    <Suspense fallback={<Loading />}>
      {children}
      <ScreenMark route={route} />
    </Suspense>
  );
}
