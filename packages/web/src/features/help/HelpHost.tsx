import { lazy, Suspense, useEffect } from 'react';
import type { AuthReply } from '../../lib/types.ts';
import { resetHelp, useHelp } from './store.ts';

const HelpDialog = lazy(() => import('./HelpDialog.tsx'));

/** Mounted by the shell: the dialog's code loads only once it is opened; logout closes it. */
export function HelpHost({ auth }: { auth: AuthReply }) {
  const help = useHelp();
  useEffect(() => resetHelp, []);
  if (!help.open) return null;
  return (
    <Suspense fallback={null}>
      <HelpDialog auth={auth} />
    </Suspense>
  );
}
