/**
 * Long batch writes (imports of 10,000 services, fuel fillings) run in one transaction so that they are
 * all-or-nothing; on SQLite each statement is synchronous, so a loop of them would hold the event loop for
 * seconds and stall every other request (pings included). `breathe(i)` gives the event loop a turn every
 * `BATCH_YIELD_EVERY` rows; the transaction stays open, other requests that need the database wait for it
 * as before, the rest (static files, pings, websockets) are answered meanwhile.
 */
export const BATCH_YIELD_EVERY = 200;

export function breathe(index: number): Promise<void> | undefined {
  if (index === 0 || index % BATCH_YIELD_EVERY !== 0) return undefined;
  return new Promise((resolve) => setImmediate(resolve));
}
