// The JavaScript a page loads on a first visit: a fresh browser context (empty cache, no service worker),
// one navigation, every script response kept. Sizes per file:
//
// - wire: Resource Timing `transferSize` (headers + body as sent, compressed when the server compressed it);
//   `encodedBodySize` is the body alone as sent;
// - decoded: the body's bytes after decompression (`decodedBodySize`, checked against the body itself);
// - gzip: node:zlib gzip (level 6, what servers commonly use) of the body: what it would weigh compressed,
//   whatever the server did.
//
// "First load" is the set of scripts the HTML names (its <script src>, preloads, and the chunk paths in the
// inline RSC payload), which is what the page needs to hydrate: Next's own "First Load JS". Scripts fetched
// after that (prefetches of linked routes, lazy chunks) are listed apart as "later".
import { gzipSync } from "node:zlib";

import type { Browser, BrowserContextOptions, Page, Response } from "@playwright/test";

import { sleep } from "../run/log";

export type JsFile = {
  url: string;
  /** Path without the origin, for printing. */
  path: string;
  transferBytes: number | null;
  encodedBytes: number | null;
  decodedBytes: number;
  gzipBytes: number;
  /** Named by the HTML: part of the first load. */
  isInitial: boolean;
  contentEncoding: string | null;
};

export type JsTotals = {
  files: number;
  transferBytes: number;
  encodedBytes: number;
  decodedBytes: number;
  gzipBytes: number;
};

export type FirstLoadJs = {
  label: string;
  url: string;
  finalUrl: string;
  status: number | null;
  initial: JsTotals;
  later: JsTotals;
  files: JsFile[];
  /** Resource Timing had no entry for these (its buffer full?), so transfer sizes are partial. */
  missingTiming: number;
  /** Milliseconds from navigation start: DOMContentLoaded, load, and when the page was ready (`isReady`). */
  timing: { domContentLoadedMs: number | null; loadMs: number | null; readyMs: number | null };
};

type ResourceEntry = { name: string; transferSize: number; encodedBodySize: number; decodedBodySize: number };
type NavigationFacts = {
  entries: ResourceEntry[];
  domContentLoadedMs: number | null;
  loadMs: number | null;
  nowMs: number;
};

const QUIET_MS = 1_500;
const MAX_SETTLE_MS = 15_000;
const MAX_FILES = 2_000;
const CHUNK_PATH = /\/?_next\/static\/[A-Za-z0-9_\-./~%[\]@]+?\.js/g;

function totals(files: readonly JsFile[]): JsTotals {
  return files.reduce<JsTotals>(
    (sum, file) => ({
      files: sum.files + 1,
      transferBytes: sum.transferBytes + (file.transferBytes ?? 0),
      encodedBytes: sum.encodedBytes + (file.encodedBytes ?? file.decodedBytes),
      decodedBytes: sum.decodedBytes + file.decodedBytes,
      gzipBytes: sum.gzipBytes + file.gzipBytes,
    }),
    { files: 0, transferBytes: 0, encodedBytes: 0, decodedBytes: 0, gzipBytes: 0 },
  );
}

function isScript(response: Response): boolean {
  const type = response.request().resourceType();
  return type === "script" || /\.m?js(\?|$)/.test(new URL(response.url()).pathname);
}

/** Chunk paths the HTML names, anywhere (attributes, inline scripts, escaped JSON), without origin or query. */
function namedChunks(html: string): Set<string> {
  const unescaped = html.replaceAll("\\/", "/").replaceAll("\\u002F", "/");
  return new Set([...unescaped.matchAll(CHUNK_PATH)].map((match) => `/${match[0].replace(/^\//, "")}`));
}

/**
 * Opens `url` in a fresh context and returns the JS it loaded. `isReady` (polled, bounded) says when the page
 * is usable; after it, the page is given until no script arrived for 1.5 s (at most 15 s).
 */
export async function measureFirstLoadJs(options: {
  browser: Browser;
  label: string;
  url: string;
  contextOptions: BrowserContextOptions;
  isReady?: (page: Page) => Promise<boolean>;
  readyTimeoutMs?: number;
  signal: AbortSignal;
}): Promise<FirstLoadJs> {
  const context = await options.browser.newContext({ ...options.contextOptions, serviceWorkers: "block" });
  try {
    const page = await context.newPage();
    const bodies: Promise<{ response: Response; body: Buffer | null }>[] = [];
    const mainDocument: { html: Promise<string> | null } = { html: null };
    let lastScriptAt = Date.now();
    page.on("response", (response) => {
      if (
        response.request().isNavigationRequest() &&
        response.request().frame() === page.mainFrame() &&
        response.status() < 300
      ) {
        mainDocument.html = response.text().catch(() => "");
        return;
      }
      if (!isScript(response) || bodies.length >= MAX_FILES) return;
      lastScriptAt = Date.now();
      bodies.push(
        response.body().then(
          (body) => ({ response, body }),
          () => ({ response, body: null }),
        ),
      );
    });

    const navigation = await page.goto(options.url, { waitUntil: "load", timeout: 60_000 });
    let readyMs: number | null = null;
    if (options.isReady) {
      const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
      while (!options.signal.aborted && Date.now() < deadline) {
        if (await options.isReady(page)) {
          readyMs = await page.evaluate<number>("performance.now()");
          break;
        }
        await sleep(50, options.signal);
      }
      if (readyMs === null)
        throw new Error(
          `${options.label}: the page at ${options.url} was not ready within ${(options.readyTimeoutMs ?? 30_000) / 1000} s`,
        );
    }
    const settleUntil = Date.now() + MAX_SETTLE_MS;
    while (!options.signal.aborted && Date.now() < settleUntil && Date.now() - lastScriptAt < QUIET_MS)
      await sleep(100, options.signal);

    const facts = await page.evaluate<NavigationFacts>(`(() => {
      const nav = performance.getEntriesByType("navigation")[0];
      return {
        entries: performance.getEntriesByType("resource").map((e) => ({ name: e.name, transferSize: e.transferSize, encodedBodySize: e.encodedBodySize, decodedBodySize: e.decodedBodySize })),
        domContentLoadedMs: nav ? nav.domContentLoadedEventEnd : null,
        loadMs: nav ? nav.loadEventEnd : null,
        nowMs: performance.now(),
      };
    })()`);
    const timingByUrl = new Map(facts.entries.map((entry) => [entry.name, entry]));
    const named = namedChunks(mainDocument.html ? await mainDocument.html : "");

    const seen = new Set<string>();
    const files: JsFile[] = [];
    let missingTiming = 0;
    for (const { response, body } of await Promise.all(bodies)) {
      const url = response.url();
      if (seen.has(url) || !body) continue;
      seen.add(url);
      const parsed = new URL(url);
      const timing = timingByUrl.get(url);
      if (!timing) missingTiming += 1;
      const headers = await response.allHeaders().catch((): Record<string, string> => ({}));
      files.push({
        url,
        path: parsed.pathname + parsed.search,
        transferBytes: timing ? timing.transferSize : null,
        encodedBytes: timing ? timing.encodedBodySize : null,
        decodedBytes: body.length,
        gzipBytes: gzipSync(body, { level: 6 }).length,
        isInitial: named.has(parsed.pathname),
        contentEncoding: headers["content-encoding"] ?? null,
      });
    }
    files.sort((a, b) => b.decodedBytes - a.decodedBytes);
    return {
      label: options.label,
      url: options.url,
      finalUrl: page.url(),
      status: navigation?.status() ?? null,
      initial: totals(files.filter((file) => file.isInitial)),
      later: totals(files.filter((file) => !file.isInitial)),
      files,
      missingTiming,
      timing: {
        domContentLoadedMs: facts.domContentLoadedMs === null ? null : Math.round(facts.domContentLoadedMs),
        loadMs: facts.loadMs === null ? null : Math.round(facts.loadMs),
        readyMs: readyMs === null ? null : Math.round(readyMs),
      },
    };
  } finally {
    await context.close().catch(() => undefined);
  }
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
