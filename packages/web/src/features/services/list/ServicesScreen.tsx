import { lazy, Suspense, useMemo } from 'react';
import { Loading } from '../../../components/Loading.tsx';
import { useDrivers, useIntervals, useTrailers, useUnits } from '../../../lib/fleetData.ts';
import { useArchivedServices, useOpenServices } from '../../../lib/services.ts';
import { useSession } from '../../../lib/session.ts';
import { useUrlParams } from '../../../lib/urlParams.ts';
import { decodePeriod, fleetToday, parseTab, periodError } from './rules.ts';

const ServicesView = lazy(() => import('./ServicesView.tsx'));

/**
 * The route of /services (spec §2): a small chunk that starts the reads of the list (its services and the
 * names it shows) while the view's larger chunk (the table, its controls) loads, instead of after it
 * (Chromium target). They are the view's own queries (same keys and options), so the view reads
 * what these started and nothing is fetched twice.
 */
export default function ServicesScreen() {
  useListReads();
  // The same element on every render: the view does not render again when only these reads change.
  const view = useMemo(() => <ServicesView />, []);
  return <Suspense fallback={<Loading />}>{view}</Suspense>;
}

/** The reads ServicesView makes on its first render, for the same tab and period. */
function useListReads() {
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const tz = auth?.fleets.find((f) => f.id === fid)?.tz ?? 0;
  const [params] = useUrlParams();
  const tab = parseTab(params.get('tab'));
  const period = decodePeriod(params, fleetToday(tz, Math.floor(Date.now() / 1000)));
  const badPeriod = periodError(period.from, period.to);
  useOpenServices(tab === 'archive' ? null : fid);
  useArchivedServices(tab === 'archive' && badPeriod === null ? fid : null, period.from, period.to);
  useUnits(fid);
  useDrivers(fid);
  useTrailers(fid);
  useIntervals(fid);
}
