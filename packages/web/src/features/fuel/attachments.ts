import { FUEL_ATTACHMENT_BYTES_MAX, FUEL_ATTACHMENTS_MAX } from '@fleetkeep/core';

/**
 * The caps of fuel filling attachments (spec §5 "Attachments": the caps and error 2 of service
 * attachments; the contract's FUEL_ATTACHMENTS_MAX files and FUEL_ATTACHMENT_BYTES_MAX bytes). Pure.
 */

/** Checked before an upload, so that the user hears it at once instead of after sending 32 MB. */
export function attachmentCapProblem(
  held: readonly { size: number }[],
  adding: readonly { size: number }[],
): 'tooMany' | 'tooLarge' | null {
  if (held.length + adding.length > FUEL_ATTACHMENTS_MAX) return 'tooMany';
  const bytes = [...held, ...adding].reduce((sum, f) => sum + f.size, 0);
  return bytes > FUEL_ATTACHMENT_BYTES_MAX ? 'tooLarge' : null;
}

/** A byte count as B, KB or MB with one decimal (the number is formatted by the caller, spec §9). */
export function sizeParts(bytes: number): { value: number; unit: 'byte' | 'kilobyte' | 'megabyte' } {
  if (bytes < 1024) return { value: bytes, unit: 'byte' };
  if (bytes < 1024 * 1024) return { value: Math.round((bytes / 1024) * 10) / 10, unit: 'kilobyte' };
  return { value: Math.round((bytes / (1024 * 1024)) * 10) / 10, unit: 'megabyte' };
}
