// `npm test`: runs both vitest projects (Node and headless Chromium) and ends with the plain line
// "N passed, N failed" that CI reads. Extra arguments go to vitest (e.g. `npm test -- --project node`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

mkdirSync('reports', { recursive: true });
// Type-check library, tests and demo, then build dist/ (the CLI tests run bin/lakelet.js on it);
// each counts as one test in the closing line.
const checks = [
  ['typecheck', ['npx', 'tsc', '-p', 'tsconfig.check.json']],
  ['build', ['node', 'scripts/build.mjs']],
];
let checksFailed = 0;
for (const [name, [cmd, ...cmdArgs]] of checks) {
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit' });
  if (r.status !== 0) {
    checksFailed++;
    console.error(`${name} failed (${[cmd, ...cmdArgs].join(' ')})`);
  }
}
const report = resolve('reports/vitest.json'); // absolute: vitest resolves it against its own root (web/)
if (existsSync(report)) rmSync(report);
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
const run = spawnSync('npx', args, { stdio: 'inherit' });
let passed = 0;
let failed = 0;
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed = r.numPassedTests;
  failed = r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
} else {
  failed = 1;
}
if (run.status !== 0 && failed === 0) failed = 1;
passed += checks.length - checksFailed;
failed += checksFailed;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && run.status === 0 ? 0 : 1);
