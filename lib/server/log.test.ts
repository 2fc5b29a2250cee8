import { afterEach, describe, expect, it, vi } from "vitest";

import { log, redact } from "./log";

// Issue 18: tokens must never be logged. The logger is the one place lines are written, so it removes
// credentials from whatever a caller passes: paths with a join token, Authorization and Cookie headers,
// fields named like secrets, and the same inside error messages and stacks.

const JOIN_TOKEN = "Xq7pLm2VbN9cRt4YwE6uI0oPa3sDf5Gh8jKl1Zx2Cv4";
// Built from parts, so scripts/repo-secrets.test.ts does not take it for a real secret.
const WEBHOOK_SECRET = ["whsec", "MfKQ9r8GK6DdmtFJ1vqrX3Qv"].join("_");

afterEach(() => vi.restoreAllMocks());

function captured(spy: { mock: { calls: unknown[][] } }): string {
  return spy.mock.calls.map((call) => String(call[0])).join("\n");
}

describe("log redaction", () => {
  it("cuts a join link's token out of paths, in the message and in fields", () => {
    const spy = vi.spyOn(console, "log").mockImplementation(() => undefined);
    log.info(`GET /join/${JOIN_TOKEN} 303`, {
      path: `/join/${JOIN_TOKEN}?lang=zh`,
      url: `http://x.test/join/${JOIN_TOKEN}`,
    });
    const line = captured(spy);
    expect(line).not.toContain(JOIN_TOKEN);
    expect(JSON.parse(line)).toMatchObject({
      message: "GET /join/[redacted] 303",
      path: "/join/[redacted]?lang=zh",
      url: "http://x.test/join/[redacted]",
    });
  });

  it("redacts Authorization, Cookie and Set-Cookie headers, as a plain object or as Headers", () => {
    const headers = {
      authorization: "Bearer adm1n-T0ken-abcdefghijklmnop",
      cookie: "theme=dark; holdfast_staff=S3ss10nT0ken-abcdefgh",
      "set-cookie": "holdfast_candidate=C4nd1d4teT0ken; Path=/",
      "user-agent": "Mozilla/5.0",
    };
    expect(redact({ headers })).toEqual({
      headers: {
        authorization: "[redacted]",
        cookie: "[redacted]",
        "set-cookie": "[redacted]",
        "user-agent": "Mozilla/5.0",
      },
    });
    const fromHeaders = JSON.stringify(redact({ headers: new Headers(headers) }));
    expect(fromHeaders).not.toMatch(/adm1n|S3ss10n|C4nd1d4te/);
    expect(fromHeaders).toContain("Mozilla/5.0");
  });

  it("redacts credentials inside free text and error stacks", () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const error = new Error(`fetch failed for Bearer adm1n-T0ken-abcdefghijklmnop at /join/${JOIN_TOKEN}`);
    log.error("unhandled error", {
      error,
      note: "cookie holdfast_staff=S3ss10nT0ken-abcdefgh sent",
      shown: `the new key is ${WEBHOOK_SECRET}`,
      query: "/api/x?token=abc123&keep=1",
    });
    const line = captured(spy);
    expect(line).not.toMatch(new RegExp(`adm1n|S3ss10n|MfKQ9r8|abc123|${JOIN_TOKEN}`));
    expect(line).toContain("Bearer [redacted]");
    expect(line).toContain("keep=1");
  });

  it("replaces fields named like credentials, at any depth, and leaves the rest alone", () => {
    expect(
      redact({
        examId: "0193",
        password: "correct horse",
        body: { newPassword: "x", joinToken: "y", nested: [{ secret: "z", count: 3 }] },
        adminApiToken: "t",
        when: null,
      }),
    ).toEqual({
      examId: "0193",
      password: "[redacted]",
      body: { newPassword: "[redacted]", joinToken: "[redacted]", nested: [{ secret: "[redacted]", count: 3 }] },
      adminApiToken: "[redacted]",
      when: null,
    });
  });
});
