// Methods a route lacks, and the proctor endpoints with foreign credentials, bodies meant for no action and
// bad ids.

import { JSON_TYPE, post, REJECT, reject } from "./requests";
import { type BadCase, fakeToken, fakeUuid, type Fixture, type Random } from "./types";

type MethodTarget = { endpoint: string; path: string; allowed: readonly string[]; headers: Record<string, string> };

/** Methods an endpoint does not have, with good credentials. */
export function methodCases(fixture: Fixture, random: Random): BadCase[] {
  const candidate = random.pick(fixture.open);
  const admin = { authorization: `Bearer ${fixture.adminToken}` };
  const cookie = { cookie: candidate.cookie };
  const targets: MethodTarget[] = [
    { endpoint: "POST /api/admin/exams", path: "/api/admin/exams", allowed: ["POST"], headers: admin },
    {
      endpoint: "POST /api/admin/exams/{examId}/candidates",
      path: `/api/admin/exams/${fixture.exam.id}/candidates`,
      allowed: ["GET", "POST"],
      headers: admin,
    },
    { endpoint: "GET /api/admin/audit", path: "/api/admin/audit", allowed: ["GET"], headers: admin },
    {
      endpoint: "POST /api/admin/exams/{examId}/qti",
      path: `/api/admin/exams/${fixture.exam.id}/qti`,
      allowed: ["GET", "POST"],
      headers: admin,
    },
    {
      endpoint: "POST /api/admin/emergency-exports",
      path: "/api/admin/emergency-exports",
      allowed: ["POST"],
      headers: admin,
    },
    { endpoint: "POST /api/session", path: "/api/session", allowed: ["POST", "DELETE"], headers: {} },
    { endpoint: "POST /api/staff/session", path: "/api/staff/session", allowed: ["POST", "DELETE"], headers: {} },
    {
      endpoint: "POST /api/exams/{examId}/attempts",
      path: `/api/exams/${fixture.exam.id}/attempts`,
      allowed: ["POST"],
      headers: cookie,
    },
    {
      endpoint: "GET /api/attempts/{attemptId}",
      path: `/api/attempts/${candidate.attemptId}`,
      allowed: ["GET"],
      headers: cookie,
    },
    {
      endpoint: "GET /api/attempts/{attemptId}/export-key",
      path: `/api/attempts/${candidate.attemptId}/export-key`,
      allowed: ["GET"],
      headers: cookie,
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/answers",
      path: `/api/attempts/${candidate.attemptId}/answers`,
      allowed: ["POST"],
      headers: cookie,
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/submit",
      path: `/api/attempts/${candidate.attemptId}/submit`,
      allowed: ["POST"],
      headers: cookie,
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/heartbeat",
      path: `/api/attempts/${candidate.attemptId}/heartbeat`,
      allowed: ["POST"],
      headers: cookie,
    },
    { endpoint: "GET /api/health", path: "/api/health", allowed: ["GET"], headers: {} },
    {
      endpoint: "GET /api/metrics",
      path: "/api/metrics",
      allowed: ["GET"],
      headers: { authorization: `Bearer ${fixture.metricsToken}` },
    },
  ];
  const cases: BadCase[] = [];
  for (const target of targets) {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      if (target.allowed.includes(method)) continue;
      const hasBody = method !== "GET";
      cases.push({
        endpoint: target.endpoint,
        category: "method",
        label: `${method} ${target.path.replace(/[0-9a-f-]{36}/g, "{id}")}`,
        request: {
          method,
          path: target.path,
          headers: hasBody ? { ...target.headers, ...JSON_TYPE } : target.headers,
          body: hasBody ? Buffer.from("{}") : undefined,
        },
        expect: reject(405),
      });
    }
  }
  return cases;
}

/** The proctor endpoints of the contract: foreign credentials, bodies meant for no action, and bad ids. */
export function proctorCases(fixture: Fixture, random: Random): BadCase[] {
  const cases: BadCase[] = [];
  const attempt = random.pick(fixture.open).attemptId;
  const endpoints: [string, string, string][] = [
    ["GET /api/proctor/exams/{examId}/candidates", "GET", `/api/proctor/exams/${fixture.exam.id}/candidates`],
    ["GET /api/proctor/exams/{examId}/events", "GET", `/api/proctor/exams/${fixture.exam.id}/events`],
    ["POST /api/proctor/attempts/{attemptId}/extend", "POST", `/api/proctor/attempts/${attempt}/extend`],
    ["POST /api/proctor/attempts/{attemptId}/force-submit", "POST", `/api/proctor/attempts/${attempt}/force-submit`],
  ];
  const extendBodies = [
    '{"seconds":-60,"reason":"x"}',
    '{"seconds":"60"}',
    '{"seconds":1e309,"reason":"x"}',
    "{",
    "[]",
    '{"seconds":60,"reason":"\\u0000"}',
  ];
  for (const [endpoint, method, path] of endpoints) {
    const credentials: [string, Record<string, string>, number[]][] = [
      ["no credentials", {}, [401, 404]],
      ["candidate cookie", { cookie: random.pick(fixture.open).cookie }, [401, 404]],
      ["forged bearer token", { authorization: `Bearer ${fakeToken(random)}` }, [401, 404]],
      ["a proctor of another exam", { cookie: fixture.proctorCookie }, [404]],
    ];
    for (const [label, headers, statuses] of credentials) {
      const body = method === "POST" ? Buffer.from('{"seconds":600,"reason":"bench"}') : undefined;
      cases.push({
        endpoint,
        category: "auth",
        label,
        request: { method, path, headers: body ? { ...headers, ...JSON_TYPE } : headers, body },
        expect: reject(...statuses),
      });
    }
    if (method === "POST") {
      for (const text of extendBodies) {
        cases.push({
          endpoint,
          category: "field-type",
          label: `body ${text}`,
          request: post(path, { ...JSON_TYPE, authorization: `Bearer ${fixture.adminToken}` }, text),
          expect: REJECT,
        });
      }
    }
    for (const id of ["not-a-uuid", "%00", fakeUuid(random)]) {
      const bad = path.replace(/[0-9a-f-]{36}/, id);
      cases.push({
        endpoint,
        category: "path-params",
        label: `id ${id}`,
        request: { method, path: bad, headers: { authorization: `Bearer ${fixture.adminToken}` } },
        expect: reject(400, 404, 422),
      });
    }
  }
  return cases;
}

/** Junk that the contract lets through without an error; it must change nothing. */
