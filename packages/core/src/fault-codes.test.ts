import { describe, expect, it } from 'vitest';
import {
  FAULT_CODE_MAX_LENGTH,
  FAULT_CODES_PER_READING_MAX,
  isCriticalFaultCode,
  normalizeFaultCode,
  parseFaultCodes,
} from './fault-codes.js';

describe('fault codes', () => {
  it('normalises a code: trimmed, upper case, letters, digits, - and _', () => {
    expect(normalizeFaultCode(' p0300 ')).toBe('P0300');
    expect(normalizeFaultCode('U0100-1A')).toBe('U0100-1A');
    expect(normalizeFaultCode('')).toBeNull();
    expect(normalizeFaultCode('P03 00')).toBeNull();
    expect(normalizeFaultCode('-P0300')).toBeNull();
    expect(normalizeFaultCode('P0300<')).toBeNull();
    expect(normalizeFaultCode('X'.repeat(FAULT_CODE_MAX_LENGTH))).not.toBeNull();
    expect(normalizeFaultCode('X'.repeat(FAULT_CODE_MAX_LENGTH + 1))).toBeNull();
  });

  it('reads codes separated by spaces, commas or semicolons, once each, in order', () => {
    expect(parseFaultCodes('P0300 P0171,p0300;  C1234 ')).toEqual(['P0300', 'P0171', 'C1234']);
    expect(parseFaultCodes(['P0100', 'bad code', 7, 'p0100', 'B0001'])).toEqual(['P0100', 'B0001']);
    expect(parseFaultCodes('')).toEqual([]);
    expect(parseFaultCodes(42)).toEqual([]);
    expect(parseFaultCodes(undefined)).toEqual([]);
  });

  it('keeps at most the limit of codes per message', () => {
    const many = Array.from({ length: FAULT_CODES_PER_READING_MAX + 5 }, (_, i) => `P${1000 + i}`).join(' ');
    expect(parseFaultCodes(many)).toHaveLength(FAULT_CODES_PER_READING_MAX);
  });

  it('counts a code as critical when the list holds it or a prefix of it', () => {
    expect(isCriticalFaultCode('P0301', ['P03'])).toBe(true);
    expect(isCriticalFaultCode('P0301', ['p0301'])).toBe(true);
    expect(isCriticalFaultCode('P0401', ['P03', 'C'])).toBe(false);
    expect(isCriticalFaultCode('C1234', ['P03', 'c'])).toBe(true);
    expect(isCriticalFaultCode('P0301', [])).toBe(false);
    expect(isCriticalFaultCode('P0301', ['', ' '])).toBe(false);
  });
});
