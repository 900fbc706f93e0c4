import { teltonikaIoMapping } from '@fleetkeep/core';
import type { IoMapping } from './reading.js';

export type { IoMapping } from './reading.js';

/**
 * A unit type's Teltonika IO mapping as stored (`unit_types.teltonika_io`, JSON of core
 * `teltonikaIoMapping`); none when unset or unreadable (a broken setting must not stop the tracker).
 */
export function ioMappingOf(text: string | null | undefined): IoMapping {
  if (!text) return {};
  try {
    const parsed = teltonikaIoMapping.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}
