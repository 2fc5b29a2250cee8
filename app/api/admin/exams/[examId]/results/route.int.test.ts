import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { POST as releaseRoute } from "@/app/api/admin/exams/[examId]/results/release/route";
import { adminToken } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoredPapers } from "@/test-support/server/results";

import { GET } from "./route";

describe("GET /api/admin/exams/{examId}/results", () => {
  it("the release state and each candidate's status, score and graded flag", async () => {
    const { examId, attemptIds } = await scoredPapers([{ 1: "b", 2: ["a", "b"], 3: 6 }, { 1: "a" }], ["Ada", "Lin"]);
    const response = await call(GET, { params: { examId }, bearer: adminToken() });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ examId, releasedAt: null, maxScore: 4 });
    const byName = new Map(
      (response.body.candidates as { name: string }[]).map((candidate) => [candidate.name, candidate]),
    );
    expect(byName.get("Ada")).toMatchObject({ attemptId: attemptIds[0], status: "submitted", score: 4, graded: true });
    expect(byName.get("Lin")).toMatchObject({ attemptId: attemptIds[1], status: "submitted", score: 0, graded: true });

    await call(releaseRoute, { method: "POST", params: { examId }, bearer: adminToken() });
    const released = await call(GET, { params: { examId }, bearer: adminToken() });
    expect(released.body.releasedAt).toMatch(/Z$/);
  });

  it("an unknown exam is 404", async () => {
    expect((await call(GET, { params: { examId: randomUUID() }, bearer: adminToken() })).status).toBe(404);
  });
});
