// Junk the contract lets through without an error: it must still change nothing.

import { get, JSON_TYPE, post } from "./requests";
import { type BadCase, fakeToken, type Fixture, type Random } from "./types";

export function ignoredJunkCases(fixture: Fixture, random: Random): BadCase[] {
  const cases: BadCase[] = [];
  const candidate = random.pick(fixture.open);
  const cookie = { cookie: candidate.cookie };
  const junkBodies = ["{", '{"status":"submitted","revision":99}', "x".repeat(2_000)];
  for (const body of junkBodies) {
    const why = "the endpoint takes no body; it is ignored";
    cases.push({
      endpoint: "GET /api/attempts/{attemptId}",
      category: "ignored-junk",
      label: `GET with a body ${JSON.stringify(body.slice(0, 30))}`,
      request: {
        method: "GET",
        path: `/api/attempts/${candidate.attemptId}`,
        headers: { ...cookie, ...JSON_TYPE },
        body: Buffer.from(body),
      },
      expect: { kind: "allow", statuses: [200], why },
    });
    cases.push({
      endpoint: "POST /api/exams/{examId}/attempts",
      category: "ignored-junk",
      label: `resume with a body ${JSON.stringify(body.slice(0, 30))}`,
      request: post(`/api/exams/${fixture.exam.id}/attempts`, { ...cookie, ...JSON_TYPE }, body),
      expect: { kind: "allow", statuses: [200], why: `${why} (resuming is idempotent)` },
    });
    cases.push({
      endpoint: "GET /api/health",
      category: "ignored-junk",
      label: `health with a body ${JSON.stringify(body.slice(0, 30))}`,
      request: { method: "GET", path: "/api/health?x=%00&__proto__=1", headers: JSON_TYPE, body: Buffer.from(body) },
      expect: { kind: "allow", statuses: [200], why },
    });
  }
  cases.push({
    endpoint: "GET /api/attempts/{attemptId}",
    category: "ignored-junk",
    label: "query string junk",
    request: get(
      `/api/attempts/${candidate.attemptId}?attemptId=${fixture.other.attemptId}&__proto__[x]=1&%ZZ`,
      cookie,
    ),
    expect: { kind: "allow", statuses: [200], why: "query strings are not read" },
  });

  // Unknown fields beside an empty delta: zod strips them (forward compatible); they must have no effect.
  for (const extra of [
    '"status":"submitted"',
    '"revision":999999',
    '"__proto__":{"status":"submitted"}',
    '"submission":{"submissionId":"x"}',
    '"version":2147483647',
  ]) {
    cases.push({
      endpoint: "POST /api/attempts/{attemptId}/answers",
      category: "ignored-junk",
      label: `unknown field {${extra.slice(0, 40)}} beside an empty delta`,
      request: post(
        `/api/attempts/${candidate.attemptId}/answers`,
        { ...JSON_TYPE, ...cookie },
        `{${extra},"deviceId":"bench-bad","answers":[]}`,
      ),
      expect: { kind: "allow", statuses: [200], why: "unknown fields are ignored; an empty delta changes nothing" },
    });
  }

  // Sign-out with credentials that name no session: 204, idempotent, nothing to delete.
  for (const [endpoint, path, name] of [
    ["DELETE /api/session", "/api/session", "holdfast_candidate"],
    ["DELETE /api/staff/session", "/api/staff/session", "holdfast_staff"],
  ] as const) {
    for (const [label, value] of [
      ["forged", fakeToken(random)],
      ["SQL-ish", encodeURIComponent("' OR 1=1 --")],
      ["broken encoding", "%E0%A4%A"],
      ["none", ""],
    ] as const) {
      cases.push({
        endpoint,
        category: "ignored-junk",
        label: `sign-out, ${label} cookie`,
        request: { method: "DELETE", path, headers: value ? { cookie: `${name}=${value}` } : {} },
        expect: {
          kind: "allow",
          statuses: [204],
          why: "signing out is idempotent; an unknown session is already signed out",
        },
      });
    }
  }

  // Join links that are not valid land on the page that says so, with no cookie.
  const tokens = [
    fakeToken(random),
    "x",
    "%00",
    "%ZZ",
    encodeURIComponent("' OR 1=1 --"),
    "t".repeat(300),
    encodeURIComponent("<script>"),
    "%E2%98%83",
    fixture.adminToken,
  ];
  for (const token of tokens) {
    cases.push({
      endpoint: "GET /join/{token}",
      category: "ignored-junk",
      label: `join link ${JSON.stringify(token.slice(0, 30))}`,
      request: get(`/join/${token}`, {}),
      expect: {
        kind: "allow",
        statuses: [303],
        why: "a bad join link lands on /join-problem (a page, not JSON)",
        location: /^(https?:\/\/[^/]+)?\/join-problem\?reason=invalid$/,
        isCookieForbidden: true,
      },
    });
  }
  for (const method of ["POST", "PUT", "DELETE"]) {
    cases.push({
      endpoint: "GET /join/{token}",
      category: "method",
      label: `${method} /join/{token}`,
      request: { method, path: `/join/${fakeToken(random)}`, headers: {} },
      expect: { kind: "allow", statuses: [405], why: "not an API route: no JSON body is promised" },
    });
  }
  return cases;
}
