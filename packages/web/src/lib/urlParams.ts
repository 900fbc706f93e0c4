import { useCallback } from 'react';
import { type NavigateOptions, useLocation, useSearchParams } from 'react-router';

/**
 * The query string a screen keeps its tab, filters, sort and search in (STYLE "Web code"), with updates
 * that never lose each other. react-router's functional `setSearchParams` builds on the parameters of
 * the caller's last render; two changes before the next render (a quick second click, typing while a
 * transition is pending, two controls of different components) would drop the first. The last query
 * asked for is kept here, for the whole app: while the location still shows the one it was based on, the
 * next change builds on it.
 */
let pending: { from: string; path: string; next: string } | null = null;

export type ParamsPatch = (params: URLSearchParams) => URLSearchParams;

export function useUrlParams(): [
  URLSearchParams,
  (patch: ParamsPatch, options?: Pick<NavigateOptions, 'state'>) => void,
] {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const current = location.search.replace(/^\?/, '');
  const path = location.pathname;
  // Landed: later changes build on the location again (a back button may return to an older query).
  if (pending && pending.next === current && pending.path === path) pending = null;
  const update = useCallback(
    (patch: ParamsPatch, options: Pick<NavigateOptions, 'state'> = {}) => {
      const base = pending && pending.from === current && pending.path === path ? pending.next : current;
      const next = patch(new URLSearchParams(base));
      pending = { from: current, path, next: next.toString() };
      setParams(next, { replace: true, ...options });
    },
    [current, path, setParams],
  );
  return [params, update];
}
