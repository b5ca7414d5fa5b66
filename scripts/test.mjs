// `npm test`: type-checks, builds dist/, runs both vitest projects (Node and headless Chromium) and ends with
// the plain line "N passed, N failed, N skipped" that CI reads. Extra arguments go to vitest (e.g.
// `npm test -- --project node`, `npm test -- test/engine/clean.test.ts`).
// The line tells the truth: "failed" counts failed tests, test files that failed to load or whose hooks failed
// (their tests are missing from "passed"; each is named above the line) and failed checks (typecheck, build:
// not tests, so never in "passed"). A skip or todo not on SKIP_ALLOW_LIST fails the run, and so does a
// project that ran fewer tests than its floor (a project that silently collected nothing).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { relative, resolve } from 'node:path';

/**
 * Tests allowed to be skipped: `file` (relative to the repo) and a piece of the test's full name, and at most
 * `max` such tests. Anything else skipped (or a todo) is a failure.
 */
const SKIP_ALLOW_LIST = [
  // s3rver ignores If-None-Match: * (test/storage/contract.ts: writeIfAbsent is covered by the S3 fake).
  { file: 'test/storage/s3.test.ts', name: 's3rver 3.7.1 ignores If-None-Match', max: 4 },
  { file: 'test/storage/s3.browser.test.ts', name: 's3rver 3.7.1 ignores If-None-Match', max: 4 },
];

/** Fewest tests a project must run when it runs whole (below today's ~1,700 Node and ~550 browser tests). */
const PROJECT_FLOORS = { node: 1500, browser: 450 };

const args = process.argv.slice(2);
const projectOf = (file) => (file.endsWith('.browser.test.ts') ? 'browser' : 'node');

// Which projects run whole: no file filters, no -t; `--project x` limits the floors to x. Under -t vitest
// reports the tests it filtered out as skipped, so the skip allow-list applies only without it.
const projects = [];
let nameFiltered = false;
let fileFiltered = false;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--project') projects.push(args[++i]);
  else if (a.startsWith('--project=')) projects.push(a.slice('--project='.length));
  else if (a === '-t' || a === '--testNamePattern' || a.startsWith('--testNamePattern=')) nameFiltered = true;
  else if (!a.startsWith('-')) fileFiltered = true;
}
const floors = nameFiltered || fileFiltered ? [] : Object.entries(PROJECT_FLOORS).filter(([p]) => projects.length === 0 || projects.includes(p));

mkdirSync('reports', { recursive: true });
// Type-check library, tests and demo, then build dist/ (the CLI tests run bin/lakelet.js on it).
const checks = [
  ['typecheck', ['npx', 'tsc', '-p', 'tsconfig.check.json']],
  ['build', ['node', 'scripts/build.mjs']],
];
const failedChecks = [];
for (const [name, [cmd, ...cmdArgs]] of checks) {
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit' });
  if (r.status !== 0) failedChecks.push(`${name} (${[cmd, ...cmdArgs].join(' ')})`);
}

const report = resolve('reports/vitest.json'); // absolute: vitest resolves it against its own root (web/)
if (existsSync(report)) rmSync(report);
const run = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args], { stdio: 'inherit' });

// Everything that fails the run besides failed tests, one entry each (each adds 1 to "failed").
const problems = [];
let passed = 0;
let failedTests = 0;
let skipped = 0;
let todo = 0;
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const perProject = { node: 0, browser: 0 };
  const allowed = SKIP_ALLOW_LIST.map((entry) => ({ ...entry, seen: 0 }));
  let listed = 0;
  for (const file of r.testResults ?? []) {
    const name = relative(process.cwd(), file.name);
    const tests = file.assertionResults ?? [];
    listed += tests.length;
    perProject[projectOf(name)] += tests.length;
    for (const t of tests) {
      if (t.status === 'passed') passed++;
      else if (t.status === 'failed') failedTests++;
      else {
        skipped++;
        if (t.status === 'todo') todo++;
        const entry = t.status !== 'todo' && allowed.find((e) => e.file === name && t.fullName.includes(e.name));
        if (entry) entry.seen++;
        else if (!nameFiltered) problems.push(`${t.status} test not on the skip allow-list: ${name} > ${t.fullName}`);
      }
    }
    // A file that failed without a failed test: it did not load (no tests at all) or a hook/teardown failed.
    if (file.status === 'failed' && !tests.some((t) => t.status === 'failed')) {
      const why = String(file.message ?? '').split('\n')[0];
      problems.push(tests.length === 0 ? `test file failed to load (its tests are not counted): ${name}: ${why}` : `test file failed outside its tests: ${name}: ${why}`);
    }
  }
  for (const e of allowed) if (e.seen > e.max) problems.push(`${e.seen} skipped tests in ${e.file} match "${e.name}" (at most ${e.max} allowed)`);
  for (const [project, floor] of floors) {
    if (perProject[project] < floor) problems.push(`project ${project} ran ${perProject[project]} tests, fewer than its floor of ${floor}`);
  }
  // Cross-check with vitest's own total: a mismatch means this script missed tests.
  if (r.numTotalTests !== listed) problems.push(`vitest reports ${r.numTotalTests} tests, its report lists ${listed}`);
} else {
  problems.push(`vitest wrote no report (${report}); exit status ${run.status}`);
}
for (const c of failedChecks) problems.push(`check failed: ${c}`);
if (run.status !== 0 && failedTests === 0 && problems.length === 0) problems.push(`vitest exited with status ${run.status} although nothing failed`);
for (const p of problems) console.error(`FAILED: ${p}`);
const failed = failedTests + problems.length;
if (skipped > 0) console.log(`skipped: ${skipped - todo} skipped and ${todo} todo tests (see the reporter above)`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 && run.status === 0 ? 0 : 1);
