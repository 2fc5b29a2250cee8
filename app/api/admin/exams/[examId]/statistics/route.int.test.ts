import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { autosave, startedAttempt, submit } from "@/test-support/server/attempts";
import { adminToken } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoredPapers, scoreNow } from "@/test-support/server/results";

import { GET } from "./route";

// Four papers on the sample exam's objective questions: Q1 single choice (1 point, key b), Q2 multiple choice
// (2, key a+b, partial), Q3 numeric (1, key 6).
//   P1: b, [a, b], 6 → 1 + 2 + 1 = 4
//   P2: a, [a], 6    → 0 + 1 + 1 = 2
//   P3: b, —, —      → 1 + 0 + 0 = 1
//   P4: —, [a, c], 5 → 0 + 0 + 0 = 0   (one right, one wrong: 1 − 1)
const PAPERS = [{ 1: "b", 2: ["a", "b"], 3: 6 }, { 1: "a", 2: ["a"], 3: 6 }, { 1: "b" }, { 2: ["a", "c"], 3: 5 }];

describe("GET /api/admin/exams/{examId}/statistics", () => {
  it("computes the per-exam and per-question figures from the scored papers", async () => {
    const { examId, questions } = await scoredPapers(PAPERS);
    const response = await call(GET, { params: { examId }, bearer: adminToken() });
    expect(response.status).toBe(200);
    const body = response.body;

    expect(body).toMatchObject({ examId, submitted: 4, scored: 4, waitingForPerson: 0, maxScore: 4 });
    // Totals 4, 2, 1, 0: mean 1.75, median 1.5, sample variance 8.75 / 3.
    expect(body.mean).toBe(1.75);
    expect(body.median).toBe(1.5);
    expect(body.standardDeviation).toBeCloseTo(Math.sqrt(8.75 / 3), 10);
    // Item variances 1/3, 2.75/3, 1/3 over a total variance of 8.75/3: α = 3/2 · (1 − 4.75/8.75).
    expect(body.cronbachAlpha).toBeCloseTo(1.5 * (1 - 4.75 / 8.75), 10);
    // Ten bins of 0.4 points: 0 → bin 0, 1 → bin 2, 2 → bin 5, 4 → the last (closed) bin.
    expect(body.histogram).toHaveLength(10);
    expect(body.histogram[0]).toEqual({ from: 0, to: 0.4, count: 1 });
    expect(body.histogram.map((bin: { count: number }) => bin.count)).toEqual([1, 0, 1, 0, 0, 1, 0, 0, 0, 1]);
    expect(body.histogram[9].to).toBe(4);

    const [q1, q2, q3] = body.questions;
    expect(q1).toMatchObject({
      questionId: questions.find((question) => question.position === 1)!.id,
      position: 1,
      type: "single_choice",
      points: 1,
      ungraded: false,
      decided: 4,
      facility: 0.5,
      distribution: [
        { points: 0, count: 2 },
        { points: 1, count: 2 },
      ],
      blank: 1,
      options: [
        { optionId: "a", label: "Data link", count: 1 },
        { optionId: "b", label: "Network", count: 2 },
        { optionId: "c", label: "Transport", count: 0 },
      ],
    });
    // Item (1, 0, 1, 0) against the rest of the test (3, 2, 0, 0): r = 0.5 / √6.75.
    expect(q1.discrimination).toBeCloseTo(0.5 / Math.sqrt(6.75), 10);
    expect(q2).toMatchObject({
      type: "multiple_choice",
      points: 2,
      facility: 0.375,
      distribution: [
        { points: 0, count: 2 },
        { points: 1, count: 1 },
        { points: 2, count: 1 },
      ],
      blank: 1,
      options: [
        { optionId: "a", label: "10.0.0.0/8", count: 3 },
        { optionId: "b", label: "172.16.0.0/12", count: 1 },
        { optionId: "c", label: "8.8.8.0/24", count: 1 },
      ],
    });
    // Item (2, 1, 0, 0) against the rest (2, 1, 1, 0).
    const mx = 0.75;
    const my = 1;
    const xs = [2, 1, 0, 0];
    const ys = [2, 1, 1, 0];
    const sxy = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i]! - my), 0);
    const sxx = xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
    const syy = ys.reduce((sum, y) => sum + (y - my) ** 2, 0);
    expect(q2.discrimination).toBeCloseTo(sxy / Math.sqrt(sxx * syy), 10);
    expect(q3).toMatchObject({ type: "numeric", facility: 0.5, blank: 1, options: null });
  });

  it("a single paper has a mean but no spread: the undefined figures are null, not 0", async () => {
    const { examId } = await scoredPapers([{ 1: "b", 2: ["a", "b"], 3: 6 }]);
    const { body } = await call(GET, { params: { examId }, bearer: adminToken() });
    expect(body).toMatchObject({ scored: 1, mean: 4, median: 4, standardDeviation: null, cronbachAlpha: null });
    expect(body.questions[0]).toMatchObject({ facility: 1, discrimination: null });
  });

  it("an exam without papers has no figures; an unknown exam is 404", async () => {
    const { examId } = await scoredPapers([]);
    const { body } = await call(GET, { params: { examId }, bearer: adminToken() });
    expect(body).toMatchObject({ submitted: 0, scored: 0, mean: null, median: null, cronbachAlpha: null });
    expect(body.histogram.every((bin: { count: number }) => bin.count === 0)).toBe(true);
    expect(body.questions[0]).toMatchObject({ decided: 0, facility: null, blank: 0 });
    expect((await call(GET, { params: { examId: randomUUID() }, bearer: adminToken() })).status).toBe(404);
  });

  it("time from first to last edit: the server's saves, where the first one is known", async () => {
    const attempt = await startedAttempt();
    const q = (type: string) => attempt.questions.find((question) => question.type === type)!.id;
    const save = (questionId: string, value: unknown, version: number) =>
      autosave(attempt, { deviceId: "laptop", answers: [{ questionId, value, version }] });
    expect((await save(q("essay"), "A first draft.", 1)).status).toBe(200);
    expect((await save(q("single_choice"), "a", 1)).status).toBe(200);
    expect((await save(q("numeric"), 5, 1)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await save(q("essay"), "A first draft, and a second thought.", 2)).status).toBe(200);
    // An answer stored before first saves were recorded: its first save is not known.
    await db.answer.updateMany({
      where: { attemptId: attempt.attemptId, questionId: q("numeric") },
      data: { firstSavedAt: null },
    });
    expect((await submit(attempt, { deviceId: "laptop" }, randomUUID())).status).toBe(200);
    await scoreNow(attempt.attemptId);

    const body = (await call(GET, { params: { examId: attempt.examId }, bearer: adminToken() })).body;
    const of = (type: string) =>
      body.questions.find((question: { questionId: string }) => question.questionId === q(type)).editTime;
    expect(of("essay").known).toBe(1);
    expect(of("essay").medianSeconds).toBeGreaterThanOrEqual(1.1);
    expect(of("essay").medianSeconds).toBeLessThan(30);
    expect(of("single_choice")).toEqual({ known: 1, medianSeconds: 0 });
    expect(of("numeric")).toEqual({ known: 0, medianSeconds: null });
    expect(of("short_text")).toEqual({ known: 0, medianSeconds: null });
  });
});
