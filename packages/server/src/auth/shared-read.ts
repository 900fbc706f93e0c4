/**
 * One read shared by the requests that need it at about the same time: the access
 * revision, and a tagged list's revisions, are read on every request, and on PostgreSQL each round trip
 * costs more client CPU than the rest of a small read. Under load many requests wait for the same row.
 *
 * Correctness: a caller only ever gets a read that was started after it called, so it observes every
 * change committed before its request arrived, exactly as a read of its own would. A read already in
 * flight may have been sent before the caller arrived, so the caller waits for the next one, which
 * starts as soon as the one in flight has settled and is shared by everyone who called in the meantime.
 * At most one read is in flight and one waited for; a failed read fails only the callers it was started
 * for.
 */
export class SharedRead<T> {
  private inFlight: Promise<T> | undefined;
  private next: Promise<T> | undefined;

  /** `idle` is called when nothing is in flight or waited for (the owner may forget this reader). */
  constructor(
    private readonly read: () => Promise<T>,
    private readonly idle?: () => void,
  ) {}

  /** A read started after this call. */
  get(): Promise<T> {
    if (this.inFlight === undefined) return this.start();
    if (this.next === undefined) {
      const settled = () => {
        this.next = undefined;
        return this.start();
      };
      this.next = this.inFlight.then(settled, settled);
    }
    return this.next;
  }

  private start(): Promise<T> {
    let read: Promise<T>;
    try {
      read = this.read();
    } catch (err) {
      read = Promise.reject(err);
    }
    this.inFlight = read;
    const done = () => {
      if (this.inFlight !== read) return;
      this.inFlight = undefined;
      if (this.next === undefined) this.idle?.();
    };
    read.then(done, done);
    return read;
  }
}
