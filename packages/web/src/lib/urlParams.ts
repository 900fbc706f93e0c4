import { useCallback, useEffect } from 'react';
import { type NavigateOptions, useLocation, useSearchParams } from 'react-router';

/**
 * The query string a screen keeps its tab, filters, sort and search in (STYLE "Web code"), with updates
 * that never lose each other. react-router's functional `setSearchParams` builds on the parameters of
 * the caller's last render; two changes before the next render (a quick second click, typing while a
 * transition is pending, two controls of different components) would drop the first. The last query
 * asked for is kept here, for the whole app, with the queries it was built through: while the committed
 * location still shows one of those, the next change builds on the last one asked for.
 *
 * Navigations render in a transition, which React may start, drop and start again when a new event comes
 * in (a second key press while a 10,000-row table sorts). So the chain is forgotten only once a location
 * it asked for has been committed (an effect), never during a render that may not commit.
 */
export interface Pending {
  path: string;
  /** The queries this chain went through, oldest first; the last is the one asked for most recently. */
  trail: string[];
}
let pending: Pending | null = null;

export type ParamsPatch = (params: URLSearchParams) => URLSearchParams;

/** Which query a change made while `current` is committed at `path` builds on. */
export function baseQuery(chain: Pending | null, path: string, current: string): string {
  if (!chain || chain.path !== path || !chain.trail.includes(current)) return current;
  return chain.trail[chain.trail.length - 1] ?? current;
}

/** The chain after asking for `next` on top of `base`, while `current` is committed. */
export function extendChain(chain: Pending | null, path: string, current: string, next: string): Pending {
  const kept = chain && chain.path === path && chain.trail.includes(current) ? chain.trail : [current];
  return { path, trail: [...kept, next] };
}

/** The chain once `current` has been committed at `path`: gone when that was the last query asked for. */
export function settleChain(chain: Pending | null, path: string, current: string): Pending | null {
  if (!chain) return null;
  if (chain.path !== path) return null;
  const last = chain.trail[chain.trail.length - 1];
  if (last === current) return null;
  // A location between the first and the last request: keep building on the last one asked for.
  if (chain.trail.includes(current)) return chain;
  // Somewhere else (the back button, a link): later changes build on the location again.
  return null;
}

export function useUrlParams(): [
  URLSearchParams,
  (patch: ParamsPatch, options?: Pick<NavigateOptions, 'state'>) => void,
] {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const current = location.search.replace(/^\?/, '');
  const path = location.pathname;
  useEffect(() => {
    pending = settleChain(pending, path, current);
  }, [current, path]);
  const update = useCallback(
    (patch: ParamsPatch, options: Pick<NavigateOptions, 'state'> = {}) => {
      const base = baseQuery(pending, path, current);
      const next = patch(new URLSearchParams(base)).toString();
      pending = extendChain(pending, path, current, next);
      setParams(new URLSearchParams(next), { replace: true, ...options });
    },
    [current, path, setParams],
  );
  return [params, update];
}
