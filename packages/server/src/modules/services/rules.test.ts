import { describe, expect, it } from 'vitest';
import { contentDisposition, safeContentType } from './attachments.js';
import { canTransition, dayOf, flagsFor, type Status, statusOf } from './rules.js';

describe('service status rules (spec §4)', () => {
  it('allows the transitions of PRODUCT.md and freezes the archive', () => {
    const all: Status[] = ['due', 'inProgress', 'closed', 'rejected'];
    const allowed = all.flatMap((from) =>
      all.filter((to) => canTransition(from, to)).map((to) => `${from}>${to}`),
    );
    expect(allowed).toEqual([
      'due>due',
      'due>inProgress',
      'due>closed',
      'due>rejected',
      'inProgress>due',
      'inProgress>inProgress',
      'inProgress>closed',
      'inProgress>rejected',
    ]);
  });

  it('reads the status from flags and drops overdue bits when a service leaves Due', () => {
    expect(statusOf(1 | 4 | 256 | 128)).toBe('due');
    expect(statusOf(2)).toBe('inProgress');
    expect(statusOf(8)).toBe('closed');
    expect(statusOf(16)).toBe('rejected');
    expect(flagsFor(1 | 4 | 512, 'due')).toBe(1 | 4 | 512);
    expect(flagsFor(1 | 4 | 512, 'inProgress')).toBe(2);
    expect(flagsFor(2, 'due')).toBe(129);
    expect(flagsFor(1 | 4, 'closed')).toBe(8);
  });

  it('takes dates as the start of the day in the fleet zone', () => {
    const utc3 = 180;
    const minus5 = -300 & 0xffff;
    // 2026-03-10 00:00 at UTC+3 is 2026-03-09 21:00 UTC.
    expect(dayOf(utc3, '2026-03-10')).toBe(Date.UTC(2026, 2, 9, 21) / 1000);
    expect(dayOf(minus5, '2026-03-10')).toBe(Date.UTC(2026, 2, 10, 5) / 1000);
    // 2026-03-09 22:30 UTC is already March 10 at UTC+3.
    expect(dayOf(utc3, Date.UTC(2026, 2, 9, 22, 30) / 1000)).toBe(Date.UTC(2026, 2, 9, 21) / 1000);
    expect(dayOf(0, '2026-02-30')).toBeUndefined();
    expect(dayOf(0, '2026-13-01')).toBeUndefined();
    expect(dayOf(0, '10.03.2026')).toBeUndefined();
  });
});

describe('attachment download headers', () => {
  it('passes only safe content types through', () => {
    expect(safeContentType('image/PNG')).toBe('image/png');
    expect(safeContentType('text/plain; charset=utf-8')).toBe('text/plain');
    expect(safeContentType('text/html')).toBe('application/octet-stream');
    expect(safeContentType('image/svg+xml')).toBe('application/octet-stream');
  });

  it('names the file with an ASCII fallback and the RFC 5987 UTF-8 form', () => {
    expect(contentDisposition("Ölwechsel (1)'s.pdf")).toBe(
      `attachment; filename="_lwechsel (1)'s.pdf"; filename*=UTF-8''%C3%96lwechsel%20%281%29%27s.pdf`,
    );
  });
});
