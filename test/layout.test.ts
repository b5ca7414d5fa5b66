// layout.ts: the paths inside a table (hudi-format.md §1), and a guard that no other file in src/ builds one by
// hand — a string literal naming `.hoodie/`, `.aux/` or `.hoodie_partition_metadata` outside layout.ts fails
// (prose — messages and CLI help, literals with whitespace — may name them).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTableConfig } from '../src/config/table-config.js';
import {
  archiveDir, archiveFilePath, baseName, COMMIT_LOCK_FENCE_DIR, COMMIT_LOCK_PATH, HEARTBEAT_DIR, heartbeatPath, HOODIE_DIR,
  instantFilePath, isMetaPath, isPartitionMetadataPath, LISTING_MANIFEST_PATH, markerDir, MARKERS_DIR, markerPath,
  isMetaPathOfAnyTable, METADATA_TABLE_DIR, parentPath, parseMarkerPath, partitionFilePath, partitionMetadataPath, PROPERTIES_PATH,
  RECORD_INDEX_DIR, RECORD_INDEX_MANIFEST, recordIndexFilePath, timelineDir, timelineFilePath,
} from '../src/layout.js';

describe('layout', () => {
  it('names the fixed paths of a table as Hudi (and lakelet) lay them out', () => {
    expect(HOODIE_DIR).toBe('.hoodie');
    expect(PROPERTIES_PATH).toBe('.hoodie/hoodie.properties');
    expect(METADATA_TABLE_DIR).toBe('.hoodie/metadata');
    expect(MARKERS_DIR).toBe('.hoodie/.temp');
    expect(HEARTBEAT_DIR).toBe('.hoodie/.heartbeat');
    expect(COMMIT_LOCK_PATH).toBe('.hoodie/.lakelet-commit.lock');
    expect(COMMIT_LOCK_FENCE_DIR).toBe('.hoodie/.lakelet-commit-lock-fences');
    expect(LISTING_MANIFEST_PATH).toBe('.hoodie/.aux/lakelet/listing.json');
    expect(RECORD_INDEX_DIR).toBe('.hoodie/.aux/lakelet/record-index');
    expect(RECORD_INDEX_MANIFEST).toBe('.hoodie/.aux/lakelet/record-index/manifest.json');
    expect(recordIndexFilePath('shard-0001.rix')).toBe('.hoodie/.aux/lakelet/record-index/shard-0001.rix');
  });

  it('places the active and archived timelines of layouts 1 and 2', () => {
    expect(timelineDir(1)).toBe('.hoodie');
    expect(timelineDir(1, 'ignored')).toBe('.hoodie');
    expect(timelineDir(2)).toBe('.hoodie/timeline');
    expect(timelineDir(2, '')).toBe('.hoodie/timeline');
    expect(timelineDir(2, 'tl')).toBe('.hoodie/tl');
    expect(archiveDir(1)).toBe('.hoodie/archived');
    expect(archiveDir(1, { archiveFolder: 'old' })).toBe('.hoodie/old');
    expect(archiveDir(2)).toBe('.hoodie/timeline/history');
    expect(archiveDir(2, { timelineFolder: 'tl', historyFolder: 'h', archiveFolder: 'ignored' })).toBe('.hoodie/tl/h');
    expect(archiveFilePath({ archivePath: '.hoodie/archived' }, '.commits_.archive.1_1-0-1')).toBe('.hoodie/archived/.commits_.archive.1_1-0-1');
  });

  it('agrees with the timeline folders TableConfig reads from hoodie.properties', () => {
    const v6 = parseTableConfig('hoodie.table.name=t\nhoodie.table.type=COPY_ON_WRITE\nhoodie.table.version=6\nhoodie.archivelog.folder=arch\n');
    expect(v6.timelinePath).toBe('.hoodie');
    expect(v6.archivePath).toBe('.hoodie/arch');
    const v8 = parseTableConfig('hoodie.table.name=t\nhoodie.table.type=MERGE_ON_READ\nhoodie.table.version=8\nhoodie.timeline.layout.version=2\n');
    expect(v8.timelinePath).toBe('.hoodie/timeline');
    expect(v8.archivePath).toBe('.hoodie/timeline/history');
  });

  it('builds instant file paths from the timeline folder (layout-1 names)', () => {
    const v6 = { timelinePath: '.hoodie' };
    expect(instantFilePath(v6, '20240101000000000', 'commit', 'REQUESTED')).toBe('.hoodie/20240101000000000.commit.requested');
    expect(instantFilePath(v6, '20240101000000000', 'commit', 'INFLIGHT')).toBe('.hoodie/20240101000000000.inflight');
    expect(instantFilePath(v6, '20240101000000000', 'compaction', 'COMPLETED')).toBe('.hoodie/20240101000000000.commit');
    expect(instantFilePath({ timelinePath: '.hoodie/timeline' }, '20240101000000000', 'clean', 'INFLIGHT')).toBe('.hoodie/timeline/20240101000000000.clean.inflight');
    expect(timelineFilePath(v6, '20240101000000000.deltacommit')).toBe('.hoodie/20240101000000000.deltacommit');
    expect(timelineFilePath(v6, { fileName: '20240101000000000.rollback' })).toBe('.hoodie/20240101000000000.rollback');
  });

  it('builds and parses marker paths', () => {
    expect(markerDir('20240101000000000')).toBe('.hoodie/.temp/20240101000000000');
    expect(markerPath('20240101000000000', 'p=1/f.parquet')).toBe('.hoodie/.temp/20240101000000000/p=1/f.parquet.marker.CREATE');
    expect(markerPath('20240101000000000', 'p=1/.f_1.log.1_0-1-0', 'APPEND')).toBe('.hoodie/.temp/20240101000000000/p=1/.f_1.log.1_0-1-0.marker.APPEND');
    expect(parseMarkerPath(markerPath('20240101000000000', 'p=1/f.parquet', 'MERGE'))).toEqual({ instant: '20240101000000000', file: 'p=1/f.parquet.marker.MERGE', dataPath: 'p=1/f.parquet' });
    expect(parseMarkerPath('.hoodie/.temp/20240101000000000/MARKERS0')).toEqual({ instant: '20240101000000000', file: 'MARKERS0', dataPath: undefined });
    expect(parseMarkerPath('.hoodie/.temp/20240101000000000')).toBeUndefined();
    expect(parseMarkerPath('p=1/f.parquet.marker.CREATE')).toBeUndefined();
  });

  it('builds heartbeat, partition and partition-metadata paths', () => {
    expect(heartbeatPath('20240101000000000')).toBe('.hoodie/.heartbeat/20240101000000000');
    expect(partitionFilePath('', 'f.parquet')).toBe('f.parquet');
    expect(partitionFilePath('a=1/b=2', 'f.parquet')).toBe('a=1/b=2/f.parquet');
    expect(partitionMetadataPath('')).toBe('.hoodie_partition_metadata');
    expect(partitionMetadataPath('2024/01')).toBe('2024/01/.hoodie_partition_metadata');
    expect(isPartitionMetadataPath('2024/01/.hoodie_partition_metadata')).toBe(true);
    expect(isPartitionMetadataPath('.hoodie_partition_metadata')).toBe(true);
    expect(isPartitionMetadataPath('2024/01/f.parquet')).toBe(false);
  });

  it('tells metadata paths from data paths, and splits paths', () => {
    expect(isMetaPath('.hoodie')).toBe(true);
    expect(isMetaPath('.hoodie/hoodie.properties')).toBe(true);
    expect(isMetaPath('.hoodie_partition_metadata')).toBe(false);
    expect(isMetaPath('p/.hoodie/x')).toBe(false);
    expect(isMetaPathOfAnyTable('p/.hoodie/x')).toBe(true);
    expect(isMetaPathOfAnyTable('.hoodie/x')).toBe(true);
    expect(isMetaPathOfAnyTable('p/x.hoodie/y')).toBe(false);
    expect(baseName('a/b/c.parquet')).toBe('c.parquet');
    expect(baseName('c.parquet')).toBe('c.parquet');
    expect(parentPath('a/b/c.parquet')).toBe('a/b');
    expect(parentPath('c.parquet')).toBe('');
  });
});

const SRC = join(import.meta.dirname, '..', 'src');
const FORBIDDEN = ['.hoodie/', '.hoodie_partition_metadata', '.aux/'];

/** Every .ts file below `dir`. */
function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(path));
    else if (e.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/**
 * The string literals of TypeScript source (quoted strings and the text parts of template literals, with the
 * line each starts on), skipping comments. Regular-expression literals are skipped after `(`, `,`, `=`, `:`,
 * `[`, `!`, `&`, `|`, `?`, `{`, `}`, `;` or `return`, which is enough for this code base.
 */
export function stringLiterals(source: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let i = 0;
  let line = 1;
  const braces: number[] = []; // open `{` count inside each `${…}` we are in
  let lastSignificant = '';
  const readTemplate = (): void => {
    // at the char after a backtick or after the `}` closing a substitution
    let text = '';
    const start = line;
    while (i < source.length) {
      const c = source[i] as string;
      if (c === '\\') {
        text += source.slice(i, i + 2);
        i += 2;
        continue;
      }
      if (c === '`') {
        i++;
        out.push({ text, line: start });
        return;
      }
      if (c === '$' && source[i + 1] === '{') {
        i += 2;
        out.push({ text, line: start });
        braces.push(0);
        return;
      }
      if (c === '\n') line++;
      text += c;
      i++;
    }
  };
  while (i < source.length) {
    const c = source[i] as string;
    const next = source[i + 1];
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      for (let k = i; k < stop; k++) if (source[k] === '\n') line++;
      i = stop;
      continue;
    }
    if (c === '/' && (/[(,=:[!&|?{};]/.test(lastSignificant) || lastSignificant === '' || /\breturn$/.test(source.slice(Math.max(0, i - 8), i).trimEnd()))) {
      // a regular expression literal
      i++;
      let inClass = false;
      while (i < source.length && source[i] !== '\n') {
        const r = source[i];
        if (r === '\\') i++;
        else if (r === '[') inClass = true;
        else if (r === ']') inClass = false;
        else if (r === '/' && !inClass) break;
        i++;
      }
      i++;
      lastSignificant = 'x';
      continue;
    }
    if (c === '"' || c === "'") {
      let text = '';
      i++;
      while (i < source.length && source[i] !== c && source[i] !== '\n') {
        if (source[i] === '\\') {
          text += source.slice(i, i + 2);
          i += 2;
          continue;
        }
        text += source[i];
        i++;
      }
      i++;
      out.push({ text, line });
      lastSignificant = 'x';
      continue;
    }
    if (c === '`') {
      i++;
      readTemplate();
      lastSignificant = 'x';
      continue;
    }
    const depth = braces.length - 1;
    if (depth >= 0 && c === '{') braces[depth] = (braces[depth] ?? 0) + 1;
    if (depth >= 0 && c === '}') {
      if (braces[depth] === 0) {
        braces.pop();
        i++;
        readTemplate();
        lastSignificant = 'x';
        continue;
      }
      braces[depth] = (braces[depth] ?? 0) - 1;
    }
    if (!/\s/.test(c)) lastSignificant = c;
    i++;
  }
  return out;
}

describe('no hand-built table paths outside layout.ts', () => {
  it('finds literals, not comments (the scanner itself)', () => {
    const found = stringLiterals([
      "// '.hoodie/in-a-comment'",
      '/* `.aux/` */ const a = \'.hoodie/x\';',
      'const b = `${a}/.hoodie_partition_metadata`; const r = /\\.hoodie\\//;',
      'const c = `x${`.aux/${1}`}y`; const d = "q\\"uote";',
    ].join('\n'));
    expect(found.map((f) => f.text)).toEqual(['.hoodie/x', '', '/.hoodie_partition_metadata', 'x', '.aux/', '', 'y', 'q\\"uote']);
    expect(found.find((f) => f.text === '.aux/')?.line).toBe(4);
  });

  it(`no file in src/ but layout.ts has a string literal containing ${FORBIDDEN.join(', ')}`, () => {
    const offenders: string[] = [];
    for (const file of tsFiles(SRC)) {
      const rel = relative(SRC, file).split('\\').join('/');
      if (rel === 'layout.ts') continue;
      for (const lit of stringLiterals(readFileSync(file, 'utf8'))) {
        if (/\s/.test(lit.text)) continue; // prose (a message, CLI help), not a path
        if (FORBIDDEN.some((f) => lit.text.includes(f))) offenders.push(`src/${rel}:${lit.line}: ${JSON.stringify(lit.text)}`);
      }
    }
    expect(offenders, 'build these paths with src/layout.ts').toEqual([]);
  });
});
