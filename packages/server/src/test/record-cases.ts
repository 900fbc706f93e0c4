import { outcomes } from './attachment-cases.js';
import type { CaseEnv, MatrixUser, Outcome, RouteCase } from './routes.js';

/**
 * Matrix cases of a route on one record, the fleet's own and another fleet's, for the record APIs of a
 * fleet (issues, work orders, …): who may act gets 'ok' on the own record and 404 on the other fleet's
 * (it must not learn it exists); who may not is denied on both, before the record is looked at.
 */

const UNKNOWN: Outcome = { status: 404, error: 5 };

/** The outcomes on another fleet's record: 404 for who may act here, denied for the others. */
export const foreign = (ok: MatrixUser[]): Record<MatrixUser, Outcome> => ({
  ...outcomes(ok),
  ...Object.fromEntries(ok.map((u) => [u, UNKNOWN])),
});

export interface RecordApi {
  /** Route prefix as the catalogue names it, e.g. `/api/fleets/:fid/issues`. */
  route: string;
  /** The collection's URL for the case's fleet. */
  base: (env: CaseEnv) => string;
  /** A record of the demo fleet, or of the other fleet when `other`. */
  seed: (env: CaseEnv, other: boolean) => Promise<number>;
  restore: (env: CaseEnv) => Promise<void>;
  /** The label of the other fleet's case, e.g. 'an issue of another fleet'. */
  foreignLabel: string;
}

/**
 * `METHOD route/:id[/action]` on a seeded record of the fleet and on one of another fleet; `seed`
 * replaces the API's own for an action that needs a record in a given state.
 */
export function onRecord(
  api: RecordApi,
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  action: string,
  ok: MatrixUser[],
  body?: unknown,
  seed: RecordApi['seed'] = api.seed,
): RouteCase[] {
  const suffix = action ? `/${action}` : '';
  const call = async (env: CaseEnv, other: boolean) => ({
    method,
    url: `${api.base(env)}/${await seed(env, other)}${suffix}`,
    ...(body === undefined ? {} : { body }),
  });
  return [
    {
      route: `${method} ${api.route}/:id${suffix}`,
      build: (env) => call(env, false),
      expect: outcomes(ok),
      restore: api.restore,
    },
    {
      route: `${method} ${api.route}/:id${suffix}`,
      label: api.foreignLabel,
      build: (env) => call(env, true),
      expect: foreign(ok),
      restore: api.restore,
    },
  ];
}
