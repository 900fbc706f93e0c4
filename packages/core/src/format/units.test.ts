import { describe, expect, it } from 'vitest';
import { FuelMeasure, KM_PER_MILE, MeasureSystem } from '../constants.js';
import {
  fleetDistanceToKm,
  fleetVolumeToLitres,
  formatDistance,
  formatVolume,
  kmToFleetDistance,
  LITRES_PER_US_GALLON,
  litresToFleetVolume,
  unitLabel,
} from './units.js';

const { miles, meters } = MeasureSystem;
const { liter, gallon } = FuelMeasure;

describe('distances in the fleet unit (spec §3 ms, §9)', () => {
  it('converts km to miles with exact decimals', () => {
    expect(kmToFleetDistance(KM_PER_MILE, miles)).toBe(1);
    expect(kmToFleetDistance(100, miles)).toBe(62.137);
    expect(kmToFleetDistance(1, miles)).toBe(0.621);
    expect(kmToFleetDistance(-100, miles)).toBe(-62.137);
    expect(kmToFleetDistance(123456.789, miles)).toBe(76712.492);
  });
  it('keeps km for any other measure system', () => {
    expect(kmToFleetDistance(100.12345, meters)).toBe(100.123);
    expect(kmToFleetDistance(100, undefined)).toBe(100);
    expect(kmToFleetDistance(100, 7)).toBe(100);
  });
  it('converts back to km', () => {
    expect(fleetDistanceToKm(1, miles)).toBe(1.609);
    expect(fleetDistanceToKm(62.1, miles)).toBe(99.94);
    expect(fleetDistanceToKm(62.137, miles)).toBe(100);
    expect(fleetDistanceToKm(1000, miles)).toBe(1609.344);
    expect(fleetDistanceToKm(5, meters)).toBe(5);
  });
  it('formats with the localised unit label', () => {
    expect(formatDistance(100, miles, 'en')).toBe('62.137 mi');
    expect(formatDistance(100, meters, 'en')).toBe('100 km');
    expect(formatDistance(123456.789, miles, 'en', { decimals: 0 })).toBe('76 712 mi');
    expect(formatDistance(1234.5, meters, 'ru', { decimals: 0 })).toBe('1 235 км');
    expect(formatDistance(1500, meters, 'en', { suffix: true })).toBe('1.5k km');
  });
  it('picks the plural form of the number as shown', () => {
    expect(formatDistance(KM_PER_MILE, miles, 'uk')).toBe('1 миля');
    expect(formatDistance(5 * KM_PER_MILE, miles, 'uk')).toBe('5 миль');
    expect(formatDistance(1.2 * KM_PER_MILE, miles, 'uk', { decimals: 0 })).toBe('1 миля');
  });
});

describe('volumes in the fleet unit (spec §3 fm)', () => {
  it('converts litres to US gallons with exact decimals', () => {
    expect(LITRES_PER_US_GALLON).toBe(3.785411784);
    expect(litresToFleetVolume(LITRES_PER_US_GALLON, gallon)).toBe(1);
    expect(litresToFleetVolume(100, gallon)).toBe(26.417);
    expect(litresToFleetVolume(50.5, gallon)).toBe(13.341);
    expect(litresToFleetVolume(-10, gallon)).toBe(-2.642);
  });
  it('keeps litres for fm 1 and for an unset measure', () => {
    expect(litresToFleetVolume(40.1234, liter)).toBe(40.123);
    expect(litresToFleetVolume(40, undefined)).toBe(40);
  });
  it('converts back to litres', () => {
    expect(fleetVolumeToLitres(1, gallon)).toBe(3.785);
    expect(fleetVolumeToLitres(10, gallon)).toBe(37.854);
    expect(fleetVolumeToLitres(1000, gallon)).toBe(3785.412);
    expect(fleetVolumeToLitres(12.5, liter)).toBe(12.5);
  });
  it('formats with the localised unit label', () => {
    expect(formatVolume(100, gallon, 'en')).toBe('26.417 gal');
    expect(formatVolume(100, liter, 'en')).toBe('100 L');
    expect(formatVolume(1234.5, liter, 'ru')).toBe('1 234.5 л');
    expect(formatVolume(100, gallon, 'ru')).toBe('26.417 ам. гал.');
  });
});

describe('unitLabel', () => {
  it('names units in the language, and the unit itself when Intl does not know it', () => {
    expect(unitLabel('en', 'kilometer')).toBe('km');
    expect(unitLabel('ru', 'mile')).toBe('ми');
    expect(unitLabel('de', 'day', 1)).toBe('Tg.');
    expect(unitLabel('en', 'parsec')).toBe('parsec');
  });
});
