import { describe, expect, it } from "vitest";

import { POST as createExamRoute } from "@/app/api/admin/exams/route";
import { db } from "@/lib/server/db/client";
import { createStaff, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { sampleQuestions } from "@/test-support/shared/sample-exam";

import { DELETE as signOutRoute, POST as signInRoute } from "./route";

const exam = { title: "Auth check", durationSeconds: 600, questions: sampleQuestions() };

describe("staff sign-in", () => {
  it("stores an argon2id hash, never the password", async () => {
    const admin = await createStaff("admin");
    const row = await db.staffUser.findUniqueOrThrow({ where: { id: admin.id } });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.passwordHash).not.toContain(admin.password);
  });

  it("signs in with email (any case) and password, with an httpOnly SameSite cookie", async () => {
    const admin = await createStaff("admin");
    const response = await call(signInRoute, { json: { email: admin.email.toUpperCase(), password: admin.password } });
    expect(response.status).toBe(200);
    expect(response.body.role).toBe("admin");
    expect(response.headers.get("set-cookie")).toMatch(/^holdfast_staff=[^;]+; Path=\/; HttpOnly; SameSite=Lax/);
  });

  it("refuses a wrong password and an unknown email with the same answer", async () => {
    const admin = await createStaff("admin");
    const wrong = await call(signInRoute, { json: { email: admin.email, password: "wrong" } });
    const unknown = await call(signInRoute, { json: { email: "nobody@holdfast.test", password: "wrong" } });
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.body.error).toEqual({ code: "UNAUTHENTICATED", message: "Email or password is incorrect." });
      expect(response.headers.get("set-cookie")).toBeNull();
    }
  });

  it("rotates the session on login: the cookie presented before is dead afterwards", async () => {
    const admin = await createStaff("admin");
    const before = await signIn(admin.email, admin.password);
    const after = await signIn(admin.email, admin.password, before);
    expect(after).not.toBe(before);
    expect((await call(createExamRoute, { json: exam, cookie: before })).status).toBe(401);
    expect((await call(createExamRoute, { json: exam, cookie: after })).status).toBe(201);
  });

  it("logout kills the session on the server, not just the cookie", async () => {
    const admin = await createStaff("admin");
    const cookie = await signIn(admin.email, admin.password);
    const out = await call(signOutRoute, { method: "DELETE", cookie });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await call(createExamRoute, { json: exam, cookie })).status).toBe(401);
  });

  it("an expired session is refused", async () => {
    const admin = await createStaff("admin");
    const cookie = await signIn(admin.email, admin.password);
    await db.session.updateMany({ where: { staffUserId: admin.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await call(createExamRoute, { json: exam, cookie })).status).toBe(401);
  });
});
