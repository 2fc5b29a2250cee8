import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { POST as createRoute } from "@/app/api/admin/exams/route";
import { GET as attemptRoute } from "@/app/api/attempts/[attemptId]/route";
import { db } from "@/lib/server/db/client";
import { autosave, startedAttempt, submit } from "@/test-support/server/attempts";
import { adminToken, createExam } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoreNow } from "@/test-support/server/results";
import { sampleQuestions } from "@/test-support/shared/sample-exam";

import { POST as duplicateRoute } from "./duplicate/route";
import { GET as editsRoute } from "./edits/route";
import { PUT as gradeRoute } from "./grading/[questionId]/[attemptId]/route";
import { GET as getRoute, PATCH as patchRoute } from "./route";

type Question = { id: string; type: string; rubric: string } & Record<string, unknown>;
type Exam = { id: string; revision: number; resultsDetail: string; secondMarking: boolean; questions: Question[] };

const read = async (examId: string) => (await call<Exam>(getRoute, { params: { examId }, bearer: adminToken() })).body;
const patch = (examId: string, json: unknown) =>
  call(patchRoute, { method: "PATCH", params: { examId }, json, bearer: adminToken() });
const create = (json: Record<string, unknown>) =>
  call(createRoute, {
    path: "/api/admin/exams",
    bearer: adminToken(),
    json: { title: "Results settings", durationSeconds: 3600, ...json },
  });

/** The exam's questions as a PATCH sends them back, ids kept, with `change` applied to each. */
function asInputs(exam: Exam, change: (question: Question, index: number) => Record<string, unknown> = () => ({})) {
  return exam.questions.map((question, index) => {
    const { position, options, answerKey, tolerance, scoring, exactMatch, ungraded, ...rest } = question;
    void position;
    const isChoice = rest.type === "single_choice" || rest.type === "multiple_choice";
    return {
      ...rest,
      ...(isChoice ? { options, ungraded } : {}),
      ...(answerKey === null ? {} : { answerKey }),
      ...(tolerance === null || tolerance === undefined ? {} : { tolerance }),
      ...(scoring === null || scoring === undefined ? {} : { scoring }),
      ...(rest.type === "short_text" ? { exactMatch } : {}),
      ...change(question, index),
    };
  });
}

describe("exam settings for results: rubric, resultsDetail, secondMarking", () => {
  it("defaults, stores and reads back the new fields; a duplicate copies them", async () => {
    const plain = await create({ questions: [{ type: "essay", prompt: "Why?" }] });
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ resultsDetail: "per_question", secondMarking: false });
    expect(plain.body.questions[0].rubric).toBe("");

    const rubric = "Full marks: names slow start and congestion avoidance.\n满分：两者都提到。";
    const made = await create({
      resultsDetail: "total",
      secondMarking: true,
      questions: [{ type: "essay", prompt: "Explain congestion control.", points: 5, rubric }],
    });
    expect(made.status).toBe(201);
    const exam = await read(made.body.id);
    expect(exam).toMatchObject({ resultsDetail: "total", secondMarking: true });
    expect(exam.questions[0]!.rubric).toBe(rubric);
    const row = await db.exam.findUniqueOrThrow({ where: { id: exam.id } });
    expect([row.resultsDetail, row.secondMarking]).toEqual(["total", true]);

    const copy = await call(duplicateRoute, { params: { examId: exam.id }, bearer: adminToken(), json: {} });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ resultsDetail: "total", secondMarking: true });
    expect(copy.body.questions[0].rubric).toBe(rubric);

    const changed = await patch(exam.id, {
      revision: exam.revision,
      resultsDetail: "per_question",
      secondMarking: false,
      questions: asInputs(exam, () => ({ rubric: "" })),
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ resultsDetail: "per_question", secondMarking: false });
    expect(changed.body.questions[0].rubric).toBe("");
  });

  it("refuses bad input with 422 naming the field, and writes nothing", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["unknown detail", { resultsDetail: "total_only" }, "resultsDetail"],
      ["detail not a string", { resultsDetail: 1 }, "resultsDetail"],
      ["second marking not a boolean", { secondMarking: "yes" }, "secondMarking"],
      [
        "rubric too long",
        { questions: [{ type: "essay", prompt: "Why?", rubric: "x".repeat(5_001) }] },
        "questions.0.rubric",
      ],
      ["rubric not text", { questions: [{ type: "essay", prompt: "Why?", rubric: 5 }] }, "questions.0.rubric"],
      ["rubric with NUL", { questions: [{ type: "essay", prompt: "Why?", rubric: "a\u0000b" }] }, "questions.0.rubric"],
    ];
    const before = await db.exam.count();
    for (const [name, body, path] of cases) {
      const refused = await create({ questions: [], ...body });
      expect(refused.status, name).toBe(422);
      expect(refused.body.error.code, name).toBe("VALIDATION_FAILED");
      expect(
        refused.body.error.details.issues.map((issue: { path: string }) => issue.path),
        name,
      ).toContain(path);
    }
    expect(await db.exam.count()).toBe(before);

    // A rubric of exactly the limit is fine.
    expect((await create({ questions: [{ type: "essay", prompt: "Why?", rubric: "x".repeat(5_000) }] })).status).toBe(
      201,
    );

    const exam = await read((await createExam({ status: "draft" })).id);
    for (const body of [
      { resultsDetail: "everything" },
      { secondMarking: null },
      { questions: asInputs(exam, () => ({ rubric: "y".repeat(5_001) })) },
    ]) {
      const refused = await patch(exam.id, { revision: exam.revision, ...body });
      expect(refused.status, JSON.stringify(body).slice(0, 60)).toBe(422);
    }
    const after = await read(exam.id);
    expect(after.revision).toBe(exam.revision);
    expect(after.questions.map((q) => q.rubric)).toEqual(exam.questions.map(() => ""));
  });

  it("a rubric change after attempts is recorded as an edit but queues no regrade and makes no result version", async () => {
    const attempt = await startedAttempt();
    const q = (type: string) => attempt.questions.find((question) => question.type === type)!.id;
    await autosave(attempt, {
      deviceId: "laptop",
      answers: [{ questionId: q("single_choice"), value: "a", version: 1 }],
    });
    expect((await submit(attempt, { deviceId: "laptop" }, randomUUID())).status).toBe(200);
    await scoreNow(attempt.attemptId);
    const exam = await read(attempt.examId);

    const edited = await patch(exam.id, {
      revision: exam.revision,
      questions: asInputs(exam, (question) => (question.type === "essay" ? { rubric: "Two causes, 2.5 each." } : {})),
    });
    expect(edited.status).toBe(200);
    expect(edited.body.questions.find((question: Question) => question.type === "essay").rubric).toBe(
      "Two causes, 2.5 each.",
    );
    expect(await db.resultJob.count({ where: { examId: exam.id } })).toBe(0);
    const versions = await db.resultVersion.findMany({ where: { attemptId: attempt.attemptId } });
    expect(versions.map((version) => version.cause)).toEqual(["submitted"]);
    const edits = await call(editsRoute, { params: { examId: exam.id }, bearer: adminToken() });
    expect(edits.body.edits.map((edit: { field: string; after: unknown }) => [edit.field, edit.after])).toEqual([
      ["rubric", "Two causes, 2.5 each."],
    ]);

    // A key correction in the same exam does queue one (the contrast: the rubric alone did not).
    const again = await read(exam.id);
    const corrected = await patch(exam.id, {
      revision: again.revision,
      questions: asInputs(again, (question) => (question.type === "single_choice" ? { answerKey: "a" } : {})),
    });
    expect(corrected.status).toBe(200);
    expect(await db.resultJob.count({ where: { examId: exam.id } })).toBe(1);
  });

  it("double marking can be switched until the first mark, then 409 SECOND_MARKING_LOCKED and nothing changes", async () => {
    const attempt = await startedAttempt();
    const essay = attempt.questions.find((question) => question.type === "essay")!.id;
    expect((await submit(attempt, { deviceId: "laptop" }, randomUUID())).status).toBe(200);
    await scoreNow(attempt.attemptId);

    // Submitted papers but no mark yet: switching is allowed both ways.
    let exam = await read(attempt.examId);
    const on = await patch(exam.id, { revision: exam.revision, secondMarking: true });
    expect(on.status).toBe(200);
    expect(on.body.secondMarking).toBe(true);
    const off = await patch(exam.id, { revision: on.body.revision, secondMarking: false });
    expect(off.status).toBe(200);
    expect(off.body.secondMarking).toBe(false);

    const marked = await call(gradeRoute, {
      method: "PUT",
      params: { examId: exam.id, questionId: essay, attemptId: attempt.attemptId },
      json: { marker: "first", points: 3, comment: "", revision: 0 },
      bearer: adminToken(),
    });
    expect(marked.status).toBe(200);

    exam = await read(attempt.examId);
    const refused = await patch(exam.id, { revision: exam.revision, secondMarking: true, title: "Renamed" });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("SECOND_MARKING_LOCKED");
    const unchanged = await read(exam.id);
    expect(unchanged).toMatchObject({ revision: exam.revision, secondMarking: false });
    expect((await db.exam.findUniqueOrThrow({ where: { id: exam.id } })).title).not.toBe("Renamed");

    // Sending the value it already has is not a change, and other settings still save.
    const same = await patch(exam.id, { revision: exam.revision, secondMarking: false, resultsDetail: "total" });
    expect(same.status).toBe(200);
    expect(same.body.resultsDetail).toBe("total");
  });

  it("a rubric never reaches the candidate", async () => {
    const rubric = "RUBRIC-ONLY-FOR-GRADERS";
    const attempt = await startedAttempt({
      questions: sampleQuestions().map((question) => ({ ...question, rubric })),
    });
    expect((await read(attempt.examId)).questions.every((question) => question.rubric === rubric)).toBe(true);
    const paper = await call(attemptRoute, { params: { attemptId: attempt.attemptId }, cookie: attempt.cookie });
    expect(paper.status).toBe(200);
    expect(paper.text).not.toContain(rubric);
    expect(paper.text).not.toContain('"rubric"');
  });

  it("the sample questions still create unchanged (rubric optional on every type)", async () => {
    const questions = sampleQuestions();
    const made = await create({ questions });
    expect(made.status).toBe(201);
    expect(made.body.questions.map((question: Question) => question.rubric)).toEqual(questions.map(() => ""));
  });
});
