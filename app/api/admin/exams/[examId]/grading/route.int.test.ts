import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { db } from "@/lib/server/db/client";
import { GradingDisagreementsSchema, GradingOverviewSchema } from "@/lib/shared/schemas/responses/grading";
import { autosave, submit } from "@/test-support/server/attempts";
import { adminToken, createExam, enroll, join } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { PUT as saveRoute } from "./[questionId]/[attemptId]/route";
import { GET as disagreementsRoute } from "./disagreements/route";
import { GET } from "./route";

const questions = [
  {
    type: "single_choice",
    prompt: "Which layer routes packets?",
    options: [
      { id: "a", label: "Network" },
      { id: "b", label: "Link" },
    ],
    answerKey: "a",
    points: 1,
  },
  { type: "short_text", prompt: "Name the loopback address.", answerKey: ["127.0.0.1"], points: 1 },
  { type: "essay", prompt: `Explain congestion control. ${"Slow start, then avoidance. ".repeat(10)}`, points: 5 },
];

type Paper = { attemptId: string; cookie: string };

/** An exam with `answers.length` candidates who each answer and submit, plus one who starts and never submits. */
async function examWithPapers(answers: { short?: string; essay?: string; choice?: string }[]) {
  const exam = await createExam({ questions });
  const [choiceId, shortId, essayId] = exam.questions.map((question) => question.id) as [string, string, string];
  const candidates = await enroll(exam.id, answers.length + 1);
  const papers: Paper[] = [];
  for (const [index, candidate] of candidates.entries()) {
    const cookie = await join(candidate.joinToken);
    const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
    expect(started.status).toBe(201);
    const paper = { attemptId: started.body.attemptId as string, cookie };
    const wanted = answers[index];
    if (!wanted) continue; // the last one never submits
    const values = [
      [choiceId, wanted.choice],
      [shortId, wanted.short],
      [essayId, wanted.essay],
    ].filter((entry): entry is [string, string] => entry[1] !== undefined);
    if (values.length > 0) {
      const body = {
        deviceId: "laptop",
        answers: values.map(([questionId, value]) => ({ questionId, value, version: 1 })),
      };
      expect((await autosave(paper, body)).status).toBe(200);
    }
    expect((await submit(paper, { deviceId: "laptop" }, randomUUID())).status).toBe(200);
    papers.push(paper);
  }
  return { examId: exam.id, choiceId, shortId, essayId, papers };
}

const overview = (examId: string) =>
  call(GET, { path: `/api/admin/exams/${examId}/grading`, params: { examId }, bearer: adminToken() });

const disagreements = (examId: string) =>
  call(disagreementsRoute, {
    path: `/api/admin/exams/${examId}/grading/disagreements`,
    params: { examId },
    bearer: adminToken(),
  });

const mark = (examId: string, questionId: string, attemptId: string, marker: string, points: number, revision = 0) =>
  call(saveRoute, {
    method: "PUT",
    params: { examId, questionId, attemptId },
    bearer: adminToken(),
    json: { marker, points, comment: `${marker} says ${points}`, revision },
  });

describe("GET /api/admin/exams/{examId}/grading", () => {
  it("counts, per question, the papers the rules leave to a person and what still waits", async () => {
    const exam = await examWithPapers([
      { essay: "Windows halve on loss.", short: "localhost", choice: "a" },
      { essay: "   \n ", short: " 127.0.0.1 ", choice: "b" },
      { essay: "AIMD.", choice: "a" },
    ]);
    const before = await overview(exam.examId);
    expect(before.status).toBe(200);
    expect(before.headers.get("cache-control")).toBe("no-store");
    expect(before.body).toMatchObject({ examId: exam.examId, secondMarking: false, released: false });
    const [choice, short, essay] = before.body.questions;
    expect(before.body.questions.map((q: { position: number }) => q.position)).toEqual([1, 2, 3]);
    // Three submitted papers (the fourth candidate never submitted).
    expect(choice).toMatchObject({ id: exam.choiceId, type: "single_choice", submitted: 3, needsPerson: 0 });
    expect(choice.waiting).toEqual({ first: 0, second: null });
    // "localhost" matches no accepted answer; " 127.0.0.1 " does; a blank one is 0 without a person.
    expect(short).toMatchObject({ id: exam.shortId, needsPerson: 1, waiting: { first: 1, second: null } });
    // The white-space essay is blank: two essays wait, not three.
    expect(essay).toMatchObject({ id: exam.essayId, points: 5, needsPerson: 2, waiting: { first: 2, second: null } });
    expect(essay.prompt.length).toBeLessThanOrEqual(120);
    expect(essay.prompt.endsWith("…")).toBe(true);
    expect(GradingOverviewSchema.safeParse(before.body).error).toBeUndefined(); // as the OpenAPI document says

    expect((await mark(exam.examId, exam.essayId, exam.papers[0]!.attemptId, "first", 4)).status).toBe(200);
    const after = await overview(exam.examId);
    expect(after.body.questions[2]).toMatchObject({ needsPerson: 2, waiting: { first: 1, second: null } });
    expect(after.body.questions[1].waiting.first).toBe(1);
    expect((await disagreements(exam.examId)).body).toMatchObject({ secondMarking: false, items: [] });
  });

  it("double marking: waits per marker, and a disagreement is listed with both marks until a final mark settles it", async () => {
    const exam = await examWithPapers([{ essay: "Windows halve on loss." }, { essay: "AIMD." }]);
    await db.exam.update({ where: { id: exam.examId }, data: { secondMarking: true } });
    const [one, two] = exam.papers as [Paper, Paper];

    expect((await mark(exam.examId, exam.essayId, one.attemptId, "first", 2)).status).toBe(200);
    expect((await mark(exam.examId, exam.essayId, one.attemptId, "second", 4)).status).toBe(200);
    expect((await mark(exam.examId, exam.essayId, two.attemptId, "first", 3)).status).toBe(200);
    expect((await mark(exam.examId, exam.essayId, two.attemptId, "second", 3)).status).toBe(200);
    let essay = (await overview(exam.examId)).body.questions[2];
    expect(essay).toMatchObject({ needsPerson: 2, waiting: { first: 0, second: 0 }, disagreements: 1 });

    const listed = await disagreements(exam.examId);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ examId: exam.examId, secondMarking: true, released: false });
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.items[0]).toMatchObject({
      questionId: exam.essayId,
      position: 3,
      prompt: expect.stringMatching(/^Explain congestion control\. .*…$/),
      points: 5,
      attemptId: one.attemptId,
      candidateName: null,
      first: { points: 2, comment: "first says 2", by: "API token", revision: 1 },
      second: { points: 4, comment: "second says 4", by: "API token", revision: 1 },
    });
    expect(listed.body.items[0].candidateCode).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(JSON.stringify(listed.body)).not.toContain("Candidate ");
    expect(GradingDisagreementsSchema.safeParse(listed.body).error).toBeUndefined();
    expect(GradingOverviewSchema.safeParse((await overview(exam.examId)).body).error).toBeUndefined();

    expect((await mark(exam.examId, exam.essayId, one.attemptId, "final", 3)).status).toBe(200);
    essay = (await overview(exam.examId)).body.questions[2];
    expect(essay.disagreements).toBe(0);
    expect((await disagreements(exam.examId)).body.items).toEqual([]);

    // After release the names are shown.
    expect((await mark(exam.examId, exam.essayId, two.attemptId, "second", 1, 1)).status).toBe(200);
    await db.exam.update({ where: { id: exam.examId }, data: { resultsReleasedAt: new Date() } });
    const released = await disagreements(exam.examId);
    expect(released.body.released).toBe(true);
    expect(released.body.items).toHaveLength(1);
    expect(released.body.items[0].candidateName).toMatch(/^Candidate \d$/);
  });

  it("an unknown exam or a malformed id is 404, for both; no session is 401", async () => {
    for (const route of [overview, disagreements]) {
      expect((await route(randomUUID())).status).toBe(404);
      expect((await route("not-a-uuid")).status).toBe(404); // a malformed id names no exam
    }
    const anonymous = await call(GET, { path: "/api/admin/exams/x/grading", params: { examId: randomUUID() } });
    expect(anonymous.status).toBe(401);
  });
});
