import { describe, expect, it } from "vitest";

import nextConfig from "../../../next.config.mjs";
import { HEADER_RULES, headersFor, HTTPS_ONLY_HEADERS, SECURITY_HEADERS } from "./security-headers.mjs";

const from = (headers: Record<string, string | string[]>) => (name: string) => headers[name];

describe("headersFor", () => {
  it("gives the security headers always and HSTS only behind an HTTPS proxy", () => {
    expect(headersFor(from({}))).toEqual(SECURITY_HEADERS);
    expect(headersFor(from({ "x-forwarded-proto": "http" }))).toEqual(SECURITY_HEADERS);
    expect(headersFor(from({ "x-forwarded-proto": "https" }))).toEqual([...SECURITY_HEADERS, ...HTTPS_ONLY_HEADERS]);
  });

  it("matches a condition as Next.js does: the whole value, the last of a repeated header", () => {
    expect(headersFor(from({ "x-forwarded-proto": "https, http" }))).toEqual(SECURITY_HEADERS);
    expect(headersFor(from({ "x-forwarded-proto": "xhttps" }))).toEqual(SECURITY_HEADERS);
    expect(headersFor(from({ "x-forwarded-proto": "HTTPS" }))).toEqual(SECURITY_HEADERS);
    expect(headersFor(from({ "x-forwarded-proto": ["http", "https"] }))).toEqual([
      ...SECURITY_HEADERS,
      ...HTTPS_ONLY_HEADERS,
    ]);
  });
});

describe("HEADER_RULES", () => {
  it("are the rules next.config.mjs gives Next.js for every path, so both servers send one set", async () => {
    const rules = await nextConfig.headers?.();
    expect(rules?.filter((rule) => rule.source === "/:path*")).toEqual(HEADER_RULES);
  });
});
