import { describe, expect, it } from 'vitest';
import {
  axleLayout,
  componentDistance,
  componentTransition,
  costPerKm,
  isTreadLow,
  layoutPositions,
  normalizePosition,
  parseTyrePosition,
} from './components.js';
import { UNIT_TYPES } from './constants.js';

const typeId = (name: (typeof UNIT_TYPES)[number]) => UNIT_TYPES.indexOf(name) + 1;

describe('component states', () => {
  it('goes in stock → mounted → in stock, and retires from stock or mounted', () => {
    expect(componentTransition('stock', 'mount')).toBe('mounted');
    expect(componentTransition('mounted', 'dismount')).toBe('stock');
    expect(componentTransition('stock', 'retire')).toBe('retired');
    expect(componentTransition('mounted', 'retire')).toBe('retired');
  });
  it('refuses the rest', () => {
    expect(componentTransition('mounted', 'mount')).toBeNull();
    expect(componentTransition('stock', 'dismount')).toBeNull();
    for (const action of ['mount', 'dismount', 'retire'] as const)
      expect(componentTransition('retired', action)).toBeNull();
  });
});

describe('positions', () => {
  it('reads a tyre position: axle, side, inner or outer', () => {
    expect(parseTyrePosition('1L')).toEqual({ axle: 1, side: 'L', wheel: '' });
    expect(parseTyrePosition('3RO')).toEqual({ axle: 3, side: 'R', wheel: 'O' });
    expect(parseTyrePosition('2LI')).toEqual({ axle: 2, side: 'L', wheel: 'I' });
    for (const bad of ['', 'L1', '0L', '7L', '1X', '1LX', '12L', ' 1L'])
      expect(parseTyrePosition(bad)).toBeNull();
  });
  it('normalises by kind: tyres to the canonical text, others free', () => {
    expect(normalizePosition('tyre', ' 2ro ')).toBe('2RO');
    expect(normalizePosition('tyre', 'boot')).toBeNull();
    expect(normalizePosition('battery', ' Engine bay ')).toBe('Engine bay');
    expect(normalizePosition('battery', '   ')).toBeNull();
    expect(normalizePosition('battery', 'x'.repeat(41))).toBeNull();
  });
  it('draws two axles for cars and vans, twin rear axles for lorries, three for heavy trucks', () => {
    expect(layoutPositions(axleLayout(typeId('car')))).toEqual(['1L', '1R', '2L', '2R']);
    expect(layoutPositions(axleLayout(typeId('van')))).toEqual(['1L', '1R', '2L', '2R']);
    expect(layoutPositions(axleLayout(null))).toHaveLength(4);
    expect(layoutPositions(axleLayout(typeId('lorry')))).toEqual(['1L', '1R', '2LO', '2LI', '2RI', '2RO']);
    const heavy = axleLayout(typeId('heavy_truck'));
    expect(heavy).toHaveLength(3);
    expect(layoutPositions(heavy)).toHaveLength(10);
    for (const p of layoutPositions(heavy)) expect(parseTyrePosition(p)).not.toBeNull();
  });
});

describe('distance and cost per km', () => {
  it('sums the mount periods; the open one runs to the current odometer', () => {
    const periods = [
      { mountOdometer: 10_000, dismountOdometer: 11_000 },
      { mountOdometer: 50_000, dismountOdometer: 50_250.5 },
      { mountOdometer: 60_000, dismountOdometer: null },
    ];
    expect(componentDistance(periods, 60_400)).toBe(1650.5);
    expect(componentDistance(periods, null)).toBe(1250.5);
    expect(componentDistance([], 5)).toBe(0);
  });
  it('never counts a meter that went back', () => {
    expect(componentDistance([{ mountOdometer: 1000, dismountOdometer: 900 }], null)).toBe(0);
    expect(componentDistance([{ mountOdometer: 1000, dismountOdometer: null }], 800)).toBe(0);
  });
  it('divides the cost (thousandths) by the distance; null before any distance', () => {
    expect(costPerKm(300_000, 1000)).toBe(300);
    expect(costPerKm(300_000, 0)).toBeNull();
    expect(costPerKm(100_000, 3)).toBe(33_333);
  });
  it('a tread reading strictly under the threshold is low', () => {
    expect(isTreadLow(2999, 3000)).toBe(true);
    expect(isTreadLow(3000, 3000)).toBe(false);
  });
});
