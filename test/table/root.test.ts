// findTableRoot: the shallowest folder holding .hoodie/hoodie.properties, searched a few levels deep.
import { describe, expect, test } from 'vitest';
import { findTableRoot, LakeletError, memoryStorage } from '../../src/index.js';

const file = (path: string): [string, Uint8Array] => [path, new Uint8Array([1])];

describe('findTableRoot', () => {
  test('the store root itself', async () => {
    expect(await findTableRoot(memoryStorage({ files: [file('.hoodie/hoodie.properties'), file('.hoodie/metadata/.hoodie/hoodie.properties')] }))).toBe('');
  });

  test('a folder inside, ignoring __MACOSX and the metadata table', async () => {
    const storage = memoryStorage({
      files: [
        file('__MACOSX/t/.hoodie/hoodie.properties'),
        file('t/.hoodie/metadata/.hoodie/hoodie.properties'),
        file('t/.hoodie/hoodie.properties'),
        file('t/p=1/a.parquet'),
      ],
    });
    expect(await findTableRoot(storage)).toBe('t');
  });

  test('the shallowest table wins', async () => {
    const storage = memoryStorage({ files: [file('a/b/c/.hoodie/hoodie.properties'), file('z/.hoodie/hoodie.properties')] });
    expect(await findTableRoot(storage)).toBe('z');
  });

  test('tables deeper than the search depth or missing → INVALID_TABLE', async () => {
    const deep = memoryStorage({ files: [file('a/b/c/d/.hoodie/hoodie.properties')] });
    await expect(findTableRoot(deep)).rejects.toMatchObject({ code: 'INVALID_TABLE' });
    await expect(findTableRoot(memoryStorage({ files: [file('x/y.txt')] }))).rejects.toBeInstanceOf(LakeletError);
    expect(await findTableRoot(memoryStorage({ files: [file('a/b/c/.hoodie/hoodie.properties')] }))).toBe('a/b/c');
  });
});
