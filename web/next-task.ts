// Handing the page's thread back to the browser between steps of long work (building a large batch, drawing
// the charts after the result grid), so no step of the demo is one long task.

/** Give the page's event loop a turn: `scheduler.yield()` where the browser has it, else a macrotask. */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}
