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
//                                                       (a join link may be another candidate's, on a shared computer),
//                                                       and no page asked for before the join is kept after it.
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
  const sourceId = event.source && "id" in event.source ? event.source.id : undefined;
  event.waitUntil(keep(data.page, data.assets, data.language, sourceId));
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
  const since = pagesGeneration;
  const fromNetwork = fetch(request);
  if (isKept) {
    // The copy is taken at once, before the page starts reading the body; it lands in the cache even
    // when the kept copy was shown first.
    event.waitUntil(fromNetwork.then((response) => storePage(url, response.clone(), since)).catch(() => undefined));
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
/**
 * Counts the joins this worker has seen. A page asked for before the latest join may be the previous
 * candidate's (on a shared computer, their answer can land after the next candidate's join link was opened):
 * it is never kept. A worker stopped and started again starts from 0, but its fetches died with it.
 */
let pagesGeneration = 0;

function forgetPages() {
  pagesGeneration += 1;
  forgetting = caches.delete(PAGES_CACHE).then(() => undefined);
  return forgetting;
}

/**
 * Keeps a 200 HTML answer for an offline reload, whatever its Cache-Control (see rule 5 above); forgets
 * the kept copy when the server now says the page is not this browser's to see. Keeps nothing asked for
 * before the latest join (`since`), nor for a window that has since left its page (`forClient`: the page
 * that asked the worker to keep it; once it navigates away — to the next candidate's join link — the
 * cookie the answer was made for may be the previous candidate's).
 * @param {URL} url
 * @param {Response} response one nobody else reads (a clone, when the page gets the original)
 * @param {number} since the value of pagesGeneration when the page was asked for
 * @param {string} [forClient] the id of the window whose page this is, when it asked by message
 */
async function storePage(url, response, since, forClient) {
  await forgetting;
  const cache = await caches.open(PAGES_CACHE);
  if ([401, 403, 404].includes(response.status)) {
    await cache.delete(pageKey(url));
    return;
  }
  const isHtml = (response.headers.get("Content-Type") ?? "").startsWith("text/html");
  if (response.status !== 200 || response.type !== "basic" || response.redirected || !isHtml) return;
  if (forClient !== undefined && (await sw.clients.get(forClient)) === undefined) return;
  if (since !== pagesGeneration) return;
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

/** A language tag as `<html lang>` carries it ("en", "zh-CN"); anything else is ignored. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$/;

/**
 * Fetches and keeps what a page loaded before the worker saw it. Only this origin's kept pages and
 * static assets are accepted; anything else in the message is ignored. The page fetched is asked for in
 * the language the candidate is reading (`language`, the page's `<html lang>`): the kept copy carries its
 * messages, and an offline reload must not switch language (the locale cookie, when set, decides anyway).
 * @param {unknown} page
 * @param {unknown} assets
 * @param {unknown} language
 * @param {string} [sourceId] the id of the window that sent the message
 */
async function keep(page, assets, language, sourceId) {
  const origin = sw.location.origin;
  const jobs = [];
  if (typeof page === "string") {
    const url = new URL(page, origin);
    if (url.origin === origin && KEPT_PAGE.test(url.pathname)) {
      /** @type {Record<string, string>} */
      const headers = { Accept: "text/html" };
      if (typeof language === "string" && LANGUAGE_TAG.test(language)) headers["Accept-Language"] = language;
      const since = pagesGeneration;
      jobs.push(
        fetch(url.href, { credentials: "same-origin", headers }).then((response) =>
          storePage(url, response, since, sourceId),
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

/** The offline page's words, in each interface language (messages/ cannot be read from here). */
const OFFLINE_WORDS = {
  en: {
    title: "No connection",
    heading: "This page needs a connection the first time",
    text: "This device is offline, and this page has not been opened on it before, so there is no copy to show.",
    kept: "Pages you have already opened here, such as your exam, still open without a connection. Answers you have given are kept on this device and are sent when the connection is back.",
    later: "When you are connected again, try once more.",
    retry: "Try again",
  },
  "zh-CN": {
    title: "无网络连接",
    heading: "此页面首次打开时需要网络连接",
    text: "此设备处于离线状态，而且之前从未在这里打开过此页面，因此没有可显示的副本。",
    kept: "已在这里打开过的页面（例如您的考试）在没有网络时仍可打开。您已填写的作答保存在本设备上，网络恢复后会发送。",
    later: "重新联网后，请再试一次。",
    retry: "重试",
  },
};

/**
 * The reader's language, as the pages pick it (i18n/request.ts): the remembered choice (the
 * `holdfast_locale` cookie, where the worker can read cookies), else the browser's languages, else English.
 * @returns {Promise<keyof typeof OFFLINE_WORDS>}
 */
async function offlineLanguage() {
  try {
    const chosen = await /** @type {any} */ (sw).cookieStore?.get("holdfast_locale");
    if (chosen && chosen.value in OFFLINE_WORDS) return chosen.value;
  } catch {
    // No cookie store in this browser's workers: the browser's languages decide.
  }
  for (const tag of sw.navigator.languages ?? []) {
    const language = tag.toLowerCase().split("-")[0];
    if (language === "zh") return "zh-CN";
    if (language === "en") return "en";
  }
  return "en";
}

/**
 * Shown for a page never opened on this device while there is no connection. Self-contained, with a policy
 * as strict as the pages' (docs/security.md, "Browser protections"): its one style and one script carry a
 * nonce made for this answer, and nothing else may load or run.
 */
async function offlinePage() {
  const lang = await offlineLanguage();
  const words = OFFLINE_WORDS[lang];
  const nonce = crypto.randomUUID();
  const html = `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${words.title} · Holdfast</title>
<style nonce="${nonce}">
  :root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif; color: #1d2329; background: #f7f7f5; line-height: 1.5; }
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
  <h1>${words.heading}</h1>
  <p>${words.text}</p>
  <p>${words.kept}</p>
  <p class="muted">${words.later}</p>
  <button type="button" id="retry">${words.retry}</button>
</main>
<script nonce="${nonce}">document.getElementById("retry").addEventListener("click", () => location.reload());</script>
</body>
</html>`;
  return new Response(html, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": [
        "default-src 'none'",
        `script-src 'nonce-${nonce}'`,
        `style-src 'nonce-${nonce}'`,
        "img-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join("; "),
      "Referrer-Policy": "no-referrer",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
