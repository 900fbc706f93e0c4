import {
  guardRoute,
  type ImportCells,
  type ImportDateFormat,
  type ImportKind,
  type RouteName,
} from '@fleetkeep/core';
import { Navigate, useLocation } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { ScreenMark } from '../../components/ScreenMark.tsx';
import { guardUser, useSession } from '../../lib/session.ts';
import { ChooseStep } from './ChooseStep.tsx';
import { PreviewStep } from './PreviewStep.tsx';

/** What the list screen's Import button passes: the chosen file. */
export interface ChosenFile {
  file: File;
}
/** What the choose step passes to the preview: the mapped rows (spec §2: rows via navigation state). */
export interface ImportRowsState {
  rows: ImportCells[];
  dateFormat: ImportDateFormat;
  fileName: string;
}

const ROUTES: Record<ImportKind, RouteName> = {
  intervals: 'intervalsImport',
  services: 'servicesImport',
  fuelfillings: 'fuelfillingsImport',
  lineitems: 'lineitemsImport',
  units: 'unitsImport',
};

/**
 * `/{kind}/import` (spec §2): needs the kind's manage right and rows in navigation state, else `/`. The
 * list screen's Import button passes the chosen file (the rows it holds); the choose step (options and
 * column mapping) then replaces it with the mapped rows, which the preview edits and imports.
 */
export default function ImportScreen({ kind }: { kind: ImportKind }) {
  const session = useSession();
  const location = useLocation();
  const state = location.state as Partial<ChosenFile & ImportRowsState> | null;
  const hasRows = Array.isArray(state?.rows) && state.rows.length > 0;
  const hasFile = state?.file instanceof File;
  if (session.status !== 'authenticated') return <Loading />;
  const decision = guardRoute(guardUser(session.auth), ROUTES[kind], { hasState: hasRows || hasFile });
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  return (
    <>
      {hasRows ? (
        <PreviewStep key={location.key} kind={kind} state={state as ImportRowsState} />
      ) : (
        <ChooseStep key={location.key} kind={kind} file={state?.file as File} />
      )}
      <ScreenMark route={ROUTES[kind]} />
    </>
  );
}
