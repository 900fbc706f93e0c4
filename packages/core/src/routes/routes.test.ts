import { describe, expect, it } from 'vitest';
import { NEEDS } from '../needs.js';
import { routes } from './index.js';
import { pathParamNames, type RouteDef } from './route.js';

const all = Object.entries(routes).flatMap(([module, defs]) =>
  Object.entries(defs as Record<string, RouteDef>).map(([name, def]) => ({ at: `${module}.${name}`, def })),
);

describe('route descriptors', () => {
  it('name each route once, under /api', () => {
    const keys = all.map(({ def }) => `${def.method} ${def.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(all.filter(({ def }) => !def.path.startsWith('/api/')).map(({ at }) => at)).toEqual([]);
  });

  it('declare params for exactly the path segments', () => {
    const wrong = all
      .filter(({ def }) => {
        const names = pathParamNames(def.path).sort();
        const declared = def.params ? Object.keys(def.params.shape).sort() : [];
        return names.join() !== declared.join();
      })
      .map(({ at }) => at);
    expect(wrong).toEqual([]);
  });

  it('ask a known need, and send no body with GET', () => {
    const unknownNeed = all.filter(({ def }) => def.need !== 'public' && !Object.hasOwn(NEEDS, def.need));
    expect(unknownNeed.map(({ at }) => at)).toEqual([]);
    const withBody = all.filter(({ def }) => def.body !== undefined && def.method === 'GET');
    expect(withBody.map(({ at }) => at)).toEqual([]);
  });

  it('read the path params in path order', () => {
    expect(pathParamNames('/api/fleets/:fid/fuel-fillings/:id/attachments/:aid')).toEqual([
      'fid',
      'id',
      'aid',
    ]);
    expect(pathParamNames('/api/session')).toEqual([]);
  });
});
