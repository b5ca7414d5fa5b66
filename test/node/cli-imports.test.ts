// The CLI is a user of the public API: every import of src/node/cli/*.ts is a Node built-in, a file of the CLI
// itself, or one of the package's entries (`../index.js`, the Node entry, or `../../index.js`, the main one).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const CLI_DIR = join(import.meta.dirname, '..', '..', 'src', 'node', 'cli');
const PUBLIC_ENTRIES = new Set(['../index.js', '../../index.js']);

/** Every module specifier of a TypeScript source: static imports, re-exports and dynamic import() calls. */
function importSpecifiers(source: string): string[] {
  const out: string[] = [];
  const patterns = [/^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm, /^\s*import\s*['"]([^'"]+)['"]/gm, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const re of patterns) for (const m of source.matchAll(re)) out.push(m[1] as string);
  return out;
}

/** Why `specifier` is not allowed in a CLI file, or undefined when it is. */
function violation(specifier: string): string | undefined {
  if (specifier.startsWith('node:')) return undefined;
  if (/^\.\/[\w-]+\.js$/.test(specifier)) return undefined;
  if (PUBLIC_ENTRIES.has(specifier)) return undefined;
  return specifier.startsWith('.') ? 'an internal module (use the public API: ../index.js)' : 'a package (the CLI uses lakelet only)';
}

describe('node/cli imports', () => {
  test('the specifier parser sees static, re-export, multi-line and dynamic imports', () => {
    const src = "import { a } from './a.js';\nimport {\n  b,\n  c,\n} from '../../engine/x.js';\nexport type { D } from '../index.js';\nimport 'side';\nconst m = await import('../../arrow/arrow.js');\n";
    expect(importSpecifiers(src).sort()).toEqual(['../../arrow/arrow.js', '../../engine/x.js', '../index.js', './a.js', 'side'].sort());
    expect(violation('../../engine/table-state.js')).toMatch(/internal/);
    expect(violation('hyparquet')).toMatch(/package/);
  });

  test('every CLI file imports only Node built-ins, CLI files and the public entries', () => {
    const files = readdirSync(CLI_DIR).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    const bad: string[] = [];
    for (const f of files) {
      for (const s of importSpecifiers(readFileSync(join(CLI_DIR, f), 'utf8'))) {
        const why = violation(s);
        if (why !== undefined) bad.push(`${f}: ${s} is ${why}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
