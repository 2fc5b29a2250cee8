import { randomUUID } from "node:crypto";

import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";

import { PUT as gradeRoute } from "@/app/api/admin/exams/[examId]/grading/[questionId]/[attemptId]/route";
import { GET as examRoute, PATCH as patchExamRoute } from "@/app/api/admin/exams/[examId]/route";
import { db } from "@/lib/server/db/client";
import { API_ROUTE_MODULES } from "@/app/api/route-modules";
import { openApiDocument, type JsonSchema } from "@/lib/server/openapi/build-document";
import type { StaffAttemptResult } from "@/lib/shared/schemas/results";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken, createStaff, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoreNow } from "@/test-support/server/results";

import { GET } from "./route";

const read = (attemptId: string, auth: { cookie?: string; bearer?: string } = { bearer: adminToken() }) =>
  call<StaffAttemptResult>(GET, { params: { attemptId }, ...auth });

/** The sample exam: single (1 pt, key b), multiple (2), short text (1), essay (5), numeric (1, key 6). */
async function submitted(values: { single?: string; numeric?: number; essay?: string }): Promise<StartedAttempt> {
  const attempt = await startedAttempt();
  const q = (type: string) => attempt.questions.find((question) => question.type === type)!.id;
  const answers = [
    ...(values.single ? [{ questionId: q("single_choice"), value: values.single, version: 1 }] : []),
    ...(values.numeric !== undefined ? [{ questionId: q("numeric"), value: values.numeric, version: 1 }] : []),
    ...(values.essay ? [{ questionId: q("essay"), value: values.essay, version: 1 }] : []),
  ];
  expect((await autosave(attempt, { deviceId: "laptop", answers })).status).toBe(200);
  expect((await submit(attempt, { deviceId: "laptop" }, randomUUID())).status).toBe(200);
  await scoreNow(attempt.attemptId);
  return attempt;
}

/** The response body as the OpenAPI document describes it (ajv errors, [] when it matches). */
function undocumented(body: unknown): unknown[] {
  const document = openApiDocument(API_ROUTE_MODULES);
  const schema =
    document.paths["/api/admin/attempts/{attemptId}/result"]?.get?.responses["200"]?.content?.["application/json"]
      ?.schema;
  expect(schema).toBeDefined();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema as JsonSchema);
  validate(body);
  return validate.errors ?? [];
}

describe("GET /api/admin/attempts/{attemptId}/result", () => {
  it("a key correction makes a new version naming the corrector and the reason; the earlier one stays readable", async () => {
    const attempt = await submitted({ single: "a", numeric: 6 });
    const first = await read(attempt.attemptId);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: "submitted", isUpToDate: true, resultsDetail: "per_question" });
    expect(first.body.candidate.email).toMatch(/@/);
    expect(first.body.current).toMatchObject({
      version: 1,
      cause: "submitted",
      by: "Holdfast",
      score: 1,
      maxScore: 10,
    });
    expect(first.body.versions).toHaveLength(1);
    const single = attempt.questions.find((question) => question.type === "single_choice")!;
    expect(first.body.current!.questions.find((q) => q.questionId === single.id)).toMatchObject({
      position: single.position,
      points: 0,
      maxPoints: 1,
      source: "auto",
      reason: "incorrect",
    });
    // In the exam's order, every question.
    expect(first.body.current!.questions.map((q) => q.position)).toEqual([1, 2, 3, 4, 5]);

    // An admin corrects the key through the editor's PATCH: the paper is queued and scored again.
    const admin = await createStaff("admin");
    const cookie = await signIn(admin.email, admin.password);
    const exam = (await call(examRoute, { params: { examId: attempt.examId }, bearer: adminToken() })).body;
    const questions = exam.questions.map((question: Record<string, unknown>) => {
      const { position, tolerance, scoring, exactMatch, ungraded, options, answerKey, ...rest } = question;
      void position;
      const isChoice = rest.type === "single_choice" || rest.type === "multiple_choice";
      return {
        ...rest,
        ...(isChoice ? { options, ungraded } : {}),
        ...(answerKey === null ? {} : { answerKey: rest.id === single.id ? "a" : answerKey }),
        ...(tolerance === null ? {} : { tolerance }),
        ...(scoring === null ? {} : { scoring }),
        ...(rest.type === "short_text" ? { exactMatch } : {}),
      };
    });
    const corrected = await call(patchExamRoute, {
      method: "PATCH",
      params: { examId: attempt.examId },
      json: { revision: exam.revision, questions },
      cookie,
    });
    expect(corrected.status).toBe(200);
    await scoreNow(attempt.attemptId);

    const after = await read(attempt.attemptId);
    expect(after.status).toBe(200);
    expect(after.body.versions.map((v) => [v.version, v.cause, v.score, v.actorType])).toEqual([
      [2, "regraded", 2, "staff"],
      [1, "submitted", 1, "system"],
    ]);
    const [newest, earlier] = after.body.versions;
    expect(newest!.by).toContain(admin.email);
    expect(newest!.reason).toBe(`corrected: Q${single.position} answerKey`);
    expect(after.body.current).toEqual(newest);
    // The earlier version reads exactly as it did before the correction.
    expect(earlier).toEqual(first.body.current);
    expect(earlier!.questions.find((q) => q.questionId === single.id)!.points).toBe(0);
    expect(newest!.questions.find((q) => q.questionId === single.id)).toMatchObject({ points: 1, reason: "correct" });
  });

  it("shows who marked a question and their comment; a pending essay has no points", async () => {
    const attempt = await submitted({ essay: "Slow start, then avoidance." });
    const essay = attempt.questions.find((question) => question.type === "essay")!;
    const before = await read(attempt.attemptId);
    expect(before.body.current!.pending).toBe(1);
    expect(before.body.current!.questions.find((q) => q.questionId === essay.id)).toMatchObject({
      points: null,
      source: "pending",
    });

    const grader = await createStaff("admin");
    const cookie = await signIn(grader.email, grader.password);
    const marked = await call(gradeRoute, {
      method: "PUT",
      params: { examId: attempt.examId, questionId: essay.id, attemptId: attempt.attemptId },
      json: { marker: "first", points: 4, comment: "Good; name the window.", revision: 0 },
      cookie,
    });
    expect(marked.status).toBe(200);

    const after = await read(attempt.attemptId);
    expect(after.body.current).toMatchObject({ version: 2, cause: "graded", pending: 0, score: 4 });
    expect(after.body.current!.by).toContain(grader.email);
    expect(after.body.current!.questions.find((q) => q.questionId === essay.id)).toMatchObject({
      points: 4,
      source: "grader",
    });
    const decision = after.body.decisions.find((d) => d.questionId === essay.id)!;
    expect(decision.marks).toHaveLength(1);
    expect(decision.marks[0]).toMatchObject({ marker: "first", points: 4, comment: "Good; name the window." });
    expect(decision.marks[0]!.by).toContain(grader.email);
    expect(after.body.versions.map((v) => v.version)).toEqual([2, 1]);
    expect(undocumented(after.body)).toEqual([]);
  });

  it("an attempt not submitted has no result; unknown ids are 404; proctors and candidates are refused", async () => {
    const open = await startedAttempt();
    const response = await read(open.attemptId);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: "in_progress", current: null, versions: [], isUpToDate: false });
    expect(undocumented(response.body)).toEqual([]);

    expect((await read(randomUUID())).status).toBe(404);
    expect((await read("not-a-uuid")).status).toBe(404);

    const proctor = await createStaff("proctor");
    const proctorCookie = await signIn(proctor.email, proctor.password);
    expect((await read(open.attemptId, { cookie: proctorCookie })).status).toBe(403);
    expect([401, 403]).toContain((await read(open.attemptId, { cookie: open.cookie })).status);
    expect(await db.resultVersion.count({ where: { attemptId: open.attemptId } })).toBe(0);
  });
});
