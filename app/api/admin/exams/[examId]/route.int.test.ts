import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { startedAttempt } from "@/test-support/server/attempts";
import { adminToken, createExam, createStaff, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { POST as duplicateRoute } from "./duplicate/route";
import { GET as editsRoute } from "./edits/route";
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from "./route";

type AnyExam = {
  id: string;
  revision: number;
  title: string;
  status: string;
  attemptCount: number;
  questions: {
    id: string;
    type: string;
    prompt: string;
    options: { id: string; label: string }[];
    answerKey: unknown;
  }[];
};

const read = (examId: string) => call<AnyExam>(getRoute, { params: { examId }, bearer: adminToken() });
const patch = (examId: string, json: unknown, cookie?: string) =>
  call(patchRoute, { method: "PATCH", params: { examId }, json, ...(cookie ? { cookie } : { bearer: adminToken() }) });

/** The question inputs that put an exam's current questions back unchanged (ids kept). */
function asInputs(exam: AnyExam) {
  return exam.questions.map((question) => {
    const { position, options, answerKey, tolerance, scoring, exactMatch, ungraded, ...rest } =
      question as AnyExam["questions"][number] & Record<string, unknown>;
    void position;
    const isChoice = rest.type === "single_choice" || rest.type === "multiple_choice";
    return {
      ...rest,
      ...(isChoice ? { options, ungraded } : {}),
      ...(answerKey === null ? {} : { answerKey }),
      ...(tolerance === null || tolerance === undefined ? {} : { tolerance }),
      ...(scoring === null || scoring === undefined ? {} : { scoring }),
      ...(rest.type === "short_text" ? { exactMatch } : {}),
    };
  });
}

describe("GET/PATCH /api/admin/exams/{examId}: revisions", () => {
  it("every response carries the revision, and a PATCH moves it by one", async () => {
    const created = (await createExam({ status: "draft" })) as unknown as AnyExam;
    expect(created.revision).toBe(1);
    const first = await read(created.id);
    expect(first.status).toBe(200);
    expect(first.body.revision).toBe(1);

    const patched = await patch(created.id, { revision: 1, title: "Renamed", lateAnswers: "discard" });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ revision: 2, title: "Renamed", lateAnswers: "discard" });
    expect((await read(created.id)).body.revision).toBe(2);
  });

  it("a PATCH on an older revision is 409 EDIT_CONFLICT with the current exam, and writes nothing", async () => {
    const exam = await createExam({ status: "draft" });
    await patch(exam.id, { revision: 1, title: "Theirs" });
    const stale = await patch(exam.id, { revision: 1, title: "Mine", durationSeconds: 120 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("EDIT_CONFLICT");
    expect(stale.body.error.details.exam).toMatchObject({ revision: 2, title: "Theirs", durationSeconds: 3600 });
    const stored = await db.exam.findUniqueOrThrow({ where: { id: exam.id } });
    expect({ title: stored.title, durationSeconds: stored.durationSeconds, revision: stored.revision }).toEqual({
      title: "Theirs",
      durationSeconds: 3600,
      revision: 2,
    });
  });

  it("two PATCHes racing on the same revision: exactly one wins, the other gets 409 with the winner's exam", async () => {
    for (let round = 0; round < 5; round += 1) {
      const exam = await createExam({ status: "draft" });
      const [a, b] = await Promise.all([
        patch(exam.id, { revision: 1, title: `A ${round}`, durationSeconds: 600 }),
        patch(exam.id, { revision: 1, title: `B ${round}`, graceSeconds: 5 }),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).toEqual([200, 409]);
      const winner = a.status === 200 ? a : b;
      const loser = a.status === 200 ? b : a;
      expect(loser.body.error.code).toBe("EDIT_CONFLICT");
      expect(loser.body.error.details.exam).toEqual(winner.body);
      const stored = await db.exam.findUniqueOrThrow({ where: { id: exam.id } });
      expect(stored.revision).toBe(2);
      expect(stored.title).toBe(winner.body.title);
      // The loser's other field was not written either.
      if (winner === a) expect(stored.graceSeconds).toBe(60);
      else expect(stored.durationSeconds).toBe(3600);
    }
  });

  it("refuses a PATCH without a revision, an unknown exam, a proctor, and another exam's question id", async () => {
    const exam = await createExam({ status: "draft" });
    const other = (await createExam({ status: "draft" })) as unknown as AnyExam;
    const noRevision = await patch(exam.id, { title: "x" });
    expect(noRevision.status).toBe(422);
    expect(noRevision.body.error.details.issues.map((i: { path: string }) => i.path)).toContain("revision");
    expect((await patch("0190f5c0-0000-7000-8000-000000000000", { revision: 1 })).status).toBe(404);
    const proctor = await createStaff("proctor");
    const asProctor = await patch(exam.id, { revision: 1, title: "x" }, await signIn(proctor.email, proctor.password));
    expect(asProctor.status).toBe(403);
    const foreign = await patch(exam.id, {
      revision: 1,
      questions: [{ ...asInputs(other)[0], id: other.questions[0]!.id }],
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.details.issues[0].path).toBe("questions.0.id");
    const badWindow = await patch(exam.id, {
      revision: 1,
      opensAt: "2030-01-02T00:00:00Z",
      closesAt: "2030-01-01T00:00:00Z",
    });
    expect(badWindow.status).toBe(422);
    const stored = await db.exam.findUniqueOrThrow({ where: { id: exam.id } });
    expect(stored.revision).toBe(1);
    expect(stored.opensAt).toBeNull();
  });

  it("replaces, reorders, adds and removes questions of an exam nobody started, keeping ids", async () => {
    const exam = (await createExam({ status: "draft" })) as unknown as AnyExam;
    const inputs = asInputs(exam);
    const next = [
      inputs[4],
      inputs[0],
      { type: "short_text", prompt: "Loopback?", answerKey: [" 127.0.0.1 ", "localhost"], exactMatch: false },
      { ...inputs[1], scoring: "all_or_nothing" },
    ];
    const response = await patch(exam.id, { revision: 1, questions: next });
    expect(response.status).toBe(200);
    const after = response.body as AnyExam & { questions: { scoring: string | null }[] };
    expect(after.questions.map((q) => q.id).slice(0, 2)).toEqual([exam.questions[4]!.id, exam.questions[0]!.id]);
    expect(after.questions[2]!.answerKey).toEqual(["127.0.0.1", "localhost"]);
    expect(after.questions[3]!.scoring).toBe("all_or_nothing");
    expect(await db.question.count({ where: { examId: exam.id } })).toBe(4);
  });
});

describe("lifecycle", () => {
  it("publishing checks the exam and lists every problem as 422, nothing written", async () => {
    const exam = await createExam({
      status: "draft",
      closesAt: "2020-01-01T00:00:00Z",
      questions: [
        {
          type: "single_choice",
          prompt: "No key",
          options: [
            { id: "a", label: "A" },
            { id: "b", label: "B" },
          ],
        },
        { type: "essay", prompt: "Fine" },
      ],
    });
    const refused = await patch(exam.id, { revision: 1, status: "published" });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("PUBLISH_CHECK_FAILED");
    expect(refused.body.error.details.problems).toEqual([
      { code: "CHOICE_WITHOUT_KEY", questionId: exam.questions[0]!.id, position: 1 },
      { code: "WINDOW_ALREADY_CLOSED" },
    ]);
    expect((await db.exam.findUniqueOrThrow({ where: { id: exam.id } })).status).toBe("draft");

    const empty = await createExam({ status: "draft", questions: [] });
    const none = await patch(empty.id, { revision: 1, status: "published" });
    expect(none.body.error.details.problems).toEqual([{ code: "NO_QUESTIONS" }]);

    const fixed = await patch(exam.id, {
      revision: 1,
      status: "published",
      closesAt: null,
      questions: [
        {
          id: exam.questions[0]!.id,
          type: "single_choice",
          prompt: "No key",
          options: [
            { id: "a", label: "A" },
            { id: "b", label: "B" },
          ],
          ungraded: true,
        },
        { id: exam.questions[1]!.id, type: "essay", prompt: "Fine" },
      ],
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({ status: "published", revision: 2, closesAt: null });
  });

  it("walks draft -> published -> closed -> archived and refuses the transitions that are not allowed", async () => {
    const exam = await createExam({ status: "draft" });
    let revision = 1;
    for (const status of ["published", "closed", "archived"]) {
      const moved = await patch(exam.id, { revision, status });
      expect(moved.status).toBe(200);
      revision = moved.body.revision;
    }
    const back = await patch(exam.id, { revision, status: "draft" });
    expect(back.status).toBe(409);
    expect(back.body.error).toMatchObject({
      code: "STATUS_TRANSITION_REFUSED",
      details: { from: "archived", to: "draft", reason: "not_allowed" },
    });
    expect((await read(exam.id)).body).toMatchObject({ status: "archived", revision });
  });

  it("a started exam cannot go back to draft", async () => {
    const attempt = await startedAttempt();
    const back = await patch(attempt.examId, { revision: 1, status: "draft" });
    expect(back.status).toBe(409);
    expect(back.body.error.details.reason).toBe("has_attempts");
  });
});

describe("after the first attempt", () => {
  it("refuses structural changes, records corrections in exam_edits and lists them", async () => {
    const attempt = await startedAttempt();
    const exam = (await read(attempt.examId)).body;
    expect(exam.attemptCount).toBe(1);
    const inputs = asInputs(exam);

    const cases: [string, unknown[], string][] = [
      ["removed", inputs.slice(1), "QUESTION_REMOVED"],
      ["added", [...inputs, { type: "essay", prompt: "More" }], "QUESTION_ADDED"],
      ["reordered", [inputs[1], inputs[0], ...inputs.slice(2)], "QUESTIONS_REORDERED"],
      [
        "type changed",
        [{ ...inputs[0], type: "multiple_choice", answerKey: ["a"] }, ...inputs.slice(1)],
        "TYPE_CHANGED",
      ],
      [
        "option added",
        [{ ...inputs[0], options: [...exam.questions[0]!.options, { id: "z", label: "New" }] }, ...inputs.slice(1)],
        "OPTIONS_CHANGED",
      ],
    ];
    for (const [name, questions, code] of cases) {
      const refused = await patch(exam.id, { revision: exam.revision, questions });
      expect(refused.status, name).toBe(409);
      expect(refused.body.error.code, name).toBe("QUESTIONS_LOCKED");
      expect(
        refused.body.error.details.problems.map((p: { code: string }) => p.code),
        name,
      ).toContain(code);
    }
    expect(await db.question.count({ where: { examId: exam.id } })).toBe(5);
    expect((await read(exam.id)).body.revision).toBe(exam.revision);

    const admin = await createStaff("admin");
    const cookie = await signIn(admin.email, admin.password);
    const corrected = [
      {
        ...inputs[0],
        prompt: "Which OSI layer routes packets between networks?",
        options: [
          { id: "a", label: "Data link" },
          { id: "b", label: "Network layer" },
          { id: "c", label: "Transport" },
        ],
        answerKey: "a",
      },
      ...inputs.slice(1),
    ];
    const ok = await patch(exam.id, { revision: exam.revision, questions: corrected }, cookie);
    expect(ok.status).toBe(200);
    expect(ok.body.questions[0]).toMatchObject({ id: exam.questions[0]!.id, answerKey: "a" });

    const edits = await call(editsRoute, { params: { examId: exam.id }, bearer: adminToken() });
    expect(edits.status).toBe(200);
    const fields = edits.body.edits.map((e: { field: string; before: unknown; after: unknown; actorLabel: string }) => [
      e.field,
      e.before,
      e.after,
    ]);
    expect(fields).toEqual(
      expect.arrayContaining([
        [
          "prompt",
          "Which layer of the OSI model routes packets between networks?",
          "Which OSI layer routes packets between networks?",
        ],
        ["options.b.label", "Network", "Network layer"],
        ["answerKey", "b", "a"],
      ]),
    );
    expect(fields).toHaveLength(3);
    expect(edits.body.edits[0].actorLabel).toContain(admin.email);
    // The candidate's answers are still keyed by the same question ids.
    expect(await db.question.findMany({ where: { examId: exam.id }, select: { id: true } })).toHaveLength(5);
  });
});

describe("DELETE and duplicate", () => {
  it("deletes an exam nobody started, and refuses one with an attempt (nothing deleted)", async () => {
    const exam = await createExam({ status: "draft" });
    const deleted = await call(deleteRoute, { method: "DELETE", params: { examId: exam.id }, bearer: adminToken() });
    expect(deleted.status).toBe(204);
    expect(await db.exam.count({ where: { id: exam.id } })).toBe(0);
    expect((await read(exam.id)).status).toBe(404);

    const attempt = await startedAttempt();
    const refused = await call(deleteRoute, {
      method: "DELETE",
      params: { examId: attempt.examId },
      bearer: adminToken(),
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("EXAM_HAS_ATTEMPTS");
    expect(await db.attempt.count({ where: { examId: attempt.examId } })).toBe(1);
    expect(await db.question.count({ where: { examId: attempt.examId } })).toBe(5);
  });

  it("duplicates an exam as a new draft with the same questions and keys, no candidates", async () => {
    const attempt = await startedAttempt();
    const source = (await read(attempt.examId)).body;
    const copy = await call(duplicateRoute, {
      params: { examId: source.id },
      bearer: adminToken(),
      json: { title: "Copy of it" },
    });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ title: "Copy of it", status: "draft", revision: 1, attemptCount: 0 });
    expect(copy.body.id).not.toBe(source.id);
    const strip = (q: Record<string, unknown>) => ({ ...q, id: undefined });
    expect(copy.body.questions.map(strip)).toEqual(source.questions.map(strip));
    expect(await db.enrollment.count({ where: { examId: copy.body.id } })).toBe(0);

    const untitled = await call(duplicateRoute, {
      params: { examId: source.id },
      bearer: adminToken(),
      method: "POST",
    });
    expect(untitled.status).toBe(201);
    expect(untitled.body.title).toBe(source.title);
  });
});
