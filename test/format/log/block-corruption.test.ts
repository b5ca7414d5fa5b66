// Hudi log corruption semantics: truncated and byte-flipped logs never crash (scan never throws; content
// decoding throws only LakeletError), bad regions are reported with offsets, and later valid blocks survive.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { isLakeletError } from '../../../src/errors.js';
import { encodeLogBlock, scanLogBlocks } from '../../../src/format/log/block.js';
import { decodeLogBlockContent } from '../../../src/format/log/block-content.js';

function logFile(kind: string): Uint8Array {
  const dir = `${inject('FIXTURES_DIR')}/core-test-data/log_files/${kind}`;
  const name = readdirSync(dir).find((n) => n.includes('.log.'));
  if (name === undefined) throw new Error(`no log file in ${dir}`);
  return new Uint8Array(readFileSync(`${dir}/${name}`));
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Decode every block of a scan; returns the error codes seen (never a non-Lakelet error). */
function decodeAll(bytes: Uint8Array): Set<string> {
  const codes = new Set<string>();
  for (const block of scanLogBlocks(bytes, 'x.log').blocks) {
    try {
      decodeLogBlockContent(block, 'x.log');
      codes.add('ok');
    } catch (err) {
      codes.add(isLakeletError(err) ? err.code : `non-lakelet ${String(err)}`);
    }
  }
  return codes;
}

const kinds = ['valid_log_avro_data', 'valid_log_delete', 'valid_log_parquet_data', 'valid_log_rollback'];

describe('truncated logs', () => {
  for (const kind of kinds) {
    it(`${kind}: every truncation is one corrupt region covering the rest, with no blocks`, () => {
      const bytes = logFile(kind);
      const step = Math.max(1, Math.floor(bytes.length / 97));
      for (let cut = 1; cut < bytes.length; cut += step) {
        const scan = scanLogBlocks(bytes.subarray(0, cut), 'x.log');
        expect(scan.blocks).toEqual([]);
        expect(scan.corrupt).toHaveLength(1);
        expect(scan.corrupt[0]).toMatchObject({ offset: 0, length: cut });
      }
    });
  }

  it('a truncated last block is corrupt but earlier blocks are kept', () => {
    const a = logFile('valid_log_rollback');
    const b = logFile('valid_log_avro_data');
    const scan = scanLogBlocks(concat([a, b.subarray(0, 500)]), 'x.log');
    expect(scan.blocks.map((x) => x.type)).toEqual(['COMMAND']);
    expect(scan.corrupt).toEqual([{ offset: 105, length: 500, reason: expect.stringContaining('truncated') }]);
  });
});

describe('flipped bytes', () => {
  for (const kind of kinds) {
    it(`${kind}: scanning never throws and decoding throws only LakeletError`, () => {
      const bytes = logFile(kind);
      const step = Math.max(1, Math.floor(bytes.length / 300));
      const codes = new Set<string>();
      let corruptSeen = 0;
      for (let at = 0; at < bytes.length; at += step) {
        for (const mask of [0x01, 0x80, 0xff]) {
          const flipped = bytes.slice();
          flipped[at] = (flipped[at] ?? 0) ^ mask;
          const scan = scanLogBlocks(flipped, 'x.log');
          if (scan.corrupt.length > 0) corruptSeen++;
          const covered = scan.blocks.reduce((n, b) => n + b.length, 0) + scan.corrupt.reduce((n, c) => n + c.length, 0);
          expect(covered).toBe(flipped.length);
          for (const c of decodeAll(flipped)) codes.add(c);
        }
      }
      expect([...codes].filter((c) => !['ok', 'CORRUPT_FILE', 'UNSUPPORTED'].includes(c))).toEqual([]);
      expect(corruptSeen).toBeGreaterThan(0);
    });
  }

  it('a flipped framing byte makes a corrupt region; the next valid block is still found', () => {
    const rollback = logFile('valid_log_rollback');
    const del = logFile('valid_log_delete');
    const bad = rollback.slice();
    bad[10] = 0x7f; // block length → huge
    const scan = scanLogBlocks(concat([bad, del, rollback]), 'x.log');
    expect(scan.blocks.map((b) => [b.type, b.offset])).toEqual([['DELETE', 105], ['COMMAND', 105 + del.length]]);
    expect(scan.corrupt).toEqual([{ offset: 0, length: 105, reason: expect.any(String) }]);
  });

  it('garbage before, between and after blocks is reported with its offsets', () => {
    const rollback = logFile('valid_log_rollback');
    const junk = new TextEncoder().encode('not a block #HUD');
    const bytes = concat([junk, rollback, junk, rollback, junk.subarray(0, 3)]);
    const scan = scanLogBlocks(bytes, 'x.log');
    expect(scan.blocks.map((b) => b.offset)).toEqual([16, 16 + 105 + 16]);
    expect(scan.corrupt.map((c) => [c.offset, c.length])).toEqual([[0, 16], [121, 16], [242, 3]]);
  });

  it('a block whose trailer checks out but whose header is malformed is skipped by its own length', () => {
    const rollback = logFile('valid_log_rollback');
    const bad = rollback.slice();
    new DataView(bad.buffer).setInt32(22, 1_000_000); // header entry count
    const scan = scanLogBlocks(concat([bad, rollback]), 'x.log');
    expect(scan.blocks.map((b) => b.offset)).toEqual([105]);
    expect(scan.corrupt).toEqual([{ offset: 0, length: 105, reason: expect.stringContaining('header entry count') }]);
  });

  it('unknown block type ordinals are corrupt regions, unknown header keys are kept aside', () => {
    const odd = encodeLogBlock('COMMAND', { INSTANT_TIME: '1' });
    new DataView(odd.buffer).setInt32(18, 9);
    expect(scanLogBlocks(odd).corrupt).toHaveLength(1);
    const extra = encodeLogBlock('COMMAND', { INSTANT_TIME: '1' });
    new DataView(extra.buffer).setInt32(26, 42); // key ordinal of the only header entry
    const [block] = scanLogBlocks(extra).blocks;
    expect(block?.header).toEqual({});
    expect(block?.unknownHeader).toEqual({ 42: '1' });
  });
});
