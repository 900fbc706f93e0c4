import {
  FUEL_ATTACHMENT_BYTES_MAX,
  FUEL_ATTACHMENTS_MAX,
  SERVICE_ATTACHMENT_BYTES_MAX,
  SERVICE_ATTACHMENTS_MAX,
} from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_BYTES_MAX, ATTACHMENTS_MAX, attachmentCapProblem, sizeParts } from './attachments.ts';

describe('attachment caps (spec §5: 20 files, 32 MB, the same for services and fuel fillings)', () => {
  it('are the caps of both contracts', () => {
    expect(ATTACHMENTS_MAX).toBe(20);
    expect(ATTACHMENT_BYTES_MAX).toBe(32 * 1024 * 1024);
    expect([SERVICE_ATTACHMENTS_MAX, FUEL_ATTACHMENTS_MAX]).toEqual([ATTACHMENTS_MAX, ATTACHMENTS_MAX]);
    expect([SERVICE_ATTACHMENT_BYTES_MAX, FUEL_ATTACHMENT_BYTES_MAX]).toEqual([
      ATTACHMENT_BYTES_MAX,
      ATTACHMENT_BYTES_MAX,
    ]);
  });

  it('refuses too many or too large before sending', () => {
    expect(attachmentCapProblem([], [{ size: 10 }])).toBeNull();
    const held = Array.from({ length: 19 }, () => ({ size: 1 }));
    expect(attachmentCapProblem(held, [{ size: 1 }])).toBeNull();
    expect(attachmentCapProblem(held, [{ size: 1 }, { size: 1 }])).toBe('tooMany');
    expect(attachmentCapProblem([{ size: ATTACHMENT_BYTES_MAX - 5 }], [{ size: 6 }])).toBe('tooLarge');
    expect(attachmentCapProblem([{ size: ATTACHMENT_BYTES_MAX - 5 }], [{ size: 5 }])).toBeNull();
    expect(attachmentCapProblem([{ size: 32 * 1024 * 1024 }], [{ size: 1 }])).toBe('tooLarge');
  });

  it('gives a size in bytes, KB or MB with one decimal', () => {
    expect(sizeParts(0)).toEqual({ value: 0, unit: 'byte' });
    expect(sizeParts(1023)).toEqual({ value: 1023, unit: 'byte' });
    expect(sizeParts(1536)).toEqual({ value: 1.5, unit: 'kilobyte' });
    expect(sizeParts(5 * 1024 * 1024 + 104858)).toEqual({ value: 5.1, unit: 'megabyte' });
  });
});
