import "server-only";

import { randomBytes } from "node:crypto";

/**
 * A fresh nonce for one page response: 128 random bits, base64 (what a CSP `'nonce-…'` source takes).
 * Never reused: a nonce an attacker could learn from one response must be worthless for the next.
 */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The Content-Security-Policy of a page (docs/security.md, "Browser protections"), set by proxy.ts with a
 * fresh nonce per request. Next.js reads the nonce from the request's copy of this header and stamps it on
 * every script it renders; `'strict-dynamic'` then lets those scripts load the chunks they need, and nothing
 * else runs: no inline script, no event-handler attribute, no script from another origin.
 *
 * `style-src` keeps `'unsafe-inline'`: React's `style={…}` props and uPlot (the charts) write `style`
 * attributes, which a nonce cannot cover. Styles cannot run code; what an injected style could still do
 * (restyle or hide parts of a page) needs an injection that the text-only rendering of every typed
 * value already stops.
 *
 * `isDevelopment` (`next dev`) adds `'unsafe-eval'`, which React's development build needs to rebuild
 * server stacks in the browser; a production build never gets it.
 */
export function pageContentSecurityPolicy(nonce: string, { isDevelopment }: { isDevelopment: boolean }): string {
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(isDevelopment ? ["'unsafe-eval'"] : [])],
    ["style-src", "'self'", "'unsafe-inline'"],
    ["img-src", "'self'", "data:", "blob:"],
    ["font-src", "'self'"],
    // fetch, the candidate's and the proctor's live streams (EventSource), the service worker's fetches.
    ["connect-src", "'self'"],
    ["worker-src", "'self'"],
    ["manifest-src", "'self'"],
    ["object-src", "'none'"],
    ["base-uri", "'self'"],
    ["form-action", "'self'"],
    ["frame-ancestors", "'none'"],
  ];
  return directives.map((directive) => directive.join(" ")).join("; ");
}
