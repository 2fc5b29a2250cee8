import { describe, expect, it } from "vitest";

import { POST as joinSessionRoute } from "@/app/api/session/route";
import { POST as signInRoute, DELETE as signOutRoute } from "@/app/api/staff/session/route";
import { GET as joinLinkRoute } from "@/app/join/[token]/route";
import { createExam, createStaff, enroll } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { findCandidateSession, findStaffSession } from "./sessions";

// Issue 18, "Ways in": session cookies are HttpOnly, SameSite=Lax, Path=/, Secure when the browser came over
// HTTPS (here APP_URL is http, so only the request decides: its scheme or the proxy's X-Forwarded-Proto), and
// a sign-in always issues a new session: the cookie the browser had before is worth nothing after it.

function attributes(setCookie: string | null): { value: string; flags: string[] } {
  expect(setCookie).not.toBeNull();
  const [pair, ...rest] = setCookie!.split(";").map((part) => part.trim());
  return { value: decodeURIComponent(pair!.slice(pair!.indexOf("=") + 1)), flags: rest.map((f) => f.split("=")[0]!) };
}

const signIn = (staff: { email: string; password: string }, headers: Record<string, string> = {}, cookie?: string) =>
  call(signInRoute, {
    path: "/api/staff/session",
    json: { email: staff.email, password: staff.password },
    headers,
    cookie,
  });

describe("session cookie attributes", () => {
  it("over plain http: HttpOnly, SameSite=Lax, Path=/, not Secure", async () => {
    const admin = await createStaff("admin");
    const response = await signIn(admin);
    expect(response.status).toBe(200);
    const { flags } = attributes(response.headers.get("set-cookie"));
    expect(flags).toEqual(expect.arrayContaining(["Path", "HttpOnly", "SameSite", "Expires"]));
    expect(response.headers.get("set-cookie")).toContain("SameSite=Lax");
    expect(response.headers.get("set-cookie")).toContain("Path=/;");
    expect(flags).not.toContain("Secure");
  });

  it("behind a TLS proxy (X-Forwarded-Proto: https): Secure too, on staff, candidate and sign-out cookies", async () => {
    const https = { "x-forwarded-proto": "https" };
    const admin = await createStaff("admin");
    const staff = await signIn(admin, https);
    expect(attributes(staff.headers.get("set-cookie")).flags).toEqual(
      expect.arrayContaining(["Path", "HttpOnly", "SameSite", "Secure"]),
    );
    // Only the last entry (the proxy's) counts.
    const spoofed = await signIn(admin, { "x-forwarded-proto": "https, http" });
    expect(attributes(spoofed.headers.get("set-cookie")).flags).not.toContain("Secure");

    const exam = await createExam();
    const [candidate] = await enroll(exam.id);
    const joined = await call(joinSessionRoute, {
      path: "/api/session",
      json: { joinToken: candidate!.joinToken },
      headers: https,
    });
    expect(attributes(joined.headers.get("set-cookie")).flags).toEqual(
      expect.arrayContaining(["HttpOnly", "SameSite", "Secure"]),
    );
    const link = await call(joinLinkRoute, {
      path: `/join/${candidate!.joinToken}`,
      params: { token: candidate!.joinToken },
      headers: https,
    });
    expect(link.status).toBe(303);
    expect(attributes(link.headers.get("set-cookie")).flags).toEqual(
      expect.arrayContaining(["HttpOnly", "SameSite", "Secure"]),
    );

    const signedOut = await call(signOutRoute, { method: "DELETE", path: "/api/staff/session", headers: https });
    expect(signedOut.headers.get("set-cookie")).toMatch(/Max-Age=0.*Secure/);
  });
});

describe("session rotation at sign-in", () => {
  it("signing in again gives a different session, and the cookie held before is no longer accepted", async () => {
    const admin = await createStaff("admin");
    const first = attributes((await signIn(admin)).headers.get("set-cookie")).value;
    expect(await findStaffSession(first)).not.toBeNull();

    const second = attributes(
      (await signIn(admin, {}, `holdfast_staff=${encodeURIComponent(first)}`)).headers.get("set-cookie"),
    ).value;
    expect(second).not.toBe(first);
    expect(await findStaffSession(first)).toBeNull();
    expect((await findStaffSession(second))?.userId).toBe(admin.id);
  });

  it("a value planted in the browser before sign-in is not what the browser holds after it (fixation)", async () => {
    const admin = await createStaff("admin");
    const planted = "attacker-chosen-session-value-0123456789abcdef";
    const response = await signIn(admin, {}, `holdfast_staff=${planted}`);
    const issued = attributes(response.headers.get("set-cookie")).value;
    expect(issued).not.toBe(planted);
    expect(await findStaffSession(planted)).toBeNull();
    expect(await findStaffSession(issued)).not.toBeNull();
  });

  it("each use of a join link is a new candidate session", async () => {
    const exam = await createExam();
    const [candidate] = await enroll(exam.id);
    const join = async () =>
      attributes(
        (await call(joinSessionRoute, { path: "/api/session", json: { joinToken: candidate!.joinToken } })).headers.get(
          "set-cookie",
        ),
      ).value;
    const [a, b] = [await join(), await join()];
    expect(a).not.toBe(b);
    expect(await findCandidateSession(a)).not.toBeNull();
    expect(await findCandidateSession(b)).not.toBeNull();
  });
});
