import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { GET as examRoute } from "@/app/api/admin/exams/[examId]/route";
import { GET as queueRoute } from "@/app/api/admin/exams/[examId]/grading/[questionId]/route";
import { PUT as gradeRoute } from "@/app/api/admin/exams/[examId]/grading/[questionId]/[attemptId]/route";
import { GET as listStaffRoute, POST as createStaffRoute } from "@/app/api/admin/staff/route";
import { GET as candidatesRoute } from "@/app/api/proctor/exams/[examId]/candidates/route";
import { POST as signInRoute } from "@/app/api/staff/session/route";
import { db } from "@/lib/server/db/client";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken, createExam, createStaff, signIn, uniqueSuffix } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoreNow } from "@/test-support/server/results";

import { GET as listGradersRoute } from "./route";
import { DELETE as unassignRoute, PUT as assignRoute } from "./[staffId]/route";

const essayOf = (attempt: StartedAttempt) => attempt.questions.find((q) => q.type === "essay")!.id;

async function submittedEssay(): Promise<StartedAttempt> {
  const attempt = await startedAttempt();
  const answers = [{ questionId: essayOf(attempt), value: "Flow control is the receiver's.", version: 1 }];
  expect((await autosave(attempt, { deviceId: "laptop", answers })).status).toBe(200);
  expect((await submit(attempt, { deviceId: "laptop" }, randomUUID())).status).toBe(200);
  await scoreNow(attempt.attemptId);
  return attempt;
}

async function graderSession(): Promise<{ id: string; email: string; cookie: string }> {
  const grader = await createStaff("grader");
  return { id: grader.id, email: grader.email, cookie: await signIn(grader.email, grader.password) };
}

const assign = (examId: string, staffId: string) =>
  call(assignRoute, { method: "PUT", params: { examId, staffId }, bearer: adminToken() });

const queue = (attempt: StartedAttempt, cookie: string) =>
  call(queueRoute, {
    path: `/api/admin/exams/${attempt.examId}/grading/${essayOf(attempt)}?marker=first`,
    params: { examId: attempt.examId, questionId: essayOf(attempt) },
    cookie,
  });

const mark = (attempt: StartedAttempt, cookie: string, points: number, revision = 0) =>
  call(gradeRoute, {
    method: "PUT",
    params: { examId: attempt.examId, questionId: essayOf(attempt), attemptId: attempt.attemptId },
    cookie,
    json: { points, comment: "", marker: "first", revision },
  });

describe("graders: assigned per exam, mark that exam and nothing else", () => {
  it("an assigned grader reads the queue and saves a mark; the result follows and names them", async () => {
    const attempt = await submittedEssay();
    const grader = await graderSession();
    expect((await assign(attempt.examId, grader.id)).status).toBe(204);

    const read = await queue(attempt, grader.cookie);
    expect(read.status, read.text).toBe(200);
    expect(read.body.items.map((item: { attemptId: string }) => item.attemptId)).toContain(attempt.attemptId);

    const saved = await mark(attempt, grader.cookie, 2.5);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.grade).toMatchObject({ points: 2.5, revision: 1, by: `Test grader <${grader.email}>` });
    const grade = await db.grade.findFirst({ where: { attemptId: attempt.attemptId, marker: "first" } });
    expect(grade).toMatchObject({ staffUserId: grader.id });
    const audit = await db.auditEvent.findFirst({ where: { attemptId: attempt.attemptId, action: "grade.saved" } });
    expect(audit).toMatchObject({ actorType: "staff", actorId: grader.id });
  });

  it("an unassigned grader, or one whose assignment ended, gets 403 and changes nothing", async () => {
    const attempt = await submittedEssay();
    const grader = await graderSession();
    // Assigned to another exam only: that gives nothing here.
    const elsewhere = await createExam();
    expect((await assign(elsewhere.id, grader.id)).status).toBe(204);

    const read = await queue(attempt, grader.cookie);
    expect(read.status).toBe(403);
    expect(read.body.error.code).toBe("FORBIDDEN");
    const saved = await mark(attempt, grader.cookie, 1);
    expect(saved.status).toBe(403);
    expect(await db.grade.count({ where: { attemptId: attempt.attemptId } })).toBe(0);

    // Assigned, then unassigned: refused from the next request.
    expect((await assign(attempt.examId, grader.id)).status).toBe(204);
    expect((await queue(attempt, grader.cookie)).status).toBe(200);
    const params = { examId: attempt.examId, staffId: grader.id };
    expect((await call(unassignRoute, { method: "DELETE", params, bearer: adminToken() })).status).toBe(204);
    expect((await queue(attempt, grader.cookie)).status).toBe(403);
  });

  it("a proctor, even assigned to the exam as a proctor, may not grade; an admin and the token may", async () => {
    const attempt = await submittedEssay();
    const proctor = await createStaff("proctor");
    await db.examProctor.create({ data: { examId: attempt.examId, staffUserId: proctor.id } });
    const proctorCookie = await signIn(proctor.email, proctor.password);
    expect((await queue(attempt, proctorCookie)).status).toBe(403);

    const admin = await createStaff("admin");
    expect((await queue(attempt, await signIn(admin.email, admin.password))).status).toBe(200);
    const byToken = await call(queueRoute, {
      path: `/api/admin/exams/${attempt.examId}/grading/${essayOf(attempt)}`,
      params: { examId: attempt.examId, questionId: essayOf(attempt) },
      bearer: adminToken(),
    });
    expect(byToken.status).toBe(200);
  });

  it("a grader gets 403 on a proctor route and on admin routes, even for the exam they mark", async () => {
    const exam = await createExam();
    const grader = await graderSession();
    expect((await assign(exam.id, grader.id)).status).toBe(204);

    const proctoring = await call(candidatesRoute, { params: { examId: exam.id }, cookie: grader.cookie });
    expect(proctoring.status).toBe(403);
    expect(proctoring.body.error.code).toBe("FORBIDDEN");
    const examRead = await call(examRoute, { params: { examId: exam.id }, cookie: grader.cookie });
    expect(examRead.status).toBe(403);
    const graders = await call(listGradersRoute, { params: { examId: exam.id }, cookie: grader.cookie });
    expect(graders.status).toBe(403);
    const staffList = await call(listStaffRoute, { cookie: grader.cookie });
    expect(staffList.status).toBe(403);
  });

  it("assigning: idempotent, listed by name, audited once; only active grader accounts", async () => {
    const exam = await createExam();
    const grader = await createStaff("grader");
    const [first, second] = await Promise.all([assign(exam.id, grader.id), assign(exam.id, grader.id)]);
    expect([first.status, second.status]).toEqual([204, 204]);
    expect(await db.examGrader.count({ where: { examId: exam.id } })).toBe(1);
    const audited = await db.auditEvent.findMany({ where: { examId: exam.id, action: "grader.assigned" } });
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ actorType: "api-token", data: { staffUserId: grader.id } });

    const listed = await call(listGradersRoute, { params: { examId: exam.id }, bearer: adminToken() });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      graders: [{ id: grader.id, name: "Test grader", email: grader.email, disabled: false }],
    });
    // A grader is not a proctor of the exam.
    expect(await db.examProctor.count({ where: { examId: exam.id } })).toBe(0);

    // A proctor or an admin is not assigned as a grader: 422, nothing written.
    for (const role of ["proctor", "admin"] as const) {
      const other = await createStaff(role);
      const refused = await assign(exam.id, other.id);
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe("VALIDATION_FAILED");
    }
    expect(await db.examGrader.count({ where: { examId: exam.id } })).toBe(1);

    // An unknown exam is 404.
    expect((await assign(randomUUID(), grader.id)).status).toBe(404);
    const unknown = await call(listGradersRoute, { params: { examId: randomUUID() }, bearer: adminToken() });
    expect(unknown.status).toBe(404);
  });

  it("an admin creates a grader, who signs in as one and is refused the proctors' exam list", async () => {
    const admin = await createStaff("admin");
    const cookie = await signIn(admin.email, admin.password);
    const email = `grader-${uniqueSuffix()}@holdfast.test`;
    const created = await call(createStaffRoute, { cookie, json: { email, name: "Gia Grader", role: "grader" } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.account).toMatchObject({ role: "grader", exams: [] });

    const signedIn = await call(signInRoute, { json: { email, password: created.body.temporaryPassword } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.role).toBe("grader");

    const exam = await createExam();
    expect((await assign(exam.id, created.body.account.id)).status).toBe(204);
    const listed = await call(listStaffRoute, { cookie });
    const account = listed.body.staff.find((entry: { id: string }) => entry.id === created.body.account.id);
    expect(account.exams).toEqual([{ id: exam.id, title: expect.stringMatching(/^Exam /) }]);
  });

  it("double marking takes two people, and settling is an admin's: a grader cannot do both marks or the final", async () => {
    const attempt = await submittedEssay();
    await db.exam.update({ where: { id: attempt.examId }, data: { secondMarking: true } });
    const [one, two] = [await graderSession(), await graderSession()];
    for (const grader of [one, two]) expect((await assign(attempt.examId, grader.id)).status).toBe(204);
    const markAs = (cookie: string, marker: "first" | "second" | "final", points: number) =>
      call(gradeRoute, {
        method: "PUT",
        params: { examId: attempt.examId, questionId: essayOf(attempt), attemptId: attempt.attemptId },
        cookie,
        json: { points, comment: "", marker, revision: 0 },
      });

    expect((await markAs(one.cookie, "first", 2)).status).toBe(200);
    // The same grader as second marker: refused, nothing written.
    const same = await markAs(one.cookie, "second", 2);
    expect(same.status, same.text).toBe(409);
    expect(same.body.error.code).toBe("SAME_MARKER");
    expect(await db.grade.count({ where: { attemptId: attempt.attemptId, marker: "second" } })).toBe(0);
    expect((await markAs(two.cookie, "second", 4)).status).toBe(200);

    // The two disagree; a grader may neither read the final view nor settle.
    const finalView = await call(queueRoute, {
      path: `/api/admin/exams/${attempt.examId}/grading/${essayOf(attempt)}?marker=final`,
      params: { examId: attempt.examId, questionId: essayOf(attempt) },
      cookie: two.cookie,
    });
    expect(finalView.status).toBe(403);
    const settle = await markAs(two.cookie, "final", 3);
    expect(settle.status).toBe(403);
    expect(await db.grade.count({ where: { attemptId: attempt.attemptId, marker: "final" } })).toBe(0);

    // An admin settles.
    const admin = await createStaff("admin");
    const adminCookie = await signIn(admin.email, admin.password);
    expect((await markAs(adminCookie, "final", 3)).status).toBe(200);
  });

  it("one grader saving the first and the second mark of an answer at the same moment: one is refused", async () => {
    const attempt = await submittedEssay();
    await db.exam.update({ where: { id: attempt.examId }, data: { secondMarking: true } });
    const grader = await graderSession();
    expect((await assign(attempt.examId, grader.id)).status).toBe(204);
    const markAs = (marker: "first" | "second") =>
      call(gradeRoute, {
        method: "PUT",
        params: { examId: attempt.examId, questionId: essayOf(attempt), attemptId: attempt.attemptId },
        cookie: grader.cookie,
        json: { points: 2, comment: "", marker, revision: 0 },
      });
    for (let round = 0; round < 5; round += 1) {
      await db.grade.deleteMany({ where: { attemptId: attempt.attemptId } });
      const [first, second] = await Promise.all([markAs("first"), markAs("second")]);
      expect([first.status, second.status].sort(), `round ${round}`).toEqual([200, 409]);
      expect(await db.grade.count({ where: { attemptId: attempt.attemptId } })).toBe(1);
    }
  });
});
