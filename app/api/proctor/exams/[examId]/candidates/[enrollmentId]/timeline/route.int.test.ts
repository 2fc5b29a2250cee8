// GET /api/proctor/exams/{examId}/candidates/{enrollmentId}/timeline: one candidate's attempt as short
// sentences, oldest first, from what Postgres keeps; an enrollment of another exam, or an exam the proctor
// is not assigned to, is a 404.
import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { POST as reopenRoute } from "@/app/api/admin/attempts/[attemptId]/reopen/route";
import { POST as decideRoute } from "@/app/api/admin/exams/[examId]/late-answers/[lateAnswerId]/decision/route";
import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { POST as forceSubmitRoute } from "@/app/api/proctor/attempts/[attemptId]/force-submit/route";
import { POST as sessionRoute } from "@/app/api/session/route";
import { proctorWords } from "@/lib/shared/proctor/describe";
import { db } from "@/lib/server/db/client";
import { autosave, heartbeat, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken, createExam, createStaff, enroll, join, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { translatorFor } from "@/test-support/shared/translator";
import type { CandidateTimeline } from "@/lib/shared/schemas/proctor";

import { GET } from "./route";

const CHROME_ON_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

function timeline(examId: string, enrollmentId: string, auth: { cookie?: string; bearer?: string }) {
  return call<CandidateTimeline & { error: { code: string } }>(GET, {
    path: `/api/proctor/exams/${examId}/candidates/${enrollmentId}/timeline`,
    params: { examId, enrollmentId },
    ...auth,
  });
}

type Question = StartedAttempt["questions"][number];

const pause = () => new Promise((resolve) => setTimeout(resolve, 15));

describe("GET …/candidates/{enrollmentId}/timeline", () => {
  it("tells the attempt oldest first: joins, start, devices, switches, offline spans, saves, extra time, submit, late answers", async () => {
    const exam = await createExam();
    const [candidate] = await enroll(exam.id);
    const cookie = await join(candidate!.joinToken);
    const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
    expect(started.status).toBe(201);
    const attempt: StartedAttempt = {
      examId: exam.id,
      attemptId: started.body.attemptId,
      cookie,
      enrollmentId: candidate!.id,
      questions: exam.questions,
    };
    const [q1, q2, q3] = exam.questions as [Question, Question, Question];

    expect((await heartbeat(attempt, { deviceId: "laptop" })).status).toBe(200);
    await pause();
    await autosave(attempt, {
      deviceId: "laptop",
      answers: [
        { questionId: q1.id, value: "a", version: 1 },
        { questionId: q2.id, value: ["a"], version: 2 },
      ],
    });
    await pause();
    // A second device joins with its own session.
    const phoneJoin = await call(sessionRoute, {
      path: "/api/session",
      json: { joinToken: candidate!.joinToken },
      headers: { "user-agent": CHROME_ON_WINDOWS },
    });
    expect(phoneJoin.status).toBe(200);
    await pause();
    expect((await heartbeat(attempt, { deviceId: "phone" })).status).toBe(200);
    await pause();
    await autosave(attempt, { deviceId: "phone", answers: [{ questionId: q3.id, value: "127.0.0.1", version: 3 }] });

    const base = Date.now();
    await db.deviceOfflineSpan.createMany({
      data: [
        {
          attemptId: attempt.attemptId,
          deviceId: "laptop",
          startedAt: new Date(base + 1_000),
          endedAt: new Date(base + 126_000),
          cause: "reported",
        },
        {
          attemptId: attempt.attemptId,
          deviceId: "phone",
          startedAt: new Date(base + 200_000),
          endedAt: null,
          cause: "unreachable",
        },
      ],
    });
    await db.timeExtension.create({
      data: {
        examId: attempt.examId,
        enrollmentId: attempt.enrollmentId,
        attemptId: attempt.attemptId,
        seconds: 600,
        reason: "fire alarm",
        actorLabel: "Ada Lovelace <ada@example.test>",
        createdAt: new Date(base + 300_000),
        acknowledgedAt: new Date(base + 302_000),
        acknowledgedDeviceId: "phone",
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(
      (await submit(attempt, { deviceId: "phone", answers: [], digest: "0".repeat(64) }, randomUUID())).status,
    ).toBe(200);
    expect(
      (await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: q3.id, value: "late", version: 9 }] }))
        .status,
    ).toBe(409);
    // Late answers also come with a repeated submit and from an emergency file a staff member uploaded.
    await db.lateAnswer.createMany({
      data: [
        { attemptId: attempt.attemptId, questionId: q1.id, value: "b", version: 10, deviceId: "phone", via: "submit" },
        {
          attemptId: attempt.attemptId,
          questionId: q2.id,
          value: ["b"],
          version: 11,
          deviceId: "phone",
          via: "export",
        },
      ],
    });

    const response = await timeline(attempt.examId, attempt.enrollmentId, { bearer: adminToken() });
    expect(response.status).toBe(200);
    const { entries, enrollmentId, serverTime } = response.body;
    expect(enrollmentId).toBe(attempt.enrollmentId);
    expect(serverTime).toBeGreaterThanOrEqual(base);
    for (let index = 1; index < entries.length; index += 1)
      expect(entries[index]!.at).toBeGreaterThanOrEqual(entries[index - 1]!.at);

    const texts = entries.map((entry) => `${entry.kind}: ${entry.text}`);
    expect(texts[0]).toBe("enrolled: Enrolled.");
    expect(texts).toContain("joined: Joined on an unknown browser.");
    expect(texts).toContain("joined: Joined on Chrome on Windows.");
    expect(texts).toContain("started: Started the attempt.");
    expect(texts).toContain("device_first_seen: Device laptop first seen.");
    expect(texts).toContain("device_first_seen: Device phone first seen.");
    expect(texts).toContain("device_switch: Switched to device phone (was on device laptop).");
    expect(texts).toContain("offline: Device laptop went offline (it said so).");
    expect(texts).toContain("online: Device laptop back online after 2 min 5 s.");
    expect(texts).toContain("offline: Device phone stopped sending heartbeats.");
    expect(texts).toContain("extended: +10 min by Ada Lovelace: fire alarm");
    expect(texts).toContain("extension_acknowledged: Device phone shows the new deadline (+10 min).");
    expect(texts).toContain(
      "submitted: Submitted by the candidate. The device's copy differs from the paper the server froze (digest mismatch).",
    );
    expect(texts).toContain(
      "late_answer: Late answer to question 3 from device laptop (via autosave); kept aside, not applied.",
    );
    expect(texts).toContain(
      "late_answer: Late answer to question 1 from device phone (via submit); kept aside, not applied.",
    );
    expect(texts).toContain(
      "late_answer: Late answer to question 2 from device phone (via emergency file); kept aside, not applied.",
    );
    // The dashboard words each entry from its facts, in the reader's language: in English, the server's line,
    // late answers by every way they arrive included.
    const english = proctorWords(translatorFor("en", "proctor"), "en", "UTC");
    for (const entry of entries) expect(english.timelineLine(entry)).toBe(entry.text);
    const vias = entries.flatMap((entry) => (entry.kind === "late_answer" ? [entry.facts.via] : []));
    expect(vias.sort()).toEqual(["autosave", "export", "submit"]);
    const saves = entries.filter((entry) => entry.kind === "saves");
    // Grouped per minute and device (a minute boundary in the middle of the test would only split a group).
    for (const entry of saves) expect(entry.text).toMatch(/^Saved \d+ answers? from device (laptop|phone)\.$/);
    expect(saves.reduce((sum, entry) => sum + Number(/Saved (\d+)/.exec(entry.text)![1]), 0)).toBe(3);
    expect(entries.find((entry) => entry.kind === "offline" && entry.deviceId === "laptop")!.until).toBe(
      base + 126_000,
    );
    expect(entries.find((entry) => entry.kind === "offline" && entry.deviceId === "phone")!.until).toBeNull();
    // Started comes after enrolled and joined; the submission after the saves.
    const kinds = entries.map((entry) => entry.kind);
    expect(kinds.indexOf("started")).toBeGreaterThan(kinds.indexOf("enrolled"));
    expect(kinds.indexOf("submitted")).toBeGreaterThan(kinds.lastIndexOf("saves"));
  });

  it("names the proctor who force-submitted, and why", async () => {
    const attempt = await startedAttempt();
    const proctor = await createStaff("proctor");
    await db.examProctor.create({ data: { examId: attempt.examId, staffUserId: proctor.id } });
    const cookie = await signIn(proctor.email, proctor.password);
    const forced = await call(forceSubmitRoute, {
      params: { attemptId: attempt.attemptId },
      cookie,
      json: { reason: "left the room" },
    });
    expect(forced.status).toBe(200);
    const response = await timeline(attempt.examId, attempt.enrollmentId, { cookie });
    const submitted = response.body.entries.find((entry) => entry.kind === "submitted");
    expect(submitted?.text).toBe(`Force-submitted by Test proctor <${proctor.email}>: left the room.`);
    // The same, as facts the dashboard words in its reader's language.
    expect(submitted?.facts).toEqual({
      source: "proctor",
      forcedBy: `Test proctor <${proctor.email}>`,
      forcedReason: "left the room",
      isDigestMismatch: false,
    });
  });

  it("after a reopening: both submissions, each with who forced it, and the reopening between them", async () => {
    const attempt = await startedAttempt();
    const proctor = await createStaff("proctor");
    await db.examProctor.create({ data: { examId: attempt.examId, staffUserId: proctor.id } });
    const cookie = await signIn(proctor.email, proctor.password);
    const force = (reason: string) =>
      call(forceSubmitRoute, { params: { attemptId: attempt.attemptId }, cookie, json: { reason } });
    expect((await force("by mistake")).status).toBe(200);
    await pause();
    const reopened = await call(reopenRoute, {
      params: { attemptId: attempt.attemptId },
      bearer: adminToken(),
      json: { reason: "the proctor pressed the wrong row", seconds: 900 },
    });
    expect(reopened.status).toBe(200);
    await pause();
    expect((await force("time is up for real")).status).toBe(200);

    const response = await timeline(attempt.examId, attempt.enrollmentId, { cookie });
    const tail = response.body.entries.filter((entry) => entry.kind === "submitted" || entry.kind === "reopened");
    expect(tail.map((entry) => entry.text)).toEqual([
      `Force-submitted by Test proctor <${proctor.email}>: by mistake.`,
      "Reopened by API token for 15 min: the proctor pressed the wrong row Submission 1 stays on record.",
      `Force-submitted by Test proctor <${proctor.email}>: time is up for real.`,
    ]);
    expect(tail[1]!.facts).toEqual({
      by: "API token",
      reason: "the proctor pressed the wrong row",
      seconds: 900,
      version: 1,
    });
  });

  it("shows each late-answer decision, who took it and why, after the late answer itself", async () => {
    const attempt = await startedAttempt();
    const [single, numeric] = [
      attempt.questions.find((q) => q.type === "single_choice")!,
      attempt.questions.find((q) => q.type === "numeric")!,
    ];
    expect((await submit(attempt, { deviceId: "laptop" }, randomUUID())).status).toBe(200);
    const late = await autosave(attempt, {
      deviceId: "phone",
      answers: [
        { questionId: single.id, value: "b", version: 1 },
        { questionId: numeric.id, value: 6, version: 1 },
      ],
    });
    expect(late.status).toBe(409);
    const rows = await db.lateAnswer.findMany({ where: { attemptId: attempt.attemptId } });
    const idOf = (questionId: string) => rows.find((row) => row.questionId === questionId)!.id;
    const decide = (lateAnswerId: string, json: unknown) =>
      call(decideRoute, { params: { examId: attempt.examId, lateAnswerId }, bearer: adminToken(), json });
    expect((await decide(idOf(single.id), { decision: "accepted" })).status).toBe(201);
    await pause();
    expect((await decide(idOf(numeric.id), { decision: "rejected", reason: "sent after the bell" })).status).toBe(201);

    const proctor = await createStaff("proctor");
    await db.examProctor.create({ data: { examId: attempt.examId, staffUserId: proctor.id } });
    const response = await timeline(attempt.examId, attempt.enrollmentId, {
      cookie: await signIn(proctor.email, proctor.password),
    });
    expect(response.status).toBe(200);
    const kinds = response.body.entries.map((entry) => entry.kind);
    expect(kinds.lastIndexOf("late_answer")).toBeLessThan(kinds.indexOf("late_answer_decided"));
    const decided = response.body.entries.filter((entry) => entry.kind === "late_answer_decided");
    expect(decided.map((entry) => entry.text)).toEqual([
      `API token accepted the late answer to question ${single.position} into the result.`,
      `API token rejected the late answer to question ${numeric.position}. Reason: sent after the bell`,
    ]);
    expect(decided[1]!.facts).toEqual({
      position: numeric.position,
      decision: "rejected",
      by: "API token",
      reason: "sent after the bell",
    });
    const zh = proctorWords(translatorFor("zh-CN", "proctor"), "zh-CN", "UTC");
    expect(zh.timelineLine(decided[0]!)).toBe(`API token 接受了第 ${single.position} 题的逾期作答，计入成绩。`);
  });

  it("is a bare enrolled line for a candidate who never joined", async () => {
    const attempt = await startedAttempt();
    const [other] = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO enrollments (id, exam_id, name, email, join_token_hash)
      VALUES (gen_random_uuid(), ${attempt.examId}::uuid, 'Quiet', ${`quiet-${randomUUID()}@example.test`}, ${randomUUID()})
      RETURNING id::text AS id`;
    const response = await timeline(attempt.examId, other!.id, { bearer: adminToken() });
    expect(response.status).toBe(200);
    expect(response.body.entries.map((entry) => entry.kind)).toEqual(["enrolled"]);
  });

  it("answers 404 for another exam's enrollment, an unassigned proctor, and a missing enrollment", async () => {
    const mine = await startedAttempt();
    const theirs = await startedAttempt();
    const assigned = await createStaff("proctor");
    const stranger = await createStaff("proctor");
    await db.examProctor.create({ data: { examId: mine.examId, staffUserId: assigned.id } });
    await db.examProctor.create({ data: { examId: theirs.examId, staffUserId: stranger.id } });
    const cookie = await signIn(assigned.email, assigned.password);

    expect((await timeline(mine.examId, mine.enrollmentId, { cookie })).status).toBe(200);
    // Another exam's candidate under my exam's id, and under its own exam's id.
    for (const [examId, enrollmentId] of [
      [mine.examId, theirs.enrollmentId],
      [theirs.examId, theirs.enrollmentId],
      [mine.examId, randomUUID()],
    ] as const) {
      const refused = await timeline(examId, enrollmentId, { cookie });
      expect(refused.status).toBe(404);
      expect(refused.body.error).toEqual({ code: "NOT_FOUND", message: "No such candidate in this exam." });
    }
    expect(
      (await timeline(mine.examId, mine.enrollmentId, { cookie: await signIn(stranger.email, stranger.password) }))
        .status,
    ).toBe(404);
    expect((await timeline(mine.examId, "nope", { cookie })).status).toBe(404);
    expect((await timeline(mine.examId, mine.enrollmentId, {})).status).toBe(401);
  });
});
