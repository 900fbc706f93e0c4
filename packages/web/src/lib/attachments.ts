import { SERVICE_ATTACHMENT_BYTES_MAX, SERVICE_ATTACHMENTS_MAX } from '@fleetkeep/core';

/**
 * The caps of attachments (spec §5 "Attachments": SERVICE_ATTACHMENTS_MAX files and
 * SERVICE_ATTACHMENT_BYTES_MAX bytes per record; fuel fillings take the same caps, core FUEL_ATTACHMENTS_MAX
 * and FUEL_ATTACHMENT_BYTES_MAX) and the size of a file as a user reads it. Pure.
 */

export const ATTACHMENTS_MAX = SERVICE_ATTACHMENTS_MAX;
export const ATTACHMENT_BYTES_MAX = SERVICE_ATTACHMENT_BYTES_MAX;

export type AttachmentCapProblem = 'tooMany' | 'tooLarge';

/** Checked before an upload, so that the user hears it at once instead of after sending 32 MB. */
export function attachmentCapProblem(
  held: readonly { size: number }[],
  adding: readonly { size: number }[],
): AttachmentCapProblem | null {
  if (held.length + adding.length > ATTACHMENTS_MAX) return 'tooMany';
  const bytes = [...held, ...adding].reduce((sum, f) => sum + f.size, 0);
  return bytes > ATTACHMENT_BYTES_MAX ? 'tooLarge' : null;
}

/** A byte count as B, KB or MB with one decimal (the number is formatted by the caller, spec §9). */
export function sizeParts(bytes: number): { value: number; unit: 'byte' | 'kilobyte' | 'megabyte' } {
  if (bytes < 1024) return { value: bytes, unit: 'byte' };
  if (bytes < 1024 * 1024) return { value: Math.round((bytes / 1024) * 10) / 10, unit: 'kilobyte' };
  return { value: Math.round((bytes / (1024 * 1024)) * 10) / 10, unit: 'megabyte' };
}
