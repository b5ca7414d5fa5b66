// Offline-first replication in headless Chromium: a table written in OPFS while the bucket is unreachable (the
// replicate fails with a storage error and leaves the bucket a readable prefix), then replicated to s3rver on
// loopback once it is reachable, and read from the bucket through a fresh store (as a second page would).
import { describe, expect, inject, test } from 'vitest';
import { createTable, LakeletError, opfsStorage, s3Storage } from '../../src/index.js';
import { replicate } from '../../src/replication/replicate.js';
import type { FetchLike } from '../../src/storage/http-retry.js';
import { completedFiles, QUIET, row, SCHEMA, storeRows } from './replicate-helpers.js';

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const bucket = (prefix: string, fetch?: FetchLike) => s3Storage({ endpoint: inject('S3_URL'), bucket: 'lake', prefix, region: 'us-east-1', credentials, retryDelayMs: 1, retries: 0, ...(fetch ? { fetch } : {}) });

describe('replicate OPFS → S3 in the browser', () => {
  test('written offline, pushed when back online, read from the bucket', async () => {
    const folder = `replicate-${Date.now().toString(36)}`;
    const local = opfsStorage(folder);
    const table = await createTable(local, { name: 'rep', type: 'MERGE_ON_READ', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA });
    await table.upsert([row('a', 'x', 1, 1), row('b', 'y', 1, 2)], QUIET);
    await table.upsert([row('a', 'x', 2, 10)], QUIET);
    const prefix = `browser-replicate/${folder}`;

    // Offline: the network fails after a few requests got through.
    let allowed = 5;
    const flaky: FetchLike = (url, init) => (allowed-- > 0 ? fetch(url, init) : Promise.reject(new TypeError('Failed to fetch')));
    const err = await replicate(local, bucket(prefix, flaky)).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(LakeletError);
    const partial = await completedFiles(bucket(prefix));
    expect(partial).toEqual((await completedFiles(local)).slice(0, partial.length));

    // Back online: the next run completes it, and the bucket reads like the device's table.
    const result = await replicate(local, bucket(prefix));
    expect([...partial, ...result.published]).toEqual(await completedFiles(local));
    expect(await storeRows(bucket(prefix))).toEqual(await storeRows(local));
  });
});
