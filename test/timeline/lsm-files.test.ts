// The LSM history's file names and small files: data file names `<min>_<max>_<layer>.parquet` (Hudi's
// ARCHIVE_FILE_PATTERN), manifest names, the manifest JSON exactly as Jackson's default pretty printer writes
// HoodieLSMTimelineManifest (and read back from any spacing), and the `_version_` text.
import { describe, expect, test } from 'vitest';
import { encodeLsmManifest, encodeLsmVersion, lsmFileName, lsmManifestFileName, lsmManifestVersion, parseLsmFileName, parseLsmManifest, parseLsmVersion } from '../../src/timeline/lsm-files.js';
import { historyFilePath, historyManifestPath, historyVersionPath } from '../../src/layout.js';
import { thrown } from '../helpers/expect-error.js';

const A = '20240101000000001';
const B = '20240101000000009';

describe('names', () => {
  test('data files: min, max and layer round-trip; other names are not data files', () => {
    expect(lsmFileName(A, B, 0)).toBe(`${A}_${B}_0.parquet`);
    expect(parseLsmFileName(`${A}_${B}_1.parquet`)).toEqual({ minInstant: A, maxInstant: B, layer: 1 });
    for (const bad of [`${A}_${B}.parquet`, `${A}_${B}_1.parquet.crc`, 'manifest_1', '_version_', `x${A}_${B}_0.parquet`]) expect(parseLsmFileName(bad), bad).toBeUndefined();
  });

  test('manifests: manifest_<N>', () => {
    expect(lsmManifestFileName(12)).toBe('manifest_12');
    expect(lsmManifestVersion('manifest_12')).toBe(12);
    expect(lsmManifestVersion('manifest_')).toBeUndefined();
    expect(lsmManifestVersion('manifest_1.tmp')).toBeUndefined();
  });

  test('paths live in the history folder the table config names', () => {
    const table = { archivePath: '.hoodie/timeline/history' };
    expect(historyFilePath(table, lsmFileName(A, B, 0))).toBe(`.hoodie/timeline/history/${A}_${B}_0.parquet`);
    expect(historyManifestPath(table, 3)).toBe('.hoodie/timeline/history/manifest_3');
    expect(historyVersionPath(table)).toBe('.hoodie/timeline/history/_version_');
  });
});

describe('manifest', () => {
  test("Jackson's pretty printer: objects indented by two, arrays inline, ' : ', no trailing newline", () => {
    const two = { files: [{ fileName: lsmFileName(A, B, 0), fileLen: 1234 }, { fileName: lsmFileName(B, B, 1), fileLen: 5 }] };
    expect(encodeLsmManifest(two)).toBe(
      '{\n' +
      '  "files" : [ {\n' +
      `    "fileName" : "${A}_${B}_0.parquet",\n` +
      '    "fileLen" : 1234\n' +
      '  }, {\n' +
      `    "fileName" : "${B}_${B}_1.parquet",\n` +
      '    "fileLen" : 5\n' +
      '  } ]\n' +
      '}',
    );
    expect(encodeLsmManifest({ files: [] })).toBe('{\n  "files" : [ ]\n}');
  });

  test('parses back, from any spacing, ignoring unknown fields; empty text is an empty manifest', () => {
    const m = { files: [{ fileName: lsmFileName(A, B, 0), fileLen: 7 }] };
    expect(parseLsmManifest(encodeLsmManifest(m), 'm')).toEqual(m);
    expect(parseLsmManifest(`{"files":[{"fileName":"${A}_${B}_0.parquet","fileLen":7,"extra":1}],"other":true}`, 'm')).toEqual(m);
    expect(parseLsmManifest('', 'm')).toEqual({ files: [] });
    expect(parseLsmManifest('{}', 'm')).toEqual({ files: [] });
  });

  test('anything else is CORRUPT_FILE naming the manifest', () => {
    for (const bad of ['{', '[]', '{"files":{}}', '{"files":[{"fileName":"x.parquet","fileLen":1}]}', `{"files":[{"fileName":"${A}_${B}_0.parquet","fileLen":-1}]}`, `{"files":[{"fileName":"${A}_${B}_0.parquet"}]}`]) {
      const err = thrown(() => parseLsmManifest(bad, 'h/manifest_2'));
      expect(err.code, bad).toBe('CORRUPT_FILE');
      expect(err.context.path).toBe('h/manifest_2');
    }
  });
});

describe('version file', () => {
  test('the version as decimal text; anything else reads as no version', () => {
    expect(encodeLsmVersion(7)).toBe('7');
    expect(parseLsmVersion('7')).toBe(7);
    expect(parseLsmVersion('7\n')).toBe(7);
    for (const bad of ['', 'x', '-1', '1.5']) expect(parseLsmVersion(bad), bad).toBeUndefined();
  });
});
