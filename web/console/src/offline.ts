/**
 * The console's service worker (public/sw.js), from the page's side. Browsers allow one only in a
 * secure context (HTTPS, or loopback); elsewhere the console works as it does without, and the door
 * still keeps its scans on the device (door-queue.ts), though a reload offline then finds no page.
 */

/** The name public/sw.js keeps the door's last reads under. */
const KEPT_READS = 'convene-console-reads';

/**
 * Registers the worker. `onControl` runs when a worker starts serving this page (the first visit):
 * the screen's reads are then asked again, through the worker, which keeps the door's for offline.
 */
export function registerServiceWorker(onControl: () => void): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('controllerchange', onControl);
  navigator.serviceWorker.register('/console/sw.js', { scope: '/console' }).catch(() => undefined);
}

/** Forgets the reads the worker kept (who was signed in, the door's edition): on signing out. */
export function forgetKeptReads(): void {
  globalThis.caches?.delete(KEPT_READS).catch(() => undefined);
}
