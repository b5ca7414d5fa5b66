// `npm run build` (after build:asm): compiles src/ to dist/ (ESM JavaScript + .d.ts) with tsc and copies
// the WASM kernels next to the module that loads them, so `import 'lakelet'` works from dist.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
const tsc = spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
if (!existsSync('src/kernels/generated')) {
  console.error('build: src/kernels/generated is missing; run npm run build:asm first');
  process.exit(1);
}
mkdirSync('dist/kernels/generated', { recursive: true });
cpSync('src/kernels/generated', 'dist/kernels/generated', { recursive: true });
console.log('build: dist/ ready');
