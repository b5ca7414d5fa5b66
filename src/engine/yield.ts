// Cooperative yielding: long loops on the page's thread hand control back to the event loop every so
// often, so a large write never freezes the page (no task longer than a few tens of milliseconds).

type Scheduler = { yield?: () => Promise<void> };

type Immediate = (callback: () => void) => unknown;

/**
 * Give the event loop a turn: scheduler.yield where it exists (browsers), else setImmediate (Node, Bun, Deno:
 * after pending I/O, without the ~1 ms a timer waits there), else a macrotask.
 */
export function yieldToEventLoop(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  const immediate = (globalThis as { setImmediate?: Immediate }).setImmediate;
  if (typeof immediate === 'function') return new Promise((resolve) => { immediate(resolve); });
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A counter that yields once every `every` units of work (await it inside hot loops): a call counts one unit,
 * or `units` (a step that did that much work at once).
 */
export function yielder(every = 2000): (units?: number) => Promise<void> | undefined {
  let n = 0;
  return (units = 1) => {
    n += units;
    if (n < every) return undefined;
    n = 0;
    return yieldToEventLoop();
  };
}
