// Deleting an exam races the writes that take its row's key-share lock through a foreign key: a roster
// import and a candidate's start.
//
// The bug: both took an enrollment row first (the import's ON CONFLICT DO UPDATE, the start's FOR SHARE) and
// the exam's key-share lock only at the end of their statement (the foreign key's check), while the delete
// takes the exam FOR UPDATE and then, through its cascade, the enrollments: the opposite order, a deadlock
// (40P01) and a 500 for one of the two. The fix: both take the exam FOR KEY SHARE first
// (docs/sync-protocol.md, "Lock order"). Then exactly one of them goes first, the other waits and answers
// what it finds: 404 once the exam is gone, 409 EXAM_HAS_ATTEMPTS for a delete after a start.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { POST as enrollRoute } from "@/app/api/admin/exams/[examId]/candidates/route";
import { DELETE as deleteExamRoute } from "@/app/api/admin/exams/[examId]/route";
import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { db } from "@/lib/server/db/client";
import { adminToken, createExam, enroll, join, uniqueSuffix } from "@/test-support/server/fixtures";
import { call, type CallResult } from "@/test-support/server/http";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let logged: string[] = [];

beforeEach(() => {
  logged = [];
  for (const method of ["error", "warn"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(" "));
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
});

function deleteExam(examId: string): Promise<CallResult> {
  return call(deleteExamRoute, { method: "DELETE", params: { examId }, bearer: adminToken() });
}

function expectNoDeadlock(responses: CallResult[]): void {
  expect(
    responses.filter((response) => response.status >= 500).map((response) => `${response.status} ${response.text}`),
    logged.join("\n"),
  ).toEqual([]);
  expect(logged.filter((line) => /40P01|deadlock/i.test(line))).toEqual([]);
}

describe("deleting an exam while its roster is imported or its candidates start", () => {
  it("a roster re-import (existing and new candidates) and a delete: one goes first, no deadlock", async () => {
    for (let round = 0; round < 4; round += 1) {
      const exam = await createExam({ status: "draft" });
      const existing = await enroll(exam.id, 1_000);
      const suffix = uniqueSuffix();
      const roster = [
        ...existing.map((candidate, index) => ({ name: `Renamed ${index}`, email: candidate.email })),
        ...Array.from({ length: 1_500 }, (_, index) => ({ name: `New ${index}`, email: `n${index}-${suffix}@x.test` })),
      ];
      // Even rounds start the import first and delete while it runs; odd rounds the other way round.
      const isImportFirst = round % 2 === 0;
      const [imported, deleted] = await Promise.all([
        pause(isImportFirst ? 0 : 5).then(() =>
          call(enrollRoute, { params: { examId: exam.id }, bearer: adminToken(), json: { candidates: roster } }),
        ),
        pause(isImportFirst ? 5 + round * 5 : 0).then(() => deleteExam(exam.id)),
      ]);
      expectNoDeadlock([imported, deleted]);
      expect(deleted.status, deleted.text).toBe(204);
      expect([201, 404], imported.text).toContain(imported.status);
      expect(await db.exam.count({ where: { id: exam.id } })).toBe(0);
      expect(await db.enrollment.count({ where: { examId: exam.id } })).toBe(0);
    }
  }, 120_000);

  it("candidates starting and a delete: the delete sees every attempt that exists, or no start succeeds", async () => {
    for (let round = 0; round < 6; round += 1) {
      const exam = await createExam();
      const candidates = await enroll(exam.id, 12);
      const cookies = await Promise.all(candidates.map((candidate) => join(candidate.joinToken)));
      const starts = cookies.map(async (cookie, index) => {
        await pause(index % 4);
        return call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
      });
      const deleted = pause(round % 3).then(() => deleteExam(exam.id));
      const [started, deleteResponse] = await Promise.all([Promise.all(starts), deleted]);
      expectNoDeadlock([...started, deleteResponse]);
      const created = started.filter((response) => response.status === 201).length;
      if (deleteResponse.status === 204) {
        expect(created).toBe(0);
        expect(await db.attempt.count({ where: { examId: exam.id } })).toBe(0);
      } else {
        expect(deleteResponse.text).toContain('"code":"EXAM_HAS_ATTEMPTS"');
        expect(await db.attempt.count({ where: { examId: exam.id } })).toBe(created);
      }
      for (const response of started) expect([201, 401, 404], response.text).toContain(response.status);
    }
  }, 120_000);
});
