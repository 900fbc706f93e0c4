import { describe, expect, it } from 'vitest';
import { FAULTS_PER_MINUTE, FaultRecorder, KEPT_FAULTS, type StoredFault } from './faults.js';

const fault = (message: string): StoredFault => ({
  kind: 'error',
  release: '4.4.34',
  message,
  tm: 0,
  userAgent: 'test',
  user: null,
});

describe('FaultRecorder', () => {
  it('admits FAULTS_PER_MINUTE reports per address and minute, then refuses until the minute ends', () => {
    let t = 1_000_000;
    const recorder = new FaultRecorder(() => t);
    for (let i = 0; i < FAULTS_PER_MINUTE; i++) expect(recorder.admit('10.0.0.1')).toBe(true);
    expect(recorder.admit('10.0.0.1')).toBe(false);
    // Another address has its own budget.
    expect(recorder.admit('10.0.0.2')).toBe(true);
    t += 59_999;
    expect(recorder.admit('10.0.0.1')).toBe(false);
    t += 1;
    expect(recorder.admit('10.0.0.1')).toBe(true);
  });

  it(`keeps the newest ${KEPT_FAULTS} reports, newest first`, () => {
    const recorder = new FaultRecorder();
    for (let i = 0; i < KEPT_FAULTS + 5; i++) recorder.record(fault(`m${i}`));
    const list = recorder.list();
    expect(list).toHaveLength(KEPT_FAULTS);
    expect(list[0]!.message).toBe(`m${KEPT_FAULTS + 4}`);
    expect(list.at(-1)!.message).toBe('m5');
  });
});
