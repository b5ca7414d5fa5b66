// Golden reads in Node: every expected query of the Spark-written fixtures, through the public API.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { ExpectedFile } from './compare.js';
import { defineGoldenSuite } from './golden-suite.js';

const root = inject('FIXTURES_DIR');
const dir = join(root, 'expected');
const expected = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as ExpectedFile);

defineGoldenSuite({ expected, readZip: async (rel) => new Uint8Array(readFileSync(join(root, rel))) });
