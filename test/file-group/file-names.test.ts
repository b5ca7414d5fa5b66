// Base and log file names (hudi-format.md §4.1): parsing real fixture names, composing names that parse
// back, log ordering within a slice, and everything else in a partition folder rejected as junk.
import { describe, expect, it } from 'vitest';
import { baseFileName, compareLogFiles, logFileName, parseBaseFileName, parseLogFileName, type LogFileName } from '../../src/file-group/file-names.js';

describe('parseBaseFileName', () => {
  it('parses a fixture base file name', () => {
    expect(parseBaseFileName('a079bdb3-731c-4894-b855-abfcd6921007-0_0-203-274_20240418173551906.parquet')).toEqual({
      fileId: 'a079bdb3-731c-4894-b855-abfcd6921007-0', writeToken: '0-203-274', instantTime: '20240418173551906', extension: 'parquet',
    });
  });
  it('parses other extensions, metadata-table ids and legacy instants', () => {
    expect(parseBaseFileName('files-0000-0_0-6-15_00000000000000010.hfile')).toMatchObject({ fileId: 'files-0000-0', extension: 'hfile', instantTime: '00000000000000010' });
    expect(parseBaseFileName('f-0_1-0-1_20240418173551.orc')).toMatchObject({ extension: 'orc', instantTime: '20240418173551' });
    expect(parseBaseFileName('f-0_1-0-1_20240418173551906.lance')?.extension).toBe('lance');
  });
  it.each([
    '.DS_Store',
    '.hoodie_partition_metadata',
    '.hoodie_partition_metadata.parquet',
    'a079bdb3-0_0-203-274_20240418173551906.parquet.crc',
    '.a079bdb3-0_0-203-274_20240418173551906.parquet.crc',
    '._a079bdb3-0_0-203-274_20240418173551906.parquet',
    'a079bdb3-0_20240418173551906.parquet',
    'a079bdb3-0_0-203-274_2024041817355x906.parquet',
    'a079bdb3-0_0-203-274_20240418173551906.csv',
    'a079bdb3-0_0-203-274_20240418173551906',
    'part-00000-1234.snappy.parquet',
    '.d0304c53-0_20250331030642808.log.1_0-26-85',
    '',
  ])('%j is not a base file', (name) => {
    expect(parseBaseFileName(name)).toBeUndefined();
  });
});

describe('parseLogFileName', () => {
  it('parses a v6 fixture log name', () => {
    expect(parseLogFileName('.d0304c53-6fd2-4b7a-a9d6-5ff632f79224-0_20250331030642808.log.1_0-26-85')).toEqual({
      fileId: 'd0304c53-6fd2-4b7a-a9d6-5ff632f79224-0', instantTime: '20250331030642808', extension: 'log', version: 1, writeToken: '0-26-85', cdc: false,
    });
  });
  it('parses rollover versions, cdc logs, archive logs and names without a write token', () => {
    expect(parseLogFileName('.f-0_20250126040823628.log.2_1-0-1')).toMatchObject({ version: 2, writeToken: '1-0-1' });
    expect(parseLogFileName('.f-0_20250126040823628.log.12_0-1-2.cdc')).toMatchObject({ version: 12, cdc: true });
    expect(parseLogFileName('.commits_.archive.3_1-0-1')).toMatchObject({ fileId: 'commits', instantTime: '', extension: 'archive', version: 3 });
    expect(parseLogFileName('.f-0_20250126040823628.log.1')).toMatchObject({ version: 1, writeToken: undefined, cdc: false });
  });
  it.each([
    '.DS_Store',
    '.hoodie_partition_metadata',
    'f-0_0-1-2_20250126040823628.parquet',
    'f-0_20250126040823628.log.1_0-1-2',
    '.f-0_20250126040823628.log.1_0-1-2.crc',
    '..f-0_20250126040823628.log.1_0-1-2.crc',
    '.f-0_20250126040823628.log.x_0-1-2',
    '.f-0_20250126040823628.log.1_0-1',
    '.f-0_20250126040823628.txt.1_0-1-2',
    '.f-0_2025012604082a628.log.1_0-1-2',
    '',
  ])('%j is not a log file', (name) => {
    expect(parseLogFileName(name)).toBeUndefined();
  });
});

describe('composing names', () => {
  it('baseFileName and logFileName parse back to their parts', () => {
    const b = baseFileName('abc-0', '1-2-3', '20240101000000000');
    expect(b).toBe('abc-0_1-2-3_20240101000000000.parquet');
    expect(parseBaseFileName(b)).toEqual({ fileId: 'abc-0', writeToken: '1-2-3', instantTime: '20240101000000000', extension: 'parquet' });
    expect(baseFileName('abc-0', '0-0-0', '20240101000000000', 'orc')).toBe('abc-0_0-0-0_20240101000000000.orc');
    const l = logFileName('abc-0', '20240101000000000', 4, '0-1-2');
    expect(l).toBe('.abc-0_20240101000000000.log.4_0-1-2');
    expect(parseLogFileName(l)).toEqual({ fileId: 'abc-0', instantTime: '20240101000000000', extension: 'log', version: 4, writeToken: '0-1-2', cdc: false });
  });
});

describe('compareLogFiles', () => {
  const log = (version: number, writeToken: string | undefined): LogFileName => ({ fileId: 'f', instantTime: 't', extension: 'log', version, writeToken, cdc: false });
  it('orders by version numerically, then by write token', () => {
    const logs = [log(10, '0-1-1'), log(2, '1-0-1'), log(2, '0-9-9'), log(1, undefined), log(1, '0-0-0')];
    expect(logs.sort(compareLogFiles).map((l) => `${l.version}/${l.writeToken ?? ''}`)).toEqual(['1/', '1/0-0-0', '2/0-9-9', '2/1-0-1', '10/0-1-1']);
    expect(compareLogFiles(log(3, 'a'), log(3, 'a'))).toBe(0);
  });
});
