import type { AppContext } from '../context.js';

/**
 * A background job that polls a table for due work (the notification delivery worker, the report-mail
 * scheduler): started with the server, woken every `everyMs` and on demand, stopped on close. One drain at
 * a time per instance; a wake during a drain runs one more. A drain runs `prepare` once, then rounds while
 * a round took a full batch (`round` claims at most `batch` rows, does them and answers how many).
 * Instances share the table through their own claims (`FOR UPDATE SKIP LOCKED`), not through this class.
 */
export abstract class Poller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    protected readonly ctx: AppContext,
    private readonly job: { name: string; everyMs: number; batch: number },
  ) {}

  /** Claims up to a batch, does it, answers how many were claimed. */
  protected abstract round(): Promise<number>;

  /** Work before the rounds of a drain (e.g. marking sends a dead process left behind). */
  protected async prepare(): Promise<void> {}

  /** True once `close()` was called: a round stops between its rows. */
  protected get closed(): boolean {
    return this.stopped;
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.wake(), this.job.everyMs);
    this.timer.unref();
    this.wake();
  }

  /** Runs a drain now (or once more after the current one). */
  wake(): void {
    void this.drain().catch((err) => this.ctx.log?.error({ err }, this.job.name));
  }

  /** Does everything due now; resolves when done (tests await it). */
  drain(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        await this.prepare();
        do {
          this.again = false;
          while (!this.stopped && (await this.round()) === this.job.batch);
        } while (this.again && !this.stopped);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }
}

/** One instance of `make` per server context (made on first use). */
export function perContext<T>(make: (ctx: AppContext) => T): (ctx: AppContext) => T {
  const made = new WeakMap<AppContext, T>();
  return (ctx) => {
    let it = made.get(ctx);
    if (it === undefined) {
      it = make(ctx);
      made.set(ctx, it);
    }
    return it;
  };
}
