import { RELEASE } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { FaultGate, faultBody, MAX_REPORTS } from './faults.ts';

describe('faultBody', () => {
  it('names the error, keeps its stack and the release', () => {
    const error = new TypeError('x is undefined');
    const body = faultBody('error', error, '/services?tab=archive');
    expect(body).toMatchObject({
      kind: 'error',
      release: RELEASE,
      message: 'TypeError: x is undefined',
      url: '/services?tab=archive',
    });
    expect(body?.stack).toContain('x is undefined');
  });

  it('takes strings, router error responses and plain values', () => {
    expect(faultBody('rejection', 'Failed to fetch', '/')?.message).toBe('Failed to fetch');
    expect(faultBody('render', { status: 404, statusText: 'Not Found' }, '/')?.message).toBe(
      'Route error 404 Not Found',
    );
    expect(faultBody('rejection', { code: 5 }, '/')?.message).toBe('{"code":5}');
    expect(faultBody('rejection', undefined, '/')?.message).toBe('undefined');
  });

  it('drops browser noise and empty messages, and caps the lengths the server accepts', () => {
    expect(
      faultBody('error', 'ResizeObserver loop completed with undelivered notifications.', '/'),
    ).toBeNull();
    expect(faultBody('error', 'Script error.', '/')).toBeNull();
    expect(faultBody('error', '   ', '/')).toBeNull();
    const long = faultBody('error', 'y'.repeat(5000), `/${'z'.repeat(3000)}`);
    expect(long?.message).toHaveLength(2000);
    expect(long?.url).toHaveLength(2000);
  });
});

describe('FaultGate', () => {
  it('passes each distinct fault once and at most MAX_REPORTS in all', () => {
    const gate = new FaultGate();
    const body = (message: string) => faultBody('error', message, '/')!;
    expect(gate.pass(body('a'))).toBe(true);
    expect(gate.pass(body('a'))).toBe(false);
    expect(gate.pass(faultBody('rejection', 'a', '/')!)).toBe(true);
    for (let i = 0; i < MAX_REPORTS * 2; i++) gate.pass(body(`m${i}`));
    expect(gate.pass(body('new after the cap'))).toBe(false);
  });
});
