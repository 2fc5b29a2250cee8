import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { sha256Hex } from "@/lib/server/crypto";
import { adminToken, createExam, uniqueSuffix } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { POST as enrollRoute } from "./route";

function enrollRaw(examId: string, candidates: unknown, bearer = adminToken()) {
  return call(enrollRoute, { params: { examId }, bearer, json: { candidates } });
}

describe("POST /api/admin/exams/{examId}/candidates", () => {
  it("enrolls candidates with personal join URLs and stores only a hash of each token", async () => {
    const exam = await createExam();
    const suffix = uniqueSuffix();
    const response = await enrollRaw(exam.id, [
      { name: "Ada Lovelace", email: `Ada-${suffix}@Example.TEST`, extraSeconds: 600 },
      { name: "Alan Turing", email: `alan-${suffix}@example.test` },
    ]);
    expect(response.status).toBe(201);
    const [ada, alan] = response.body.candidates;
    expect(ada.email).toBe(`ada-${suffix}@example.test`);
    expect(ada.joinUrl).toBe(`http://holdfast.test/join/${ada.joinToken}`);
    expect(ada.joinToken).not.toBe(alan.joinToken);
    expect(ada.joinToken.length).toBeGreaterThanOrEqual(43);

    const stored = await db.enrollment.findUniqueOrThrow({ where: { id: ada.id } });
    expect(stored.extraSeconds).toBe(600);
    expect(stored.joinTokenHash).toBe(sha256Hex(ada.joinToken));
    expect(JSON.stringify(stored)).not.toContain(ada.joinToken);
  });

  it("is idempotent: enrolling the same email again returns the same enrollment and the same link", async () => {
    const exam = await createExam();
    const email = `repeat-${uniqueSuffix()}@example.test`;
    const first = await enrollRaw(exam.id, [{ name: "Grace Hopper", email }]);
    const again = await enrollRaw(exam.id, [
      { name: "Grace B. Hopper", email: email.toUpperCase(), extraSeconds: 120 },
    ]);
    expect(again.status).toBe(201);
    expect(again.body.candidates[0].id).toBe(first.body.candidates[0].id);
    expect(again.body.candidates[0].joinUrl).toBe(first.body.candidates[0].joinUrl);
    expect(await db.enrollment.count({ where: { examId: exam.id } })).toBe(1);
    // The newer roster's name and extra time win.
    expect(await db.enrollment.findUniqueOrThrow({ where: { id: first.body.candidates[0].id } })).toMatchObject({
      name: "Grace B. Hopper",
      extraSeconds: 120,
    });
  });

  it("converges when the same roster is posted 20 times at once", async () => {
    const exam = await createExam();
    const suffix = uniqueSuffix();
    const roster = Array.from({ length: 10 }, (_, i) => ({
      name: `Racer ${i}`,
      email: `racer${i}-${suffix}@example.test`,
    }));
    const responses = await Promise.all(Array.from({ length: 20 }, () => enrollRaw(exam.id, roster)));
    expect(responses.every((r) => r.status === 201)).toBe(true);
    expect(await db.enrollment.count({ where: { examId: exam.id } })).toBe(10);
    const urls = new Set(responses.flatMap((r) => r.body.candidates.map((c: { joinUrl: string }) => c.joinUrl)));
    expect(urls.size).toBe(10);
  });

  it("keeps a student number per candidate, unique in the exam: taken is 409, twice in a request 422, nothing enrolled", async () => {
    const exam = await createExam();
    const suffix = uniqueSuffix();
    const ada = `ada-${suffix}@example.test`;
    const first = await enrollRaw(exam.id, [{ name: "Ada Lovelace", email: ada, externalId: "  S-001 " }]);
    expect(first.status).toBe(201);
    expect(first.body.candidates[0]).toMatchObject({ email: ada, externalId: "S-001" });
    // The same email again without a number keeps it; with another, takes it.
    const again = await enrollRaw(exam.id, [{ name: "Ada Lovelace", email: ada }]);
    expect(again.body.candidates[0].externalId).toBe("S-001");

    // Another email with Ada's number: 409, and the new candidate in the same request is not enrolled either.
    const taken = await enrollRaw(exam.id, [
      { name: "Grace Hopper", email: `grace-${suffix}@example.test` },
      { name: "Alan Turing", email: `alan-${suffix}@example.test`, externalId: "S-001" },
    ]);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: "EXTERNAL_ID_TAKEN", details: { externalIds: ["S-001"] } });
    expect(await db.enrollment.count({ where: { examId: exam.id } })).toBe(1);

    // One number for two emails in one request: 422 naming the later entry.
    const twice = await enrollRaw(exam.id, [
      { name: "Grace Hopper", email: `grace-${suffix}@example.test`, externalId: "S-002" },
      { name: "Alan Turing", email: `alan-${suffix}@example.test`, externalId: "S-002" },
    ]);
    expect(twice.status).toBe(422);
    expect(twice.body.error.details.issues[0].path).toBe("candidates.1.externalId");
    for (const bad of ["", "a".repeat(65), "S\n001"]) {
      const refused = await enrollRaw(exam.id, [
        { name: "Grace", email: `grace-${suffix}@example.test`, externalId: bad },
      ]);
      expect(refused.status, JSON.stringify(bad)).toBe(422);
    }
    expect(await db.enrollment.count({ where: { examId: exam.id } })).toBe(1);

    // The same number in another exam is another candidate's to have.
    const other = await createExam();
    expect((await enrollRaw(other.id, [{ name: "Ada Lovelace", email: ada, externalId: "S-001" }])).status).toBe(201);

    // Two requests racing for one number with two emails: one enrolls, the other is 409; never two holders.
    const race = await Promise.all(
      ["x", "y"].map((who) =>
        enrollRaw(exam.id, [{ name: `Racer ${who}`, email: `${who}-${suffix}@example.test`, externalId: "S-RACE" }]),
      ),
    );
    expect(race.map((response) => response.status).sort()).toEqual([201, 409]);
    expect(await db.enrollment.count({ where: { examId: exam.id, externalId: "S-RACE" } })).toBe(1);
  });

  it("answers 404 for an unknown exam and 422 with paths for bad rows, enrolling nobody", async () => {
    const exam = await createExam();
    const before = await db.enrollment.count();
    const unknown = await enrollRaw(randomUUID(), [{ name: "Nobody", email: "nobody@example.test" }]);
    expect(unknown.status).toBe(404);
    const bad = await enrollRaw(exam.id, [
      { name: "Fine", email: `fine-${uniqueSuffix()}@example.test` },
      { name: "", email: "not-an-email", extraSeconds: -1 },
    ]);
    expect(bad.status).toBe(422);
    const paths = bad.body.error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining(["candidates.1.name", "candidates.1.email", "candidates.1.extraSeconds"]),
    );
    const empty = await enrollRaw(exam.id, []);
    expect(empty.status).toBe(422);
    expect(await db.enrollment.count()).toBe(before);
  });
});
