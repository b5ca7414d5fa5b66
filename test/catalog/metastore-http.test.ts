// hiveMetastoreHttp as a `syncTo` sink, against real HTTP servers on loopback: one that checks the method,
// headers and JSON body of each sync, and one that answers 500 (the write still commits, with a warning, and
// the next sync sends the statements it missed).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createTable, hiveMetastoreHttp, listTables, memoryStorage, prefixedStorage } from '../../src/index.js';
import { parseAll } from './hive-check.js';

const SCHEMA = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'string' }, { name: 'p', type: 'string' }, { name: 'ts', type: 'long' }] };
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

interface Received { method: string | undefined; headers: IncomingMessage['headers']; body: { statements: string[] } }

/** A loopback server answering `status` and recording each request. */
async function server(status: () => number): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const s = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => { text += c.toString('utf8'); });
    req.on('end', () => {
      received.push({ method: req.method, headers: req.headers, body: JSON.parse(text) as { statements: string[] } });
      res.statusCode = status();
      res.end(res.statusCode === 200 ? 'ok' : 'metastore unavailable');
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/sync`, received };
}

describe('hiveMetastoreHttp', () => {
  test('POSTs each sync as JSON with the given headers; a refusing endpoint is a warning and the next sync catches up', async () => {
    let status = 200;
    const { url, received } = await server(() => status);
    const root = memoryStorage();
    const table = await createTable(prefixedStorage(root, 't'), { name: 't', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['p'], schema: SCHEMA });
    const syncTo = { send: hiveMetastoreHttp(url, { headers: { authorization: 'Bearer k' } }), database: 'lake', basePath: 's3a://b/t' };
    const first = await table.upsert([{ id: 'a', p: 'x', ts: 1n }], { catalogSync: true, syncTo });
    expect(first.warnings).toEqual([]);
    expect(received[0]).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k' } });
    expect(parseAll(received[0]?.body.statements ?? []).map((s) => s.kind)).toEqual(['create', 'add', 'set-properties']);

    status = 500;
    const second = await table.upsert([{ id: 'b', p: 'y', ts: 1n }], { catalogSync: true, syncTo });
    expect(second.warnings).toMatchObject([{ service: 'catalog', code: 'STORAGE', message: expect.stringContaining('500') }]);
    expect((await listTables(root))[0]?.lastSync?.instant).toBe(first.instant);

    status = 200;
    await table.upsert([{ id: 'c', p: 'z', ts: 1n }], { catalogSync: true, syncTo });
    const adds = parseAll(received[2]?.body.statements ?? []).flatMap((s) => (s.kind === 'add' ? s.partitions.map((p) => p.spec.p) : []));
    expect(adds).toEqual(['y', 'z']);
  });

  test('an endpoint nobody listens on is STORAGE; a URL that is not http(s) is INVALID_ARGUMENT', async () => {
    const { url } = await server(() => 200);
    await new Promise((r) => servers.pop()?.close(r));
    await expect(hiveMetastoreHttp(url)(['x'])).rejects.toMatchObject({ code: 'STORAGE', context: { path: url } });
    expect(() => hiveMetastoreHttp('ftp://x')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
