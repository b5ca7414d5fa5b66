// Cooperative yielding: long loops on the page's thread hand control back to the event loop every so
// often, so a large write never freezes the page (no task longer than a few tens of milliseconds).

type Scheduler = { yield?: () => Promise<void> };

/** Give the event loop a turn (scheduler.yield where it exists, else a macrotask). */
export function yieldToEventLoop(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A counter that yields once every `every` calls (await it inside hot loops). */
export function yielder(every = 2000): () => Promise<void> | undefined {
  let n = 0;
  return () => (++n % every === 0 ? yieldToEventLoop() : undefined);
}
