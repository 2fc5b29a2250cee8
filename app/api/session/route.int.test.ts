import { describe, expect, it } from "vitest";

import { GET as joinRoute } from "@/app/join/[token]/route";
import { GET as getAttemptRoute } from "@/app/api/attempts/[attemptId]/route";
import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { db } from "@/lib/server/db/client";
import { createExam, enroll, join } from "@/test-support/server/fixtures";
import { call, cookieFrom } from "@/test-support/server/http";

import { DELETE as signOutRoute, POST as sessionRoute } from "./route";

describe("candidate sessions from join links", () => {
  it("POST /api/session exchanges a join token for an httpOnly session cookie bound to the enrollment", async () => {
    const exam = await createExam();
    const [candidate] = await enroll(exam.id);
    const response = await call(sessionRoute, {
      json: { joinToken: candidate!.joinToken },
      headers: { "user-agent": "Phone/1.0" },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ examId: exam.id, enrollmentId: candidate!.id });
    const setCookie = response.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^holdfast_candidate=/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    const session = await db.session.findFirstOrThrow({ where: { enrollmentId: candidate!.id } });
    expect(session).toMatchObject({ kind: "candidate", userAgent: "Phone/1.0" });
  });

  it("GET /join/{token} sets the cookie and lands on the exam's start page; every use is a new, audited session", async () => {
    const exam = await createExam();
    const [candidate] = await enroll(exam.id);
    const first = await call(joinRoute, { params: { token: candidate!.joinToken } });
    const second = await call(joinRoute, { params: { token: candidate!.joinToken } });
    for (const response of [first, second]) {
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe(`/exam/${exam.id}`);
    }
    expect(cookieFrom(first)).not.toBe(cookieFrom(second));
    expect(await db.session.count({ where: { enrollmentId: candidate!.id } })).toBe(2);
    expect(await db.auditEvent.count({ where: { enrollmentId: candidate!.id, action: "candidate.joined" } })).toBe(2);
  });

  it("a bad link lands on the join-problem page, and POST answers 404 or 422", async () => {
    const bad = await call(joinRoute, { params: { token: "made-up-token" } });
    expect(bad.status).toBe(303);
    expect(bad.headers.get("location")).toBe("/join-problem?reason=invalid");
    expect(bad.headers.get("set-cookie")).toBeNull();

    const unknown = await call(sessionRoute, { json: { joinToken: "made-up-token" } });
    expect(unknown.status).toBe(404);
    const missing = await call(sessionRoute, { json: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details.issues[0].path).toBe("joinToken");
  });

  it("revoking a join link kills the link and the sessions made from it", async () => {
    const exam = await createExam();
    const [candidate] = await enroll(exam.id);
    const cookie = await join(candidate!.joinToken);
    const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
    expect(started.status).toBe(201);

    await db.enrollment.update({ where: { id: candidate!.id }, data: { joinRevokedAt: new Date() } });
    const rejoin = await call(sessionRoute, { json: { joinToken: candidate!.joinToken } });
    expect(rejoin.status).toBe(404);
    const read = await call(getAttemptRoute, { params: { attemptId: started.body.attemptId }, cookie });
    expect(read.status).toBe(401);
  });

  it("signing out deletes the session on the server", async () => {
    const exam = await createExam();
    const [candidate] = await enroll(exam.id);
    const cookie = await join(candidate!.joinToken);
    const out = await call(signOutRoute, { method: "DELETE", cookie });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    const after = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
    expect(after.status).toBe(401);
  });
});
