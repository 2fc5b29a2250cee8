// The browser protections every response carries (docs/security.md, "Browser protections"), in one place for
// the two servers that send them: Next.js (next.config.mjs `headers()`) and the sync requests that
// scripts/start/worker.mjs answers before Next's routing (ADR 023). Plain JavaScript: both load it without a
// build. Pages get a whole script policy instead of this CSP, with a nonce per response, from proxy.ts.

/** Sent with every response. @type {{ key: string; value: string }[]} */
export const SECURITY_HEADERS = [
  {
    key: "Content-Security-Policy",
    value: "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
  },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  {
    key: "Permissions-Policy",
    value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), hid=(), midi=()",
  },
];

/** Sent only when the request came over HTTPS through the reverse proxy (`X-Forwarded-Proto: https`). */
export const HTTPS_ONLY_HEADERS = [{ key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" }];
