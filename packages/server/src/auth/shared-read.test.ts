import { describe, expect, it } from 'vitest';
import { SharedRead } from './shared-read.js';

/** A read the test settles by hand: `reads[i]` is the i-th read started. */
function manualReads() {
  const reads: { resolve: (v: number) => void; reject: (e: Error) => void }[] = [];
  const read = () =>
    new Promise<number>((resolve, reject) => {
      reads.push({ resolve, reject });
    });
  return { reads, read };
}

/** Lets every settled promise run its handlers. */
const flush = () => new Promise((r) => setImmediate(r));

describe('SharedRead', () => {
  it('never hands a caller a read that was in flight when it called', async () => {
    const { reads, read } = manualReads();
    const shared = new SharedRead(read);
    const first = shared.get();
    const late = shared.get(); // arrives while the first read is in flight
    expect(reads).toHaveLength(1);
    let lateValue: number | undefined;
    void late.then((v) => {
      lateValue = v;
    });
    reads[0]?.resolve(1);
    expect(await first).toBe(1);
    await flush();
    // The first read's value is not the late caller's: a second read starts for it.
    expect(lateValue).toBeUndefined();
    expect(reads).toHaveLength(2);
    reads[1]?.resolve(2);
    expect(await late).toBe(2);
  });

  it('shares the next read among everyone who called meanwhile, and starts afresh once idle', async () => {
    const { reads, read } = manualReads();
    let idle = 0;
    const shared = new SharedRead(read, () => idle++);
    const first = shared.get();
    const waiting = [shared.get(), shared.get(), shared.get()];
    reads[0]?.resolve(10);
    await first;
    await flush();
    expect(reads).toHaveLength(2);
    expect(idle).toBe(0);
    reads[1]?.resolve(11);
    expect(await Promise.all(waiting)).toEqual([11, 11, 11]);
    await flush();
    expect(idle).toBe(1);
    const after = shared.get();
    expect(reads).toHaveLength(3);
    reads[2]?.resolve(12);
    expect(await after).toBe(12);
  });

  it('fails only the callers of a failed read', async () => {
    const { reads, read } = manualReads();
    const shared = new SharedRead(read);
    const first = shared.get();
    const late = shared.get();
    reads[0]?.reject(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await flush();
    reads[1]?.resolve(3);
    expect(await late).toBe(3);
    const thrown = new SharedRead<number>(() => {
      throw new Error('sync');
    });
    await expect(thrown.get()).rejects.toThrow('sync');
  });
});
