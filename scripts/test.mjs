// `npm test`: runs both vitest projects (Node and headless Chromium) and ends with the plain line
// "N passed, N failed" that CI reads. Extra arguments go to vitest (e.g. `npm test -- --project node`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';

mkdirSync('reports', { recursive: true });
// Type-check library, tests and demo first; it counts as one test in the closing line.
const typecheck = spawnSync('npx', ['tsc', '-p', 'tsconfig.check.json'], { stdio: 'inherit' });
const typecheckFailed = typecheck.status === 0 ? 0 : 1;
if (typecheckFailed) console.error('typecheck failed (npx tsc -p tsconfig.check.json)');
const report = 'reports/vitest.json';
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
passed += 1 - typecheckFailed;
failed += typecheckFailed;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && run.status === 0 ? 0 : 1);
