// Test helpers for the CLI: run `main()` in-process with captured stdout/stderr, and a tiny RFC 4180
// CSV parser to read `--format csv` back.
import { main } from '../../src/node/cli.js';

/** What one in-process CLI run produced. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Run the CLI in-process with string-capturing streams. */
export async function runCli(...argv: string[]): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await main(argv, {
    stdout: { write: (s: string) => { out += s; return true; } },
    stderr: { write: (s: string) => { err += s; return true; } },
  });
  return { code, out, err };
}

/** Parse JSON lines. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Parse RFC 4180 CSV (quoted fields may hold commas, doubled quotes and newlines). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n') { row.push(field); rows.push(row); row = []; field = ''; }
    else if (c !== '\r') field += c;
  }
  if (field !== '' || row.length > 0) { row.push(field); rows.push(row); }
  return rows;
}
