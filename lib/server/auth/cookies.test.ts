import { describe, expect, it } from "vitest";

import { clearedSessionCookie, readCookie, sessionCookie } from "./cookies";

function withCookie(header: string): Request {
  return new Request("http://holdfast.test/", { headers: { cookie: header } });
}

describe("session cookies", () => {
  it("reads one cookie among several", () => {
    const request = withCookie("theme=dark; holdfast_staff=abc%2Fdef; holdfast_candidate=xyz");
    expect(readCookie(request, "holdfast_staff")).toBe("abc/def");
    expect(readCookie(request, "holdfast_candidate")).toBe("xyz");
    expect(readCookie(request, "missing")).toBeUndefined();
  });

  it("ignores malformed encodings instead of throwing", () => {
    expect(readCookie(withCookie("holdfast_staff=%E0%A4%A"), "holdfast_staff")).toBeUndefined();
  });

  it("issues httpOnly, SameSite=Lax cookies and clears them with Max-Age=0", () => {
    const cookie = sessionCookie("staff", "token", new Date("2026-12-01T00:00:00Z"), withCookie(""));
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Expires=Tue, 01 Dec 2026 00:00:00 GMT");
    expect(clearedSessionCookie("candidate", withCookie(""))).toMatch(/^holdfast_candidate=; .*Max-Age=0/);
  });
});
