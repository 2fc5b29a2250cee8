// Holdfast's service worker: lets a candidate reload the exam page with no connection.
// Registered by components/service-worker-registration.tsx (production builds only), scope "/".
//
// Hand-written rather than generated (serwist) so that every rule below is visible in one file and no
// build step stands between `next build` and the worker. It holds no exam data: answers live in
// IndexedDB and the sync engine (lib/client/sync) owns every /api request.
//
// Caching policy, by request (first match wins):
//  1. Not GET, or another origin                     → not handled (the browser's default).
//  2. /api/**                                        → not handled: never cached, never answered from a cache.
//  3. RSC requests (header `RSC: 1` or `?_rsc=`)     → network only, with a time limit (see rscNetworkOnly).
//  4. Navigation to /join/**                         → not handled; the kept pages are forgotten first
//                                                       (a join link may be another candidate's, on a shared computer).
//  5. Navigation to /attempts/** or /exam/**         → network first; every 200 HTML answer is kept per URL
//                                                       (the URL carries the attempt or exam id), whatever its
//                                                       Cache-Control: Next sends `private, no-cache, no-store` for
//                                                       these dynamic pages, and a copy only the candidate's own
//                                                       browser keeps, of a page behind their own cookie, is what
//                                                       an offline reload needs. 401/403/404 forget the kept copy.
//                                                       No network (or a 502/503/504, or no answer within
//                                                       NAVIGATION_PATIENCE_MS while a copy exists) → the kept
//                                                       copy; none kept → the offline page.
//  6. Any other navigation (staff pages, /signin, /) → network only; no network → the offline page. Never kept.
//  7. /_next/static/** and /favicon*                 → cache first (hashed, immutable); kept only if 200 and
//                                                       not `no-store`.
//  8. Anything else                                  → not handled.
//
// Caches are named holdfast-<kind>-<VERSION>. A new VERSION copies what the old caches hold into the new
// ones on activate (hashed assets and kept pages stay valid across worker versions, and a candidate
// mid-exam must not lose their offline copy to a worker update), then deletes the old caches.

const VERSION = "v1";
const PREFIX = "holdfast-";
const STATIC_CACHE = `${PREFIX}static-${VERSION}`;
const PAGES_CACHE = `${PREFIX}pages-${VERSION}`;
const CURRENT_CACHES = new Map([
  ["static", STATIC_CACHE],
  ["pages", PAGES_CACHE],
]);

/** Enough for several deployments' worth of chunks; the oldest go first. */
const MAX_STATIC_ENTRIES = 400;
/** A candidate visits a handful of pages; an exam page per attempt. */
const MAX_PAGES = 20;
/** With a kept copy in hand, how long a navigation waits for the network before showing the copy. */
const NAVIGATION_PATIENCE_MS = 6_000;
/** How long an RSC request may take before the worker gives up on it (see rscNetworkOnly). */
const RSC_TIMEOUT_MS = 10_000;

const KEPT_PAGE = /^\/(attempts|exam)\//;
const STATIC_ASSET = /^\/(_next\/static\/|favicon)/;

/** @type {ServiceWorkerGlobalScope} */
const sw = /** @type {any} */ (self);

sw.addEventListener("install", () => {
  // Nothing to download up front: pages and assets are kept as they are used. Take over at once.
  void sw.skipWaiting();
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (!name.startsWith(PREFIX) || [...CURRENT_CACHES.values()].includes(name)) continue;
        const kind = name.slice(PREFIX.length).split("-")[0] ?? "";
        const target = CURRENT_CACHES.get(kind);
        if (target) await copyCache(name, target);
        await caches.delete(name);
      }
      // The page that registered the worker is controlled from now on, so its next reload is served.
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  if (url.pathname.startsWith("/api/")) return;

  if (isRscRequest(request, url)) {
    event.respondWith(rscNetworkOnly(request));
    return;
  }
  if (request.mode === "navigate") {
    if (url.pathname.startsWith("/join/")) {
      event.waitUntil(forgetPages());
      return;
    }
    event.respondWith(navigate(event, request, url));
    return;
  }
  if (STATIC_ASSET.test(url.pathname)) {
    event.respondWith(cacheFirst(event, request));
  }
});

// The page tells the worker about what it loaded before the worker controlled it (the very first visit),
// and about pages it reached by client-side navigation (an RSC request, not an HTML one), so that those
// reload offline too. See components/service-worker-registration.tsx.
sw.addEventListener("message", (event) => {
  const data = event.data;
  if (!data || typeof data !== "object" || data.type !== "holdfast:keep") return;
  event.waitUntil(keep(data.page, data.assets));
});

/**
 * Client-side navigations fetch React Server Component payloads, which depend on the router state sent
 * in headers: a kept copy could not be trusted, so they are never cached. Offline, the fetch fails at
 * once and Next.js falls back to a full navigation of the same URL, which rule 5 or 6 serves (the kept
 * page, or the offline page). On a connection that neither works nor fails, the request would hang and
 * the click seem dead; after RSC_TIMEOUT_MS the worker answers with a network error instead, so the same
 * fallback happens. Prefetches fail the same way, and Next.js ignores a failed prefetch.
 * @param {Request} request
 */
async function rscNetworkOnly(request) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), RSC_TIMEOUT_MS);
  request.signal.addEventListener("abort", () => controller.abort());
  try {
    return await fetch(request, { signal: controller.signal });
  } catch {
    return Response.error();
  } finally {
    clearTimeout(timer);
  }
}

/**
 * @param {FetchEvent} event
 * @param {Request} request
 * @param {URL} url
 */
async function navigate(event, request, url) {
  const isKept = KEPT_PAGE.test(url.pathname);
  const kept = isKept ? await matchPage(url) : undefined;
  const fromNetwork = fetch(request);
  if (isKept) {
    // The copy is taken at once, before the page starts reading the body; it lands in the cache even
    // when the kept copy was shown first.
    event.waitUntil(fromNetwork.then((response) => storePage(url, response.clone())).catch(() => undefined));
  }

  /** @type {Response | undefined} */
  let response;
  try {
    response = kept ? await withPatience(fromNetwork, NAVIGATION_PATIENCE_MS) : await fromNetwork;
  } catch {
    response = undefined;
  }
  if (response && !(kept && [502, 503, 504].includes(response.status))) return response;
  return kept ?? offlinePage();
}

/**
 * @param {Promise<Response>} promise
 * @param {number} ms
 * @returns {Promise<Response | undefined>} undefined when the network took longer than ms.
 */
function withPatience(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(
      (response) => {
        clearTimeout(timer);
        resolve(response);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Kept pages are keyed by URL without query or fragment, as a plain GET. @param {URL} url */
function pageKey(url) {
  return new Request(new URL(url.pathname, url.origin).href);
}

/** @param {URL} url */
async function matchPage(url) {
  const cache = await caches.open(PAGES_CACHE);
  return cache.match(pageKey(url), { ignoreVary: true });
}

/** A navigation that may land in the kept pages is waited for, so a join's forgetting comes first. */
let forgetting = Promise.resolve();

function forgetPages() {
  forgetting = caches.delete(PAGES_CACHE).then(() => undefined);
  return forgetting;
}

/**
 * Keeps a 200 HTML answer for an offline reload, whatever its Cache-Control (see rule 5 above); forgets
 * the kept copy when the server now says the page is not this browser's to see.
 * @param {URL} url
 * @param {Response} response one nobody else reads (a clone, when the page gets the original)
 */
async function storePage(url, response) {
  await forgetting;
  const cache = await caches.open(PAGES_CACHE);
  if ([401, 403, 404].includes(response.status)) {
    await cache.delete(pageKey(url));
    return;
  }
  const isHtml = (response.headers.get("Content-Type") ?? "").startsWith("text/html");
  if (response.status !== 200 || response.type !== "basic" || response.redirected || !isHtml) return;
  await cache.put(pageKey(url), response);
  await trim(cache, MAX_PAGES);
}

/**
 * @param {FetchEvent} event
 * @param {Request} request
 */
async function cacheFirst(event, request) {
  const cache = await caches.open(STATIC_CACHE);
  const hit = await cache.match(request, { ignoreVary: true });
  if (hit) return hit;
  const response = await fetch(request);
  if (isKeepableAsset(response)) event.waitUntil(storeAsset(cache, request, response.clone()));
  return response;
}

/** @param {Response} response */
function isKeepableAsset(response) {
  const cacheControl = response.headers.get("Cache-Control") ?? "";
  return response.status === 200 && response.type === "basic" && !/\bno-store\b/i.test(cacheControl);
}

/**
 * @param {Cache} cache
 * @param {RequestInfo} request
 * @param {Response} response
 */
async function storeAsset(cache, request, response) {
  await cache.put(request, response);
  await trim(cache, MAX_STATIC_ENTRIES);
}

/**
 * Fetches and keeps what a page loaded before the worker saw it. Only this origin's kept pages and
 * static assets are accepted; anything else in the message is ignored.
 * @param {unknown} page
 * @param {unknown} assets
 */
async function keep(page, assets) {
  const origin = sw.location.origin;
  const jobs = [];
  if (typeof page === "string") {
    const url = new URL(page, origin);
    if (url.origin === origin && KEPT_PAGE.test(url.pathname)) {
      jobs.push(
        fetch(url.href, { credentials: "same-origin", headers: { Accept: "text/html" } }).then((response) =>
          storePage(url, response),
        ),
      );
    }
  }
  if (Array.isArray(assets)) {
    const cache = await caches.open(STATIC_CACHE);
    for (const asset of assets.slice(0, 200)) {
      if (typeof asset !== "string") continue;
      const url = new URL(asset, origin);
      if (url.origin !== origin || !STATIC_ASSET.test(url.pathname)) continue;
      jobs.push(
        (async () => {
          if (await cache.match(url.href, { ignoreVary: true })) return;
          const response = await fetch(url.href);
          if (isKeepableAsset(response)) await storeAsset(cache, url.href, response);
        })(),
      );
    }
  }
  // One failure (the connection dropped meanwhile) must not stop the rest.
  await Promise.allSettled(jobs);
}

/** Deletes the oldest entries (Cache.keys lists them in insertion order) beyond max. @param {Cache} cache @param {number} max */
async function trim(cache, max) {
  const keys = await cache.keys();
  for (const key of keys.slice(0, Math.max(0, keys.length - max))) await cache.delete(key);
}

/** @param {string} from @param {string} to */
async function copyCache(from, to) {
  const source = await caches.open(from);
  const target = await caches.open(to);
  for (const request of await source.keys()) {
    if (await target.match(request, { ignoreVary: true })) continue;
    const response = await source.match(request, { ignoreVary: true });
    if (response) await target.put(request, response);
  }
}

/** @param {Request} request @param {URL} url */
function isRscRequest(request, url) {
  return request.headers.get("RSC") === "1" || url.searchParams.has("_rsc");
}

/** Shown for a page never opened on this device while there is no connection. Self-contained. */
function offlinePage() {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>No connection · Holdfast</title>
<style>
  :root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2329; background: #f7f7f5; line-height: 1.5; }
  body { margin: 0; }
  header { background: #fff; border-bottom: 1px solid #d9dde1; }
  header div, main { max-width: 34rem; margin: 0 auto; padding: 0.75rem 1.25rem; }
  header div { font-weight: 700; font-size: 1.1rem; }
  main { padding-top: 2.5rem; }
  h1 { font-size: 1.6rem; line-height: 1.25; margin: 0 0 0.75rem; }
  @media (max-width: 40rem) { h1 { font-size: 1.4rem; } main { padding: 1.5rem 1rem; } header div { padding: 0.6rem 1rem; } }
  p { margin: 0 0 0.9rem; }
  .muted { color: #5b6670; }
  button { font: inherit; font-weight: 600; padding: 0.6rem 1.1rem; min-height: 2.5rem; border-radius: 6px; border: 1px solid #1f5f8b; background: #1f5f8b; color: #fff; cursor: pointer; }
  button:focus-visible { outline: 3px solid #1f5f8b; outline-offset: 2px; }
</style>
</head>
<body>
<header><div>Holdfast</div></header>
<main>
  <h1>This page needs a connection the first time</h1>
  <p>This device is offline, and this page has not been opened on it before, so there is no copy to show.</p>
  <p>Pages you have already opened here, such as your exam, still open without a connection. Answers you have given are kept on this device and are sent when the connection is back.</p>
  <p class="muted">When you are connected again, try once more.</p>
  <button type="button" onclick="location.reload()">Try again</button>
</main>
</body>
</html>`;
  return new Response(html, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}
