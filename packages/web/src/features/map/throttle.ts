/**
 * Calls `fn` at most once per `ms`: the first call runs at once, later calls within the window run once at
 * its end with the newest arguments. `cancel` drops a pending call.
 */
export function throttle<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number,
): ((...args: A) => void) & { cancel: () => void; flush: () => void } {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | null = null;
  const run = () => {
    timer = undefined;
    last = Date.now();
    const args = pending;
    pending = null;
    if (args) fn(...args);
  };
  const throttled = (...args: A) => {
    pending = args;
    if (timer !== undefined) return;
    const wait = last + ms - Date.now();
    if (wait <= 0) run();
    else timer = setTimeout(run, wait);
  };
  throttled.cancel = () => {
    clearTimeout(timer);
    timer = undefined;
    pending = null;
  };
  throttled.flush = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    run();
  };
  return throttled;
}
