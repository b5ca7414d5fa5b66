// Scratch folders of the CLI tests: fresh paths and input files under one temp folder removed after the file's
// tests, and a listing of a table directory (every file with size and mtime) to show a refused write changed nothing.
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll } from 'vitest';

/** A temp folder (removed after the calling test file) with helpers naming fresh paths and writing files in it. */
export interface ScratchFolder {
  dir: string;
  /** A fresh path under the folder (nothing there yet). */
  fresh(name: string): string;
  /** Write a text file under the folder and return its path. */
  file(name: string, text: string): string;
}

/** Make a {@link ScratchFolder}; call at the top level of a test file (it registers an afterAll). */
export function scratchFolder(prefix: string): ScratchFolder {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let counter = 0;
  return {
    dir,
    fresh: (name) => join(dir, `${name}-${++counter}`),
    file: (name, text) => {
      const p = join(dir, `${++counter}-${name}`);
      writeFileSync(p, text);
      return p;
    },
  };
}

/** Every file under `dir` with its size and mtime, sorted: a failed write must leave this unchanged. */
export function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(`${relative(dir, p)} ${statSync(p).size} ${statSync(p).mtimeMs}`);
    }
  };
  walk(dir);
  return out.sort();
}
