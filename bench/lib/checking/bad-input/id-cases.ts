// Other candidates', other exams' and unknown ids, and malformed path ids.

import { randomUUID } from "node:crypto";

import type { RawRequest } from "../../load/raw-http";
import { get, JSON_TYPE, post, REJECT, reject, validValue } from "./requests";
import {
  type BadCase,
  fakeUuid,
  type Fixture,
  type FixtureCandidate,
  type FixtureQuestion,
  type Random,
} from "./types";

export function idCases(fixture: Fixture, random: Random): BadCase[] {
  const cases: BadCase[] = [];
  const { exam, otherExam, open, submitted, other } = fixture;
  const me = (): FixtureCandidate => random.pick(open);
  const junkIds = [
    "not-a-uuid",
    "123",
    "00000000-0000-0000-0000-000000000000",
    "ffffffff-ffff-ffff-ffff-ffffffffffff",
    `${fakeUuid(random)}0`,
    fakeUuid(random).replaceAll("-", ""),
    encodeURIComponent("' OR '1'='1"),
    encodeURIComponent("1; DROP TABLE attempts; --"),
    "%00",
    "%ZZ",
    "%E2%98%83",
    "%C0%AF",
    "..%2F..%2Fetc%2Fpasswd",
    "x".repeat(2_000),
    encodeURIComponent("{{7*7}}"),
  ];
  const delta = (questions: readonly FixtureQuestion[]): string =>
    JSON.stringify({
      deviceId: "bench-bad",
      answers: questions.slice(0, 2).map((question) => ({
        questionId: question.id,
        value: validValue(question),
        version: 3_000 + random.int(1_000),
      })),
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

  type AttemptEndpoint = {
    endpoint: string;
    request: (attemptId: string, cookie: string, questions: readonly FixtureQuestion[]) => RawRequest;
  };
  const attemptEndpoints: AttemptEndpoint[] = [
    { endpoint: "GET /api/attempts/{attemptId}", request: (id, cookie) => get(`/api/attempts/${id}`, { cookie }) },
    {
      endpoint: "GET /api/attempts/{attemptId}/export-key",
      request: (id, cookie) => get(`/api/attempts/${id}/export-key`, { cookie }),
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/answers",
      request: (id, cookie, questions) =>
        post(`/api/attempts/${id}/answers`, { ...JSON_TYPE, cookie }, delta(questions)),
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/submit",
      request: (id, cookie, questions) =>
        post(`/api/attempts/${id}/submit`, { ...JSON_TYPE, cookie, "idempotency-key": randomUUID() }, delta(questions)),
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/heartbeat",
      request: (id, cookie) => post(`/api/attempts/${id}/heartbeat`, { ...JSON_TYPE, cookie }, heartbeat),
    },
  ];
  for (const { endpoint, request } of attemptEndpoints) {
    // Valid bodies: only the id is wrong, so anything but 404 is a leak or a write.
    const neighbour = open.find((candidate) => candidate !== open[0]) as FixtureCandidate;
    cases.push({
      endpoint,
      category: "ids",
      label: "another candidate's attempt, same exam",
      request: request(neighbour.attemptId, (open[0] as FixtureCandidate).cookie, exam.questions),
      expect: reject(404),
    });
    cases.push({
      endpoint,
      category: "ids",
      label: "another candidate's submitted attempt",
      request: request(submitted.attemptId, me().cookie, exam.questions),
      expect: reject(404),
    });
    cases.push({
      endpoint,
      category: "ids",
      label: "an attempt of another exam",
      request: request(other.attemptId, me().cookie, otherExam.questions),
      expect: reject(404),
    });
    cases.push({
      endpoint,
      category: "ids",
      label: "own attempt id from another exam's candidate",
      request: request(me().attemptId, other.cookie, exam.questions),
      expect: reject(404),
    });
    cases.push({
      endpoint,
      category: "ids",
      label: "unknown attempt id",
      request: request(fakeUuid(random), me().cookie, exam.questions),
      expect: reject(404),
    });
    cases.push({
      endpoint,
      category: "ids",
      label: "the exam's id as an attempt id",
      request: request(exam.id, me().cookie, exam.questions),
      expect: reject(404),
    });
    for (const id of junkIds) {
      cases.push({
        endpoint,
        category: "path-params",
        label: `attempt id ${JSON.stringify(id.slice(0, 40))}`,
        request: request(id, me().cookie, exam.questions),
        expect: REJECT,
      });
    }
  }

  // Starting an attempt.
  const start = (examId: string, cookie: string): RawRequest => post(`/api/exams/${examId}/attempts`, { cookie });
  const startEndpoint = "POST /api/exams/{examId}/attempts";
  cases.push({
    endpoint: startEndpoint,
    category: "ids",
    label: "another exam's id",
    request: start(otherExam.id, me().cookie),
    expect: reject(404),
  });
  cases.push({
    endpoint: startEndpoint,
    category: "ids",
    label: "unknown exam id",
    request: start(fakeUuid(random), me().cookie),
    expect: reject(404),
  });
  cases.push({
    endpoint: startEndpoint,
    category: "ids",
    label: "an attempt id as the exam id",
    request: start(me().attemptId, me().cookie),
    expect: reject(404),
  });
  cases.push({
    endpoint: startEndpoint,
    category: "ids",
    label: "a draft exam (not published)",
    request: start(fixture.draftExam.id, fixture.draftCookie),
    expect: reject(409),
  });
  for (const id of junkIds)
    cases.push({
      endpoint: startEndpoint,
      category: "path-params",
      label: `exam id ${JSON.stringify(id.slice(0, 40))}`,
      request: start(id, me().cookie),
      expect: REJECT,
    });

  // Enrolling into an exam that does not exist, with a valid roster.
  const roster = JSON.stringify({ candidates: [{ name: "Nobody", email: "nobody@holdfast.test" }] });
  const enroll = (examId: string): RawRequest =>
    post(
      `/api/admin/exams/${examId}/candidates`,
      { ...JSON_TYPE, authorization: `Bearer ${fixture.adminToken}` },
      roster,
    );
  const enrollEndpoint = "POST /api/admin/exams/{examId}/candidates";
  cases.push({
    endpoint: enrollEndpoint,
    category: "ids",
    label: "unknown exam id",
    request: enroll(fakeUuid(random)),
    expect: reject(404),
  });
  cases.push({
    endpoint: enrollEndpoint,
    category: "ids",
    label: "an attempt id as the exam id",
    request: enroll(me().attemptId),
    expect: reject(404),
  });
  for (const id of junkIds)
    cases.push({
      endpoint: enrollEndpoint,
      category: "path-params",
      label: `exam id ${JSON.stringify(id.slice(0, 40))}`,
      request: enroll(id),
      expect: REJECT,
    });
  return cases;
}

/** Missing, forged, expired and wrong-role credentials, each on a request otherwise valid. */
