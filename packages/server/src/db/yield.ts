import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Long batch writes (imports of 10,000 services, fuel fillings) run in one transaction so that they are
 * all-or-nothing; on SQLite each statement is synchronous, so a loop of them would hold the event loop for
 * seconds and stall every other request (pings included). `breathe(i)` gives the event loop a turn every
 * `BATCH_YIELD_EVERY` rows; the transaction stays open, other requests that need the database wait for it
 * as before, the rest (static files, pings, websockets) are answered meanwhile.
 */
export const BATCH_YIELD_EVERY = 100;

/**
 * Who wants to hear how far a batch write got (an import's "rows written"): set around a writer
 * with `batchProgress.run(report, …)`; `breathe` calls it with the row index at each of its turns.
 */
export const batchProgress = new AsyncLocalStorage<(index: number) => Promise<void> | void>();

export function breathe(index: number): Promise<void> | undefined {
  const turn = pause(index);
  const report = batchProgress.getStore();
  return turn && report ? turn.then(() => report(index)) : turn;
}

/** One turn of the event loop. */
export const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `breathe` for loops that write nothing yet (checks, plans): the turn without a progress report. */
export function pause(index: number): Promise<void> | undefined {
  if (index === 0 || index % BATCH_YIELD_EVERY !== 0) return undefined;
  return turn();
}

/**
 * A batch writer's transaction committed `count` rows: the last "rows written" report (an import's bar
 * reaches its end at the commit, before the live events and the engine run after it).
 */
export function committed(count: number): void {
  void batchProgress.getStore()?.(count);
}
