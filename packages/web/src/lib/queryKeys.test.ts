import { describe, expect, it } from 'vitest';
import { keysForEvent, queryKeys } from './queryKeys.ts';

describe('live events invalidate per collection', () => {
  it('a fleet data event makes that collection of that fleet stale', () => {
    expect(keysForEvent('driver', 3)).toEqual([queryKeys.collection(3, 'driver')]);
    expect(keysForEvent('avl_unit', 1)).toEqual([['fleetkeep', 'fleet', 1, 'avl_unit']]);
  });
  it('a service event also makes the period statistics stale (they hold closed service costs)', () => {
    expect(keysForEvent('service', 3)).toEqual([
      queryKeys.collection(3, 'service'),
      ['fleetkeep', 'fleet', 3, 'avl_unit', 'statistics'],
    ]);
  });
  it('a fuel filling event makes the fuel lists and the period statistics stale (they hold fuel costs)', () => {
    expect(keysForEvent('fuelfilling', 3)).toEqual([
      ['fleetkeep', 'fleet', 3, 'fuelfilling'],
      ['fleetkeep', 'fleet', 3, 'avl_unit', 'statistics'],
    ]);
  });
  it('a fleet event makes the fleet list and that fleet stale', () => {
    expect(keysForEvent('fleet', 2)).toEqual([queryKeys.fleets(), queryKeys.fleet(2)]);
  });
  it('an event without a fleet makes everything stale', () => {
    expect(keysForEvent('lineitem', null)).toEqual([queryKeys.all]);
  });
});
