// One config for the demo app (`npm start` serves web/) and for the tests (`npm test`: a Node project
// for *.test.ts and a headless-Chromium project for *.browser.test.ts).
import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { serviceWorker } from './web/sw-build.js';

const root = import.meta.dirname;
const fixturesDir = resolve(process.env.LAKELET_FIXTURES ?? `${root}/../shared/fixtures/hudi-rs`);
const expectedFiles = existsSync(`${fixturesDir}/expected`) ? readdirSync(`${fixturesDir}/expected`).filter((f) => f.endsWith('.json')).sort() : [];
// Pre-bundled for the dev server and the browser tests (a cold cache otherwise reloads a test).
const OPTIMIZED_DEPS = ['apache-arrow', 'hyparquet', 'hyparquet-compressors', 'hyparquet-writer', 'fflate', 'idb', 'comlink'];
const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

export default defineConfig({
  root: `${root}/web`,
  base: './',
  plugins: [serviceWorker(`${root}/web`)], // the demo's offline service worker (build only)
  server: { host: '127.0.0.1', port: 5173, fs: { allow: [root] } },
  preview: { host: '127.0.0.1', port: 4173 },
  worker: { format: 'es' },
  optimizeDeps: { include: OPTIMIZED_DEPS },
  build: { target: 'es2022', outDir: `${root}/web/dist`, emptyOutDir: true },
  test: {
    projects: [
      {
        test: {
          name: 'node',
          root,
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.browser.test.ts', 'node_modules/**'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          provide: { FIXTURES_DIR: fixturesDir, FIXTURE_EXPECTED: expectedFiles },
          globalSetup: ['test/servers/global-setup.ts'], // nginx + s3rver on loopback, shared by both projects
        },
      },
      {
        root,
        server: { fs: { allow: [root, fixturesDir] } },
        optimizeDeps: { include: OPTIMIZED_DEPS },
        test: {
          name: 'browser',
          root,
          include: ['test/**/*.browser.test.ts'],
          testTimeout: 60_000,
          provide: { FIXTURES_DIR: fixturesDir, FIXTURE_EXPECTED: expectedFiles },
          globalSetup: ['test/servers/global-setup.ts'],
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            instances: [{ browser: 'chromium' }],
            provider: playwright({
              launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
            }),
          },
        },
      },
    ],
  },
});
