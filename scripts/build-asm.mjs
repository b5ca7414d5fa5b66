// `npm run build:asm`: compiles asm/index.ts with AssemblyScript into src/kernels/generated/kernels.wasm (SIMD
// enabled) and kernels-scalar.wasm (no SIMD). Skips the compile when both outputs are newer than asm/ sources
// and this script. Pass --force to rebuild anyway.
import { mkdirSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const asmDir = join(root, 'asm');
const outDir = join(root, 'src', 'kernels', 'generated');
const entry = join(asmDir, 'index.ts');
const common = ['-O3', '--noAssert', '--runtime', 'stub', '--use', 'abort='];
const targets = [
  { out: join(outDir, 'kernels.wasm'), flags: ['--enable', 'simd'] },
  { out: join(outDir, 'kernels-scalar.wasm'), flags: [] },
];

/** Newest modification time (ms) among the asm sources and this script. */
function newestInput() {
  let newest = statSync(fileURLToPath(import.meta.url)).mtimeMs;
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') || e.name.endsWith('.json')) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  walk(asmDir);
  return newest;
}

const force = process.argv.includes('--force');
const inputTime = newestInput();
const upToDate = !force && targets.every((t) => existsSync(t.out) && statSync(t.out).mtimeMs > inputTime);
if (upToDate) {
  console.log('build:asm: up to date');
  process.exit(0);
}

mkdirSync(outDir, { recursive: true });
const { default: asc } = await import('assemblyscript/asc');
for (const t of targets) {
  const argv = [entry, '-o', t.out, ...common, ...t.flags];
  const { error } = await asc.main(argv, { stdout: process.stdout, stderr: process.stderr });
  if (error) {
    console.error(`build:asm: asc failed for ${t.out}: ${error.message}`);
    process.exit(1);
  }
  console.log(`build:asm: wrote ${t.out.slice(root.length + 1)} (${statSync(t.out).size} bytes)`);
}
