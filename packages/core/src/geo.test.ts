import { describe, expect, it } from 'vitest';
import { haversineKm } from './geo.js';

describe('haversineKm', () => {
  it('is zero for one point and symmetric', () => {
    expect(haversineKm(53.9, 27.56, 53.9, 27.56)).toBe(0);
    expect(haversineKm(53.9, 27.56, 54.9, 25.3)).toBeCloseTo(haversineKm(54.9, 25.3, 53.9, 27.56), 9);
  });
  it('measures one degree of latitude as about 111.2 km', () => {
    expect(haversineKm(0, 0, 1, 0)).toBeCloseTo(111.195, 2);
  });
  it('measures Paris to London as about 344 km', () => {
    expect(haversineKm(48.8566, 2.3522, 51.5074, -0.1278)).toBeCloseTo(343.6, 0);
  });
});
