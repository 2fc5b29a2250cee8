import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { adminToken } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoredPapers, scoreNow } from "@/test-support/server/results";

import { POST } from "./route";

describe("POST /api/admin/exams/{examId}/results/regrade", () => {
  it("queues every submitted paper, audited, and the worker scores them again without new versions when nothing changed", async () => {
    const { examId, attemptIds } = await scoredPapers([{ 1: "b" }, { 1: "a", 3: 6 }]);
    const before = await db.resultVersion.count({ where: { examId } });
    expect(before).toBe(2);

    const response = await call(POST, { method: "POST", params: { examId }, bearer: adminToken() });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ examId, queued: 2 });
    const jobs = await db.resultJob.findMany({ where: { examId } });
    expect(jobs.map((job) => job.attemptId).sort()).toEqual([...attemptIds].sort());
    expect(jobs.every((job) => job.cause === "regraded" && job.actorType === "api-token")).toBe(true);
    const audit = await db.auditEvent.findMany({ where: { examId, action: "results.regraded" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.data).toEqual({ count: 2 });

    await scoreNow(...attemptIds);
    expect(await db.resultJob.count({ where: { examId } })).toBe(0);
    expect(await db.resultVersion.count({ where: { examId } })).toBe(before);
  });

  it("a regraded paper whose stored result is stale gets a new version naming the regrade", async () => {
    const { examId, attemptIds } = await scoredPapers([{ 1: "b" }]);
    // As if the result had been computed under an earlier key: the regrade brings it back to the rules.
    await db.result.update({ where: { attemptId: attemptIds[0]! }, data: { questions: [] } });
    expect((await call(POST, { method: "POST", params: { examId }, bearer: adminToken() })).status).toBe(202);
    await scoreNow(...attemptIds);
    const versions = await db.resultVersion.findMany({ where: { examId }, orderBy: { version: "asc" } });
    expect(versions.map((version) => version.cause)).toEqual(["submitted", "regraded"]);
    expect(versions[1]!.reason).toBe("regrade requested");
    expect(Number(versions[1]!.scoreUnits)).toBe(10_000);
  });

  it("an exam without submitted papers queues none; an unknown exam is 404 and audits nothing", async () => {
    const { examId } = await scoredPapers([]);
    const none = await call(POST, { method: "POST", params: { examId }, bearer: adminToken() });
    expect(none.status).toBe(202);
    expect(none.body.queued).toBe(0);
    const unknown = randomUUID();
    expect((await call(POST, { method: "POST", params: { examId: unknown }, bearer: adminToken() })).status).toBe(404);
    expect(await db.auditEvent.count({ where: { examId: unknown } })).toBe(0);
  });
});
