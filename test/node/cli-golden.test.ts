// Every query of every ../shared/fixtures/hudi-rs/expected/*.json through `lakelet query ... --format jsonl`
// (in-process), projected to the README's fields and compared by its rules (exact field set per row).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import { compareRows, expectedFields, type ExpectedFile, type ExpectedQuery } from '../golden/compare.js';
import { jsonLines, runCli } from './cli-helpers.js';

const root = inject('FIXTURES_DIR');
const dir = join(root, 'expected');
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as ExpectedFile);

function cliArgs(zip: string, q: ExpectedQuery): string[] {
  const argv = ['query', zip, '--format', 'jsonl'];
  if (q.kind === 'incremental') argv.push('--from', q.from as string, '--to', q.to as string);
  else argv.push('--as-of', q.asOf as string);
  if (q.kind === 'read_optimized') argv.push('--read-optimized');
  return argv;
}

test('the fixture expectations are present', () => {
  expect(files.length).toBeGreaterThanOrEqual(14);
  expect(files.reduce((n, f) => n + f.queries.length, 0)).toBeGreaterThanOrEqual(150);
});

for (const file of files) {
  describe(`lakelet query ${file.fixture}`, () => {
    for (const q of file.queries) {
      const argv = cliArgs(join(root, file.fixture), q);
      test(argv.slice(2).join(' '), async () => {
        // Exactly the fields the README lists: compareRows fails on any other column.
        const r = await runCli(...argv, '--columns', expectedFields(file.columns, file.metaFields).join(','));
        expect(r.err).toBe('');
        expect(r.code).toBe(0);
        expect(compareRows(q.rows, jsonLines(r.out), file.columns, file.metaFields)).toBeUndefined();
      });
    }
  });
}
