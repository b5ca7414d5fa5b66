// Chromium run of the shared kernel cases (kernel-cases.ts): the WASM builds load from their default URLs
// through Vite (SIMD picked when validated), fixtures are fetched through the dev server's /@fs route.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Kernels } from '../../src/kernels/kernels.js';
import { jsKernels } from '../../src/kernels/js-kernels.js';
import { loadKernels, wasmSimdSupported } from '../../src/kernels/wasm-kernels.js';
import { fetchFixture } from '../helpers/fixtures.browser.js';
import { kernelCases, readFixtureKeys } from './kernel-cases.js';

let impls: Record<'js' | 'scalar' | 'simd', Kernels> | undefined;
beforeAll(async () => {
  impls = { js: jsKernels, scalar: await loadKernels(undefined, { variant: 'scalar' }), simd: await loadKernels() };
});

describe('loading in the browser', () => {
  it('loads both builds from the default URLs, SIMD by default', () => {
    expect(wasmSimdSupported()).toBe(true);
    expect([impls?.simd.kind, impls?.simd.variant, impls?.simd.fallbackReason]).toEqual(['wasm', 'simd', undefined]);
    expect([impls?.scalar.kind, impls?.scalar.variant]).toEqual(['wasm', 'scalar']);
  });
});

kernelCases(() => {
  if (impls === undefined) throw new Error('kernels not loaded');
  return impls;
}, () => readFixtureKeys(fetchFixture));
