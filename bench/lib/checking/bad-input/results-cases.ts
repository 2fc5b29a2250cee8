// The results endpoints (issue 15): marks, late-answer decisions, the receipt verifier, graders, release and
// regrade, statistics and exports. Bad bodies, foreign credentials and bad ids; none may change anything.

import { JSON_TYPE, post, REJECT, reject } from "./requests";
import { type BadCase, fakeToken, fakeUuid, type Fixture, type Random } from "./types";

type Target = { endpoint: string; method: string; path: string; body?: string };

/** Every results endpoint, with a body each would take where one is needed (sent only with bad credentials). */
function targets(fixture: Fixture, random: Random): Target[] {
  const exam = fixture.exam.id;
  const question = (fixture.exam.questions.find((q) => q.type === "essay") ?? fixture.exam.questions[0]!).id;
  const paper = fixture.submitted.attemptId;
  return [
    {
      endpoint: "PUT /api/admin/exams/{examId}/grading/{questionId}/{attemptId}",
      method: "PUT",
      path: `/api/admin/exams/${exam}/grading/${question}/${paper}`,
      body: '{"marker":"first","points":1,"comment":"bench","revision":0}',
    },
    { endpoint: "GET /api/admin/exams/{examId}/grading", method: "GET", path: `/api/admin/exams/${exam}/grading` },
    {
      endpoint: "GET /api/admin/exams/{examId}/grading/{questionId}",
      method: "GET",
      path: `/api/admin/exams/${exam}/grading/${question}?marker=first`,
    },
    {
      endpoint: "POST /api/admin/exams/{examId}/late-answers/{lateAnswerId}/decision",
      method: "POST",
      path: `/api/admin/exams/${exam}/late-answers/${fakeUuid(random)}/decision`,
      body: '{"decision":"accepted","reason":""}',
    },
    {
      endpoint: "POST /api/admin/receipts/verify",
      method: "POST",
      path: "/api/admin/receipts/verify",
      body: `{"attemptId":"${paper}","submittedAt":"2026-01-01T00:00:00.000Z","digest":"${"0".repeat(64)}","receipt":"x"}`,
    },
    {
      endpoint: "POST /api/admin/exams/{examId}/results/release",
      method: "POST",
      path: `/api/admin/exams/${exam}/results/release`,
    },
    {
      endpoint: "POST /api/admin/exams/{examId}/results/regrade",
      method: "POST",
      path: `/api/admin/exams/${exam}/results/regrade`,
    },
    {
      endpoint: "GET /api/admin/exams/{examId}/statistics",
      method: "GET",
      path: `/api/admin/exams/${exam}/statistics`,
    },
    {
      endpoint: "GET /api/admin/exams/{examId}/results.csv",
      method: "GET",
      path: `/api/admin/exams/${exam}/results.csv`,
    },
    {
      endpoint: "GET /api/admin/exams/{examId}/answers.csv",
      method: "GET",
      path: `/api/admin/exams/${exam}/answers.csv`,
    },
    {
      endpoint: "GET /api/admin/exams/{examId}/results.json",
      method: "GET",
      path: `/api/admin/exams/${exam}/results.json`,
    },
    {
      endpoint: "PUT /api/admin/exams/{examId}/graders/{staffId}",
      method: "PUT",
      path: `/api/admin/exams/${exam}/graders/${fakeUuid(random)}`,
    },
  ];
}

function request(target: Target, headers: Record<string, string>, body = target.body) {
  return {
    method: target.method,
    path: target.path,
    headers: body === undefined ? headers : { ...headers, ...JSON_TYPE },
    body: body === undefined ? undefined : Buffer.from(body, "utf8"),
  };
}

export function resultsCases(fixture: Fixture, random: Random): BadCase[] {
  const cases: BadCase[] = [];
  const admin = { authorization: `Bearer ${fixture.adminToken}` };
  for (const target of targets(fixture, random)) {
    // Nobody, a candidate, a forged token, and a proctor (not an admin, not a grader of the exam).
    const credentials: [string, Record<string, string>, number[]][] = [
      ["no credentials", {}, [401]],
      ["candidate cookie", { cookie: random.pick(fixture.open).cookie }, [401]],
      ["forged bearer token", { authorization: `Bearer ${fakeToken(random)}` }, [401]],
      ["a proctor", { cookie: fixture.proctorCookie }, [403]],
    ];
    for (const [label, headers, statuses] of credentials) {
      cases.push({
        endpoint: target.endpoint,
        category: "auth",
        label,
        request: request(target, headers),
        expect: reject(...statuses),
      });
    }
    // (The verifier's path names nothing.)
    for (const id of /[0-9a-f-]{36}/.test(target.path) ? ["not-a-uuid", "%00", fakeUuid(random)] : []) {
      const bad = { ...target, path: target.path.replace(/[0-9a-f-]{36}/, id) };
      cases.push({
        endpoint: target.endpoint,
        category: "path-params",
        label: `id ${id}`,
        request: request(bad, admin),
        expect: reject(400, 404, 422),
      });
    }
  }

  // A mark: every field wrong in turn (points negative, over the question's, too precise, not a number; a
  // marker that does not exist; a revision below 0 or a fraction; a comment that cannot be stored).
  const [grade, , , decision, verify] = targets(fixture, random);
  const markBodies = [
    '{"marker":"first","points":-1,"revision":0}',
    '{"marker":"first","points":1000000,"revision":0}',
    '{"marker":"first","points":0.00001,"revision":0}',
    '{"marker":"first","points":"1","revision":0}',
    '{"marker":"first","points":1e309,"revision":0}',
    '{"marker":"third","points":1,"revision":0}',
    '{"marker":"first","points":1,"revision":-1}',
    '{"marker":"first","points":1,"revision":0.5}',
    '{"marker":"first","points":1}',
    '{"marker":"first","points":1,"revision":0,"comment":"\\u0000"}',
    '{"marker":"first","points":1,"revision":0,"comment":7}',
    "[]",
    "{",
  ];
  for (const body of markBodies) {
    cases.push({
      endpoint: grade!.endpoint,
      category: "field-type",
      label: `body ${body}`,
      request: request(grade!, admin, body),
      expect: REJECT,
    });
  }
  // A mark for a paper that is not submitted (in progress): no such paper to mark.
  const inProgress = {
    ...grade!,
    path: grade!.path.replace(fixture.submitted.attemptId, random.pick(fixture.open).attemptId),
  };
  cases.push({
    endpoint: grade!.endpoint,
    category: "ids",
    label: "an attempt still in progress",
    request: request(inProgress, admin, '{"marker":"first","points":0,"revision":0}'),
    expect: reject(404),
  });

  for (const body of [
    '{"decision":"maybe"}',
    '{"decision":"rejected"}',
    '{"decision":"rejected","reason":"   "}',
    '{"decision":"accepted","reason":5}',
    '{"decision":"accepted","reason":"\\u0000"}',
    "{}",
    "[]",
  ]) {
    cases.push({
      endpoint: decision!.endpoint,
      category: "field-type",
      label: `body ${body}`,
      request: request(decision!, admin, body),
      expect: REJECT,
    });
  }
  // A well-formed decision on a late answer that does not exist.
  cases.push({
    endpoint: decision!.endpoint,
    category: "ids",
    label: "unknown late answer",
    request: request(decision!, admin),
    expect: reject(404),
  });

  for (const body of ['{"attemptId":"x"}', "{}", "[]", '"receipt"', "{", '{"attemptId":5,"receipt":[]}']) {
    cases.push({
      endpoint: verify!.endpoint,
      category: "field-type",
      label: `body ${body}`,
      request: post(verify!.path, { ...admin, ...JSON_TYPE }, body),
      expect: REJECT,
    });
  }
  return cases;
}
