// Kernel benchmark in the browser: loads the kernels the way an app does (default wasm URLs through Vite),
// checks that JS twin, scalar and SIMD agree, times the shared cases and leaves the samples in window.__result.
import { jsKernels } from '../../../src/kernels/js-kernels.js';
import { loadKernels } from '../../../src/kernels/wasm-kernels.js';
import { packKeys } from '../../../src/kernels/kernels.js';
// @ts-expect-error: plain JS module shared with the Node runner
import { makeData, makeCases, checkAgree, measure } from '../cases.mjs';

declare global {
  interface Window { __result?: unknown; __error?: string }
}

async function main(): Promise<void> {
  const runs = Number(new URLSearchParams(location.search).get('runs') ?? 11);
  const simd = await loadKernels();
  const scalar = await loadKernels(undefined, { variant: 'scalar' });
  if (simd.kind !== 'wasm' || simd.variant !== 'simd' || scalar.kind !== 'wasm') {
    throw new Error(`wasm did not load: ${simd.fallbackReason ?? scalar.fallbackReason ?? simd.variant}`);
  }
  const impls = { js: jsKernels, scalar, simd };
  const data = makeData(jsKernels, packKeys);
  const cases = makeCases(data);
  checkAgree(cases, impls);
  const samples = await measure(cases, impls, { runs, pause: () => new Promise((r) => setTimeout(r, 0)) });
  const names = Object.fromEntries(cases.map((c: { id: string; name: string }) => [c.id, c.name]));
  window.__result = { samples, names, userAgent: navigator.userAgent };
  const out = document.getElementById('out');
  if (out) out.textContent = JSON.stringify(window.__result, null, 1);
}

main().catch((err: unknown) => {
  window.__error = err instanceof Error ? `${err.message}\n${err.stack}` : String(err);
});
