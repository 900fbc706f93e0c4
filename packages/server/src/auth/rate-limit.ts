/**
 * Counts failed logins per user name and address in a sliding window (DESIGN §4). In memory: with
 * several instances each keeps its own window, which still bounds guessing to N × limit.
 */
export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();
  constructor(
    private readonly limit = 10,
    private readonly windowMs = 15 * 60 * 1000,
  ) {}

  private key(name: string, address: string): string {
    return `${name.toLowerCase()}|${address}`;
  }

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  /** Seconds to wait before the next try, or 0 when a try is allowed. */
  retryAfter(name: string, address: string, now = Date.now()): number {
    const list = this.recent(this.key(name, address), now);
    if (list.length < this.limit) return 0;
    return Math.ceil((list[0]! + this.windowMs - now) / 1000);
  }

  fail(name: string, address: string, now = Date.now()): void {
    const key = this.key(name, address);
    this.failures.set(key, [...this.recent(key, now), now]);
  }

  succeed(name: string, address: string): void {
    this.failures.delete(this.key(name, address));
  }
}
