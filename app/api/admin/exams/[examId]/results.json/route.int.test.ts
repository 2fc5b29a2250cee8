import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { POST as regradeRoute } from "@/app/api/admin/exams/[examId]/results/regrade/route";
import { db } from "@/lib/server/db/client";
import { adminToken } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoredPapers, scoreNow } from "@/test-support/server/results";

import { GET } from "./route";

describe("GET /api/admin/exams/{examId}/results.json", () => {
  it("the exam, its questions with max points, and per candidate the current result and every version", async () => {
    const { examId, questions, attemptIds } = await scoredPapers([{ 1: "b", 2: ["a"] }, {}], ["Ada", "Grace"]);
    // A second version: the stored result is made stale, and a regrade brings it back.
    await db.result.update({ where: { attemptId: attemptIds[0]! }, data: { questions: [] } });
    await call(regradeRoute, { method: "POST", params: { examId }, bearer: adminToken() });
    await scoreNow(...attemptIds);

    const response = await call(GET, { params: { examId }, bearer: adminToken() });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="results-${examId}.json"`);
    const body = JSON.parse(response.text);
    expect(body.exam).toMatchObject({ id: examId, maxScore: 4, releasedAt: null });
    expect(body.questions).toEqual(
      [1, 2, 3].map((position) => ({
        questionId: questions.find((question) => question.position === position)!.id,
        position,
        type: ["single_choice", "multiple_choice", "numeric"][position - 1],
        maxPoints: [1, 2, 1][position - 1],
        ungraded: false,
      })),
    );
    expect(body.candidates).toHaveLength(2);
    const ada = body.candidates.find((candidate: { name: string }) => candidate.name === "Ada");
    expect(ada).toMatchObject({ attemptId: attemptIds[0], status: "submitted" });
    expect(ada.result).toMatchObject({ version: 2, score: 2, maxScore: 4, graded: true });
    expect(ada.result.questions[1]).toMatchObject({ points: 1, maxPoints: 2, source: "auto", reason: "partial" });
    expect(
      ada.versions.map((version: Record<string, unknown>) => [version.version, version.cause, version.score]),
    ).toEqual([
      [1, "submitted", 2],
      [2, "regraded", 2],
    ]);
    expect(ada.versions[1]).toMatchObject({
      actor: { type: "api-token", staffUserId: null, label: "API token" },
      reason: "regrade requested",
      at: expect.stringMatching(/Z$/),
    });
    const grace = body.candidates.find((candidate: { name: string }) => candidate.name === "Grace");
    expect(grace.result).toMatchObject({ version: 1, score: 0, graded: true });
    expect(grace.versions).toHaveLength(1);
  });

  it("candidates who have not submitted have no result; an unknown exam is 404", async () => {
    const { examId } = await scoredPapers([]);
    const body = JSON.parse((await call(GET, { params: { examId }, bearer: adminToken() })).text);
    expect(body.candidates).toEqual([]);
    expect((await call(GET, { params: { examId: randomUUID() }, bearer: adminToken() })).status).toBe(404);
  });
});
