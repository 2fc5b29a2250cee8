import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { GET as getAttemptRoute } from "@/app/api/attempts/[attemptId]/route";
import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { POST as sessionRoute } from "@/app/api/session/route";
import { db } from "@/lib/server/db/client";
import { adminToken, createExam, createStaff, enroll, join, signIn } from "@/test-support/server/fixtures";
import { call, cookieFrom } from "@/test-support/server/http";

import { POST as joinLinkRoute } from "./route";

function changeLink(examId: string, enrollmentId: string, action: string, auth: { cookie?: string } = {}) {
  return call(joinLinkRoute, {
    params: { examId, enrollmentId },
    json: { action },
    ...(auth.cookie ? { cookie: auth.cookie } : { bearer: adminToken() }),
  });
}

const tokenOf = (url: string) => decodeURIComponent(url.split("/join/")[1]!);

describe("POST /api/admin/exams/{examId}/candidates/{enrollmentId}/join-link", () => {
  it("revoke: the old link is refused and the candidate's open session ends at once; reissue: a new link works", async () => {
    const exam = await createExam();
    const [candidate] = await enroll(exam.id);
    const cookie = await join(candidate!.joinToken);
    const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
    expect(started.status).toBe(201);

    const revoked = await changeLink(exam.id, candidate!.id, "revoke");
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ joinLink: { status: "revoked", generation: 2 }, endedSessions: 1 });
    expect((await call(sessionRoute, { json: { joinToken: candidate!.joinToken } })).status).toBe(404);
    expect((await call(getAttemptRoute, { params: { attemptId: started.body.attemptId }, cookie })).status).toBe(401);

    // Revoking again changes nothing.
    const again = await changeLink(exam.id, candidate!.id, "revoke");
    expect(again.body).toMatchObject({ joinLink: { status: "revoked", generation: 2 }, endedSessions: 0 });

    const reissued = await changeLink(exam.id, candidate!.id, "reissue");
    expect(reissued.body.joinLink).toMatchObject({ status: "active", generation: 3 });
    const newToken = tokenOf(reissued.body.joinLink.url);
    expect(newToken).not.toBe(candidate!.joinToken);
    expect((await call(sessionRoute, { json: { joinToken: candidate!.joinToken } })).status).toBe(404);
    const rejoined = await call(sessionRoute, { json: { joinToken: newToken } });
    expect(rejoined.status).toBe(200);
    // The same attempt, with what it held: the candidate carries on where they were.
    const read = await call(getAttemptRoute, {
      params: { attemptId: started.body.attemptId },
      cookie: cookieFrom(rejoined),
    });
    expect(read.status).toBe(200);
    expect(
      await db.auditEvent.count({
        where: { enrollmentId: candidate!.id, action: { startsWith: "enrollment.join_link" } },
      }),
    ).toBe(2);
  });

  it("reissue without a revoke first also ends the old link and its sessions", async () => {
    const exam = await createExam();
    const [candidate] = await enroll(exam.id);
    const cookie = await join(candidate!.joinToken);
    const reissued = await changeLink(exam.id, candidate!.id, "reissue");
    expect(reissued.body).toMatchObject({ joinLink: { status: "active", generation: 2 }, endedSessions: 1 });
    expect((await call(sessionRoute, { json: { joinToken: candidate!.joinToken } })).status).toBe(404);
    expect((await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie })).status).toBe(401);
  });

  it("a revoke racing 20 joins on the old link leaves no session alive on it", async () => {
    for (let round = 0; round < 3; round++) {
      const exam = await createExam();
      const [candidate] = await enroll(exam.id);
      const joins = Array.from({ length: 20 }, () => call(sessionRoute, { json: { joinToken: candidate!.joinToken } }));
      const [revoke, ...joined] = await Promise.all([changeLink(exam.id, candidate!.id, "reissue"), ...joins]);
      expect(revoke.status).toBe(200);
      expect(joined.every((r) => r.status === 200 || r.status === 404)).toBe(true);
      expect(await db.session.count({ where: { enrollmentId: candidate!.id } })).toBe(0);
      for (const response of joined.filter((r) => r.status === 200)) {
        const after = await call(startAttemptRoute, {
          method: "POST",
          params: { examId: exam.id },
          cookie: cookieFrom(response),
        });
        expect(after.status).toBe(401);
      }
    }
  });

  it("is for admins only; another exam's candidate or a bad action changes nothing", async () => {
    const exam = await createExam();
    const other = await createExam();
    const [candidate] = await enroll(exam.id);
    const proctor = await createStaff("proctor");
    const cookie = await signIn(proctor.email, proctor.password);
    expect((await changeLink(exam.id, candidate!.id, "revoke", { cookie })).status).toBe(403);
    expect((await changeLink(other.id, candidate!.id, "revoke")).status).toBe(404);
    expect((await changeLink(exam.id, randomUUID(), "revoke")).status).toBe(404);
    expect((await changeLink(exam.id, candidate!.id, "delete")).status).toBe(422);
    const row = await db.enrollment.findUniqueOrThrow({ where: { id: candidate!.id } });
    expect(row).toMatchObject({ tokenGeneration: 1, joinRevokedAt: null });
  });
});
