// Hudi's HTTP commit callback against real HTTP servers on loopback (node:http, 127.0.0.1, port 0): the POST's
// headers and JSON body; a server that never answers (the write resolves at the timeout while the server still
// holds the request); a closed port (refused); 5xx answers retried on the write's clock; bad options; and the
// CLI's --callback-url / --callback-api-key with the failure on stderr.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { createTable, memoryStorage, type Storage, type Table } from '../../src/index.js';
import { manualClock } from '../../src/engine/clock.js';
import { parseCommitMetadata } from '../../src/timeline/commit-metadata.js';
import { runCli } from '../node/cli-helpers.js';

const SCHEMA = {
  type: 'record', name: 'r', namespace: 'cb',
  fields: [{ name: 'id', type: 'string' }, { name: 'part', type: 'string' }, { name: 'ts', type: 'long' }],
};
const QUIET = { bloomFilter: { numEntries: 100 }, clean: { automatic: false }, archive: { automatic: false } };

interface Received {
  method: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback server answering each request with `answer` (which may keep the response open). */
async function server(answer: (req: Received, res: ServerResponse, n: number) => void): Promise<{ url: string; received: Received[]; server: Server; pending: ServerResponse[] }> {
  const received: Received[] = [];
  const pending: ServerResponse[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => { body += c; });
    req.on('end', () => {
      const r = { method: req.method, headers: req.headers, body };
      received.push(r);
      pending.push(res);
      answer(r, res, received.length);
    });
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  servers.push(s);
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hudi/callback`, received, server: s, pending };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});
const scratch = mkdtempSync(join(tmpdir(), 'lakelet-commit-callback-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A port nothing listens on: one a server had, closed again. */
async function closedPort(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}/callback`;
}

async function table(storage: Storage = memoryStorage(), extra: Record<string, unknown> = {}): Promise<Table> {
  return createTable(storage, { name: 'trips', type: 'COPY_ON_WRITE', recordKey: 'id', orderingField: 'ts', partitionBy: ['part'], schema: SCHEMA, metadataTable: false, ...QUIET, ...extra });
}

describe('commitCallback', () => {
  test('POSTs Hudi\'s callback message as JSON with the HUDI-CALLBACK-KEY and custom headers', async () => {
    const srv = await server((_r, res) => res.writeHead(200).end('ok'));
    const storage = memoryStorage();
    const t = await table(storage);
    const result = await t.upsert([{ id: 'k1', part: 'a', ts: 1 }, { id: 'k2', part: 'b', ts: 1 }], { commitCallback: { url: srv.url, apiKey: 'secret-key', headers: { 'X-Team': 'lake' } } });
    expect(result.warnings).toEqual([]);
    expect(srv.received).toHaveLength(1);
    const req = srv.received[0]!;
    expect(req.method).toBe('POST');
    expect(req.headers['hudi-callback-key']).toBe('secret-key');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-team']).toBe('lake');
    const body = JSON.parse(req.body) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['basePath', 'commitActionType', 'commitTime', 'extraMetadata', 'hoodieWriteStat', 'tableName']);
    const path = `.hoodie/${result.instant}.commit`;
    const md = parseCommitMetadata(await storage.read(path), path);
    expect(body).toMatchObject({ commitTime: result.instant, tableName: 'trips', basePath: 'memory', commitActionType: 'commit', extraMetadata: md.extraMetadata });
    const stats = body.hoodieWriteStat as Record<string, unknown>[];
    expect(stats.map((s) => [s.fileId, s.partitionPath, s.numInserts]).sort()).toEqual(Object.values(md.partitionToWriteStats).flat().map((s) => [s.fileId, s.partitionPath, s.numInserts]).sort());
  });

  test('a table-level commitCallback applies to every write; without apiKey the header is Hudi\'s default key', async () => {
    const srv = await server((_r, res) => res.writeHead(204).end());
    const t = await table(memoryStorage(), { commitCallback: { url: srv.url } });
    const a = await t.upsert([{ id: 'k1', part: 'a', ts: 1 }]);
    const b = await t.delete(['k1']);
    expect([...a.warnings, ...b.warnings]).toEqual([]);
    expect(srv.received.map((r) => (JSON.parse(r.body) as { commitTime: string }).commitTime)).toEqual([a.instant, b.instant]);
    expect(srv.received.map((r) => r.headers['hudi-callback-key'])).toEqual(['hudi_write_commit_http_callback', 'hudi_write_commit_http_callback']);
  });

  test('a server that never answers: the write resolves at the timeout with a warning while the server still holds the request', async () => {
    const srv = await server(() => undefined); // never answers
    const t = await table();
    const result = await t.upsert([{ id: 'k1', part: 'a', ts: 1 }], { commitCallback: { url: srv.url, timeoutMs: 1000 } });
    expect(srv.received).toHaveLength(1);
    expect(srv.pending[0]!.writableEnded).toBe(false); // the server never answered
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatchObject({ service: 'commit-callback', code: 'ABORTED' });
    expect(result.warnings[0]!.message).toContain('no answer within 1000 ms');
    expect(result.warnings[0]!.message).toContain(result.instant);
    expect(t.commits.map((c) => c.requestedTime)).toEqual([result.instant]); // committed
  });

  test('a refused connection: retried `retries` times (back-offs on the write\'s clock), then a warning; the write succeeded', async () => {
    const url = await closedPort();
    const clock = manualClock(Date.UTC(2026, 5, 1));
    const t = await table();
    const result = await t.upsert([{ id: 'k1', part: 'a', ts: 1 }], { clock, commitCallback: { url, retries: 2 } });
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]!.service).toBe('commit-callback');
    expect(result.warnings[0]!.message).toContain('(3 attempts)');
    expect(result.warnings[0]!.message).toContain('ECONNREFUSED');
    const ids: unknown[] = [];
    for await (const r of t.rows({ columns: ['id'] })) ids.push(r.id);
    expect(ids).toEqual(['k1']);
  });

  test('5xx answers are retried until one succeeds; 4xx is not retried', async () => {
    const clock = manualClock(Date.UTC(2026, 5, 1));
    const flaky = await server((_r, res, n) => res.writeHead(n < 3 ? 503 : 200).end());
    const t = await table();
    const ok = await t.upsert([{ id: 'k1', part: 'a', ts: 1 }], { clock, commitCallback: { url: flaky.url, retries: 3 } });
    expect(ok.warnings).toEqual([]);
    expect(flaky.received).toHaveLength(3);
    const denied = await server((_r, res) => res.writeHead(401).end());
    const no = await t.upsert([{ id: 'k2', part: 'a', ts: 1 }], { clock, commitCallback: { url: denied.url, retries: 3 } });
    expect(denied.received).toHaveLength(1);
    expect(no.warnings.map((w) => w.message)).toEqual([expect.stringContaining('status 401')]);
  });

  test('bad options → INVALID_ARGUMENT naming the field, nothing written', async () => {
    const t = await table();
    await expect(t.upsert([{ id: 'k1', part: 'a', ts: 1 }], { commitCallback: { url: 'ftp://x/y' } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', context: { field: 'commitCallback.url' } });
    await expect(t.upsert([{ id: 'k1', part: 'a', ts: 1 }], { commitCallback: { url: 'http://127.0.0.1:1/', timeoutMs: 0 } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', context: { field: 'commitCallback.timeoutMs' } });
    await expect(t.upsert([{ id: 'k1', part: 'a', ts: 1 }], { commitCallback: { url: 'http://127.0.0.1:1/', retries: 9 } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', context: { field: 'commitCallback.retries' } });
    expect(t.timeline).toEqual([]);
  });
});

describe('the CLI', () => {
  test('--callback-url and --callback-api-key: the POST arrives; a refused callback is a warning on stderr, exit 0', async () => {
    const dir = join(scratch, 'cli-table');
    expect((await runCli('create', dir, '--name', 'trips', '--type', 'cow', '--record-key', 'id', '--ordering-field', 'ts', '--partition-by', 'city')).code).toBe(0);
    const input = join(scratch, 'rows.jsonl');
    writeFileSync(input, '{"id":"a","city":"x","ts":1}\n');
    const srv = await server((_r, res) => res.writeHead(200).end());
    const ok = await runCli('upsert', dir, '--input', input, '--callback-url', srv.url, '--callback-api-key', 'k-1', '--json', '--quiet');
    expect(ok.code).toBe(0);
    expect(ok.err).toBe('');
    expect(srv.received).toHaveLength(1);
    expect(srv.received[0]!.headers['hudi-callback-key']).toBe('k-1');
    expect(JSON.parse(srv.received[0]!.body)).toMatchObject({ commitTime: (JSON.parse(ok.out) as { instant: string }).instant, tableName: 'trips', basePath: `fs:${dir}` });
    const refused = await runCli('upsert', dir, '--input', input, '--callback-url', await closedPort(), '--quiet');
    expect(refused.code).toBe(0);
    expect(refused.err).toMatch(/^lakelet: warning: commit-callback failed after the commit .*ECONNREFUSED/m);
    const usage = await runCli('upsert', dir, '--input', input, '--callback-api-key', 'k');
    expect(usage.code).not.toBe(0);
    expect(usage.err).toContain('--callback-api-key needs --callback-url');
  });
});
