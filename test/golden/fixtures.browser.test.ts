// Golden reads in headless Chromium: the same suite as fixtures.test.ts, fixtures fetched as zips.
import { inject } from 'vitest';
import { fetchFixture } from '../helpers/fixtures.browser.js';
import type { ExpectedFile } from './compare.js';
import { defineGoldenSuite } from './golden-suite.js';

const expected = await Promise.all(
  inject('FIXTURE_EXPECTED').map(async (name) => JSON.parse(new TextDecoder().decode(await fetchFixture(`expected/${name}`))) as ExpectedFile),
);

defineGoldenSuite({ expected, readZip: fetchFixture });
