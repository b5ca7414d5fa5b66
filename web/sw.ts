// The demo's service worker: on install it caches the app shell — the page, its scripts, workers, WASM,
// styles, manifest and icons, listed into PRECACHE by the build (web/sw-build.ts) — and serves them cache
// first, so once loaded the app works with the network off. Other same-origin GETs are cached as they pass;
// cross-origin requests (S3 buckets, HTTP tables) and ranged reads go to the network untouched.

/** The bits of the service worker scope this file uses (the DOM lib has no WebWorker types). */
interface ExtendableEvent extends Event { waitUntil(p: Promise<unknown>): void }
interface FetchEvent extends ExtendableEvent { request: Request; respondWith(r: Promise<Response>): void }
interface WorkerScope {
  location: Location;
  registration: { scope: string };
  clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', fn: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', fn: (e: FetchEvent) => void): void;
}
const scope = self as unknown as WorkerScope;

/** `{ version, files }`: replaced by the build with the hash of the build and the files it emitted. */
const PRECACHE = JSON.parse('__LAKELET_PRECACHE__') as { version: string; files: string[] };
const CACHE = `lakelet-demo-${PRECACHE.version}`;
const base = new URL('./', scope.registration.scope);
const shell = new URL('./', base).href;

scope.addEventListener('install', (e) => {
  e.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([shell, ...PRECACHE.files.map((f) => new URL(f, base).href)]);
    await scope.skipWaiting();
  })());
});

scope.addEventListener('activate', (e) => {
  e.waitUntil((async () => {
    for (const key of await caches.keys()) if (key.startsWith('lakelet-demo-') && key !== CACHE) await caches.delete(key);
    await scope.clients.claim();
  })());
});

scope.addEventListener('fetch', (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== scope.location.origin || req.headers.has('range')) return;
  e.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // A navigation anywhere in the app (query strings included) is the app shell.
    // Vary is ignored: servers send `Vary: Origin` (vite preview does), and a module script's request carries
    // an Origin header the install's cache.addAll requests did not, so every script would miss offline.
    // The cache is per build and its file names are hashed, so the URL alone names the response.
    const hit = req.mode === 'navigate' ? await cache.match(shell) : await cache.match(req, { ignoreSearch: true, ignoreVary: true });
    if (hit) return hit;
    const res = await fetch(req);
    if (res.ok && res.type === 'basic') await cache.put(req, res.clone());
    return res;
  })());
});
