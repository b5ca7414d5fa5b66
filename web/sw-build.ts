// The build side of the demo's service worker (a Vite plugin, build only): web/sw.ts becomes a second entry
// emitted as sw.js (no hash: the page registers it by name), __LAKELET_SW__ tells the page to register it, and
// sw.js gets the list of files to cache on install — everything the build emitted plus web/public's files —
// and a version (a hash of that list and the emitted code), so a new build replaces the old cache.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

const PLACEHOLDER = /(["'`])__LAKELET_PRECACHE__\1/;

/** The plugin; `webRoot` is the demo's folder (web/). */
export function serviceWorker(webRoot: string): Plugin {
  return {
    name: 'lakelet-demo-service-worker',
    apply: 'build',
    config: () => ({
      define: { __LAKELET_SW__: 'true' },
      build: {
        rollupOptions: {
          input: { index: resolve(webRoot, 'index.html'), sw: resolve(webRoot, 'sw.ts') },
          output: { entryFileNames: (chunk: { name: string }) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js') },
        },
      },
    }),
    generateBundle(_options, bundle) {
      const sw = bundle['sw.js'];
      if (!sw || sw.type !== 'chunk') throw new Error('lakelet demo: the build emitted no sw.js');
      const publicDir = resolve(webRoot, 'public');
      const files = [...Object.keys(bundle).filter((f) => f !== 'sw.js' && !f.endsWith('.map')), ...readdirSync(publicDir)].sort();
      const hash = createHash('sha256');
      for (const f of files) {
        const out = bundle[f];
        hash.update(f);
        if (out) hash.update(out.type === 'chunk' ? out.code : out.source);
      }
      const manifest = JSON.stringify({ version: hash.digest('hex').slice(0, 16), files });
      if (!PLACEHOLDER.test(sw.code)) throw new Error('lakelet demo: sw.js lost its precache placeholder');
      sw.code = sw.code.replace(PLACEHOLDER, () => JSON.stringify(manifest));
    },
  };
}
