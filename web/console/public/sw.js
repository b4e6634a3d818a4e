/**
 * The console's service worker (docs/console.md, "The door"): the door keeps working, and opens,
 * with the venue's network down. Registered by the console where the browser allows one (HTTPS or
 * loopback), scoped to `/console/`.
 *
 * - Screens (`/console/…` pages): from the network; offline, the last `index.html` it gave, since
 *   every screen is the same page.
 * - Scripts and stylesheets (`/console/assets/…`, named after their content): from this cache first.
 *   The ones `index.html` links are stored when the worker installs.
 * - The few reads the door needs to open offline (who is signed in, the edition, its event and
 *   programs, the attendance counts): from the network, the last answer kept for when there is none.
 *   The console empties that cache when the person signs out.
 *
 * Nothing else is touched: writes always go to the network (the door keeps its scans in IndexedDB,
 * door-queue.ts), and other reads fail offline as they would without a worker.
 */
const SHELL = 'convene-console-shell-v1';
const READS = 'convene-console-reads';
const INDEX = '/console';
const KEPT_READS = [
  /^\/auth\/session$/,
  /^\/editions\/[^/]+$/,
  /^\/editions\/[^/]+\/programs$/,
  /^\/editions\/[^/]+\/attendance$/,
  /^\/events\/[^/]+$/,
];

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      const index = await fetch(INDEX, { cache: 'no-cache' });
      if (!index.ok) return;
      const html = await index.clone().text();
      await cache.put(INDEX, index);
      const linked = new Set(html.match(/\/console\/assets\/[A-Za-z0-9_.-]+/g) ?? []);
      await cache.addAll([...linked]);
    })().then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  // The shells of older workers go; this one serves the pages already open.
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('convene-console-shell-') && name !== SHELL) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

/** The network's answer, kept under `key` when it is a 200; offline, the one kept last. */
async function networkFirst(request, cacheName, key) {
  const cache = await caches.open(cacheName);
  try {
    const answer = await fetch(request);
    if (answer.status === 200) await cache.put(key, answer.clone());
    return answer;
  } catch (error) {
    const kept = await cache.match(key);
    if (kept !== undefined) return kept;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(SHELL);
  const kept = await cache.match(request);
  if (kept !== undefined) return kept;
  const answer = await fetch(request);
  if (answer.status === 200) await cache.put(request, answer.clone());
  return answer;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate' && url.pathname.startsWith('/console')) {
    event.respondWith(networkFirst(request, SHELL, INDEX));
  } else if (url.pathname.startsWith('/console/assets/')) {
    event.respondWith(cacheFirst(request));
  } else if (KEPT_READS.some((path) => path.test(url.pathname))) {
    event.respondWith(networkFirst(request, READS, request));
  }
});
