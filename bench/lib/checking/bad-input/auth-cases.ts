// Missing, forged, expired and wrong-role credentials.

import { randomUUID } from "node:crypto";

import type { RawRequest } from "../../load/raw-http";
import { get, JSON_TYPE, post, reject, validValue } from "./requests";
import { type BadCase, fakeToken, type Fixture, type FixtureQuestion, type Random } from "./types";

export function authCases(fixture: Fixture, random: Random): BadCase[] {
  const cases: BadCase[] = [];
  const candidate = random.pick(fixture.open);
  const questions = fixture.exam.questions;
  const delta = JSON.stringify({
    deviceId: "bench-bad",
    answers: [
      {
        questionId: (questions[0] as FixtureQuestion).id,
        value: validValue(questions[0] as FixtureQuestion),
        version: 5_000,
      },
    ],
  });
  const heartbeat = JSON.stringify({
    deviceId: "bench-bad",
    online: true,
    pending: 0,
    oldestPendingMs: 0,
    lastAckRevision: 1,
    clock: 1,
    consecutiveFailures: 0,
  });
  const exam = JSON.stringify({
    title: "Never",
    durationSeconds: 3600,
    status: "published",
    questions: [{ type: "essay", prompt: "?" }],
  });
  const roster = JSON.stringify({ candidates: [{ name: "Never", email: "never@holdfast.test" }] });

  const forgedCandidate = `holdfast_candidate=${fakeToken(random)}`;
  const forgedStaff = `holdfast_staff=${fakeToken(random)}`;
  const candidateIds: [string, Record<string, string>][] = [
    ["no cookie", {}],
    ["forged candidate cookie", { cookie: forgedCandidate }],
    ["expired candidate cookie", { cookie: fixture.expiredCandidateCookie }],
    ["cookie with broken percent-encoding", { cookie: "holdfast_candidate=%E0%A4%A" }],
    ["empty candidate cookie", { cookie: "holdfast_candidate=" }],
    ["cookie under another name", { cookie: candidate.cookie.replace("holdfast_candidate", "holdfast_candidat") }],
    ["staff (admin) cookie", { cookie: fixture.adminCookie }],
    ["admin bearer token instead of a cookie", { authorization: `Bearer ${fixture.adminToken}` }],
    ["SQL-ish cookie", { cookie: `holdfast_candidate=${encodeURIComponent("' OR 1=1 --")}` }],
    ["8 KB cookie", { cookie: `holdfast_candidate=${"a".repeat(8_000)}` }],
  ];
  const candidateRequests: [string, (headers: Record<string, string>) => RawRequest][] = [
    ["POST /api/exams/{examId}/attempts", (headers) => post(`/api/exams/${fixture.exam.id}/attempts`, headers)],
    ["GET /api/attempts/{attemptId}", (headers) => get(`/api/attempts/${candidate.attemptId}`, headers)],
    [
      "GET /api/attempts/{attemptId}/export-key",
      (headers) => get(`/api/attempts/${candidate.attemptId}/export-key`, headers),
    ],
    [
      "POST /api/attempts/{attemptId}/answers",
      (headers) => post(`/api/attempts/${candidate.attemptId}/answers`, { ...JSON_TYPE, ...headers }, delta),
    ],
    [
      "POST /api/attempts/{attemptId}/submit",
      (headers) =>
        post(
          `/api/attempts/${candidate.attemptId}/submit`,
          { ...JSON_TYPE, ...headers, "idempotency-key": randomUUID() },
          delta,
        ),
    ],
    [
      "POST /api/attempts/{attemptId}/heartbeat",
      (headers) => post(`/api/attempts/${candidate.attemptId}/heartbeat`, { ...JSON_TYPE, ...headers }, heartbeat),
    ],
  ];
  for (const [endpoint, request] of candidateRequests) {
    for (const [label, headers] of candidateIds)
      cases.push({ endpoint, category: "auth", label, request: request(headers), expect: reject(401) });
  }

  const staffIds: [string, Record<string, string>, number][] = [
    ["no credentials", {}, 401],
    ["forged bearer token", { authorization: `Bearer ${fakeToken(random)}` }, 401],
    ["empty bearer token", { authorization: "Bearer " }, 401],
    ["bearer token with a suffix", { authorization: `Bearer ${fixture.adminToken}x` }, 401],
    ["bearer token cut short", { authorization: `Bearer ${fixture.adminToken.slice(0, -1)}` }, 401],
    [
      "Basic credentials",
      { authorization: `Basic ${Buffer.from(`admin:${fixture.adminToken}`).toString("base64")}` },
      401,
    ],
    ["the metrics token as bearer", { authorization: `Bearer ${fixture.metricsToken}` }, 401],
    ["forged staff cookie", { cookie: forgedStaff }, 401],
    ["expired staff cookie", { cookie: fixture.expiredStaffCookie }, 401],
    ["candidate cookie", { cookie: candidate.cookie }, 401],
    [
      "candidate token in the staff cookie",
      { cookie: candidate.cookie.replace("holdfast_candidate", "holdfast_staff") },
      401,
    ],
  ];
  const adminRequests: [string, (headers: Record<string, string>) => RawRequest][] = [
    ["POST /api/admin/exams", (headers) => post("/api/admin/exams", { ...JSON_TYPE, ...headers }, exam)],
    [
      "POST /api/admin/exams/{examId}/candidates",
      (headers) => post(`/api/admin/exams/${fixture.exam.id}/candidates`, { ...JSON_TYPE, ...headers }, roster),
    ],
  ];
  for (const [endpoint, request] of adminRequests) {
    for (const [label, headers, status] of staffIds)
      cases.push({ endpoint, category: "auth", label, request: request(headers), expect: reject(status) });
    cases.push({
      endpoint,
      category: "auth",
      label: "proctor cookie on an admin route",
      request: request({ cookie: fixture.proctorCookie }),
      expect: reject(403),
    });
  }
  const uploadEndpoint = "POST /api/admin/emergency-exports";
  const upload = (headers: Record<string, string>): RawRequest =>
    post(
      "/api/admin/emergency-exports",
      { ...JSON_TYPE, ...headers },
      JSON.stringify(fixture.exportFiles.validAnswers),
    );
  for (const [label, headers, status] of staffIds)
    cases.push({
      endpoint: uploadEndpoint,
      category: "auth",
      label: `${label} (a valid file)`,
      request: upload(headers),
      expect: reject(status),
    });
  cases.push({
    endpoint: uploadEndpoint,
    category: "auth",
    label: "a proctor not assigned to the attempt's exam (a valid file)",
    request: upload({ cookie: fixture.proctorCookie }),
    expect: reject(404),
  });

  const metricsIds: [string, Record<string, string>][] = [
    ["no credentials (METRICS_TOKEN set)", {}],
    ["forged bearer token", { authorization: `Bearer ${fakeToken(random)}` }],
    ["metrics token with a suffix", { authorization: `Bearer ${fixture.metricsToken}x` }],
    ["candidate cookie", { cookie: candidate.cookie }],
    ["forged staff cookie", { cookie: forgedStaff }],
    ["expired staff cookie", { cookie: fixture.expiredStaffCookie }],
  ];
  for (const [label, headers] of metricsIds)
    cases.push({
      endpoint: "GET /api/metrics",
      category: "auth",
      label,
      request: get("/api/metrics", headers),
      expect: reject(401),
    });

  // Sign-in with the wrong secret: a well-formed request that must change nothing.
  const signIn = (email: string, password: string): RawRequest =>
    post("/api/staff/session", JSON_TYPE, JSON.stringify({ email, password }));
  const signInEndpoint = "POST /api/staff/session";
  cases.push({
    endpoint: signInEndpoint,
    category: "auth",
    label: "admin, wrong password",
    request: signIn(fixture.staff.adminEmail, "wrong password"),
    expect: reject(401),
  });
  cases.push({
    endpoint: signInEndpoint,
    category: "auth",
    label: "proctor, wrong password",
    request: signIn(fixture.staff.proctorEmail, "wrong password"),
    expect: reject(401),
  });
  cases.push({
    endpoint: signInEndpoint,
    category: "auth",
    label: "unknown email",
    request: signIn("nobody@holdfast.test", "whatever"),
    expect: reject(401),
  });
  cases.push({
    endpoint: signInEndpoint,
    category: "auth",
    label: "admin email in upper case, wrong password",
    request: signIn(fixture.staff.adminEmail.toUpperCase(), "x"),
    expect: reject(401),
  });
  cases.push({
    endpoint: signInEndpoint,
    category: "auth",
    label: "password of 1,001 characters",
    request: signIn(fixture.staff.adminEmail, "p".repeat(1_001)),
    expect: reject(422),
  });
  cases.push({
    endpoint: "POST /api/session",
    category: "auth",
    label: "well-formed unknown join token",
    request: post("/api/session", JSON_TYPE, JSON.stringify({ joinToken: fakeToken(random) })),
    expect: reject(404),
  });
  cases.push({
    endpoint: "POST /api/session",
    category: "limits",
    label: "join token of 257 characters",
    request: post("/api/session", JSON_TYPE, JSON.stringify({ joinToken: "t".repeat(257) })),
    expect: reject(422),
  });
  cases.push({
    endpoint: "POST /api/session",
    category: "auth",
    label: "a session cookie instead of a join token",
    request: post("/api/session", JSON_TYPE, JSON.stringify({ joinToken: candidate.cookie.split("=")[1] })),
    expect: reject(404),
  });
  return cases;
}

/** Idempotency-Key problems, and writes to a submitted attempt. */
