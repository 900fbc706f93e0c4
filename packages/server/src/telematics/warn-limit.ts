/**
 * Rate-limited warnings of the ingestion: an unknown device or a refused reading is
 * logged at warn level for the operator, at most once per key (a device identifier) and interval, with
 * the count of what was left out since. A tracker resending every few seconds cannot flood the log.
 */

/** One warning per device and minute at most. */
export const WARN_INTERVAL_MS = 60_000;
/** Keys remembered at most; past it the memory starts over (a burst of new keys warns again). */
export const WARN_KEYS_MAX = 10_000;

export class WarnLimiter {
  private readonly last = new Map<string, { at: number; skipped: number }>();

  constructor(
    private readonly intervalMs = WARN_INTERVAL_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The number of warnings left out since the last one when `key` may warn now, else null. */
  take(key: string): number | null {
    const now = this.clock();
    const seen = this.last.get(key);
    if (seen && now - seen.at < this.intervalMs) {
      seen.skipped++;
      return null;
    }
    if (!seen && this.last.size >= WARN_KEYS_MAX) this.last.clear();
    this.last.set(key, { at: now, skipped: 0 });
    return seen?.skipped ?? 0;
  }
}
