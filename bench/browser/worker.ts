// The browser benchmark in a dedicated module worker (where OPFS writes use sync access handles):
// runs one store's bench on the posted params and posts back progress, then the result or the error.
import { runBench, type BenchParams } from './bench.ts';

self.onmessage = async (e: MessageEvent<BenchParams>) => {
  try {
    const result = await runBench(e.data, (msg) => self.postMessage({ log: msg }));
    self.postMessage({ result });
  } catch (err) {
    self.postMessage({ error: err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err) });
  }
};
