import { describe, expect, it } from 'vitest';
import { FAULTS_PER_MINUTE, FaultRecorder } from './faults.js';

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
});

describe('FaultRecorder bound', () => {
  it('forgets the least recently reporting address past its bound, which then starts a new minute', () => {
    const t = 1_000_000;
    const recorder = new FaultRecorder(() => t, 2);
    for (let i = 0; i < FAULTS_PER_MINUTE; i++) recorder.admit('10.0.0.1');
    for (let i = 0; i < FAULTS_PER_MINUTE; i++) recorder.admit('10.0.0.2');
    expect(recorder.admit('10.0.0.1')).toBe(false);
    // A third address pushes out 10.0.0.2, the least recently seen; 10.0.0.1 keeps its spent minute.
    expect(recorder.admit('10.0.0.3')).toBe(true);
    expect(recorder.admit('10.0.0.1')).toBe(false);
    expect(recorder.admit('10.0.0.2')).toBe(true);
  });
});
