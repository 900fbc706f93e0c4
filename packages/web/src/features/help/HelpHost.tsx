import type { SessionAuthReply } from '@fleetkeep/core';
import { lazy, Suspense, useEffect } from 'react';
import { resetHelp, useHelp } from './store.ts';

const HelpDialog = lazy(() => import('./HelpDialog.tsx'));

/** Mounted by the shell: the dialog's code loads only once it is opened; logout closes it. */
export function HelpHost({ auth }: { auth: SessionAuthReply }) {
  const help = useHelp();
  useEffect(() => resetHelp, []);
  if (!help.open) return null;
  return (
    <Suspense fallback={null}>
      <HelpDialog auth={auth} />
    </Suspense>
  );
}
