// Registers the demo's service worker (web/sw.ts) in the built app only: the build defines __LAKELET_SW__
// (web/sw-build.ts); the dev server serves modules that change under it and has no sw.js.
declare const __LAKELET_SW__: boolean | undefined;

/** Register ./sw.js when this is the built app and the browser has service workers. */
export function registerServiceWorker(): void {
  if (typeof __LAKELET_SW__ === 'undefined' || !__LAKELET_SW__ || !('serviceWorker' in navigator)) return;
  const sw = navigator.serviceWorker;
  // `body[data-offline="ready"]`: the page is served by the worker, so it reloads with the network off.
  const mark = () => {
    document.body.dataset.offline = sw.controller ? 'ready' : 'installing';
  };
  sw.addEventListener('controllerchange', mark);
  sw.register('./sw.js', { scope: './' }).then(mark, (err: unknown) => {
    console.warn('lakelet demo: no service worker, no offline use', err);
  });
}
