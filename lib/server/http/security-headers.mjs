// The browser protections every response carries (docs/security.md, "Browser protections"), in one place for
// the two servers that send them: Next.js (next.config.mjs `headers()`, from HEADER_RULES) and the sync requests
// that scripts/start/worker.mjs answers before Next's routing (ADR 023, ADR 026: `headersFor`, the same rules
// read the way Next reads them). Plain JavaScript: both load it without a build. Pages get a whole script policy
// instead of this CSP, with a nonce per response, from proxy.ts.

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

/**
 * The header rules of every path, in next.config.mjs's own shape (`headers()`), so Next applies them as written
 * and `headersFor` applies the very same list to the answers the worker writes itself.
 *
 * @typedef {{ type: "header"; key: string; value: string }} HeaderCondition
 * @typedef {{ source: "/:path*"; has?: HeaderCondition[]; headers: { key: string; value: string }[] }} HeaderRule
 * @type {readonly HeaderRule[]}
 */
export const HEADER_RULES = [
  // No page can be framed, no Referer leaves a page (a join link's token must not leak), no content sniffing, no
  // powerful features.
  { source: "/:path*", headers: SECURITY_HEADERS },
  // Strict-Transport-Security only when the request came over HTTPS (through the reverse proxy).
  {
    source: "/:path*",
    has: [{ type: "header", key: "x-forwarded-proto", value: "https" }],
    headers: HTTPS_ONLY_HEADERS,
  },
];

/** Each rule's conditions as Next.js matches them (its `matchHas`: the whole value, an anchored expression). */
const COMPILED_RULES = HEADER_RULES.map((rule) => ({
  conditions: (rule.has ?? []).map((condition) => ({
    key: condition.key.toLowerCase(),
    value: new RegExp(`^${condition.value}$`),
  })),
  headers: rule.headers,
}));

/**
 * The headers HEADER_RULES give a response to a request with these headers, as Next.js applies them: every
 * rule whose `has` conditions all hold, a condition's value matched against the whole header value (of a
 * repeated header, the last value, as Next does).
 *
 * @param {(name: string) => string | string[] | undefined} requestHeader a request header by lower-case name
 * @returns {{ key: string; value: string }[]}
 */
export function headersFor(requestHeader) {
  /** @type {{ key: string; value: string }[]} */
  const headers = [];
  for (const rule of COMPILED_RULES) {
    const holds = rule.conditions.every((condition) => {
      const given = requestHeader(condition.key);
      const value = Array.isArray(given) ? given.at(-1) : given;
      return value !== undefined && condition.value.test(value);
    });
    if (holds) headers.push(...rule.headers);
  }
  return headers;
}
