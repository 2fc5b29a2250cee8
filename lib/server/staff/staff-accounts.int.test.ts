import { describe, expect, it } from "vitest";

import { GET as proctorsRoute } from "@/app/api/admin/exams/[examId]/proctors/route";
import { DELETE as unassignRoute, PUT as assignRoute } from "@/app/api/admin/exams/[examId]/proctors/[staffId]/route";
import { POST as resetRoute } from "@/app/api/admin/staff/[staffId]/password-reset/route";
import { PATCH as updateRoute } from "@/app/api/admin/staff/[staffId]/route";
import { GET as listStaffRoute, POST as createStaffRoute } from "@/app/api/admin/staff/route";
import { GET as candidatesRoute } from "@/app/api/proctor/exams/[examId]/candidates/route";
import { PUT as passwordRoute } from "@/app/api/staff/password/route";
import { POST as signInRoute } from "@/app/api/staff/session/route";
import { DELETE as everywhereRoute } from "@/app/api/staff/sessions/route";
import { db } from "@/lib/server/db/client";
import { listAssignableStaff, listExamStaff } from "@/lib/server/staff/exam-staff";
import { adminToken, createExam, createStaff, signIn, uniqueSuffix } from "@/test-support/server/fixtures";
import { call, cookieFrom } from "@/test-support/server/http";

async function adminSession(): Promise<{ id: string; cookie: string }> {
  const admin = await createStaff("admin");
  return { id: admin.id, cookie: await signIn(admin.email, admin.password) };
}

async function createAccount(cookie: string, role: "admin" | "proctor") {
  const email = `new-${role}-${uniqueSuffix()}@holdfast.test`;
  const response = await call(createStaffRoute, {
    path: "/api/admin/staff",
    cookie,
    json: { email, name: `New ${role}`, role },
  });
  expect(response.status, response.text).toBe(201);
  return {
    id: response.body.account.id as string,
    email,
    temporaryPassword: response.body.temporaryPassword as string,
  };
}

const disable = (cookie: string, staffId: string, disabled = true) =>
  call(updateRoute, {
    method: "PATCH",
    path: `/api/admin/staff/${staffId}`,
    params: { staffId },
    cookie,
    json: { disabled },
  });

describe("staff accounts", () => {
  it("an admin creates a proctor with a temporary password that must be changed before anything else", async () => {
    const admin = await adminSession();
    const created = await createAccount(admin.cookie, "proctor");
    expect(created.temporaryPassword).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){5}$/);

    const listed = await call(listStaffRoute, { cookie: admin.cookie });
    expect(listed.body.staff).toContainEqual(
      expect.objectContaining({ id: created.id, role: "proctor", mustChangePassword: true, disabledAt: null }),
    );
    expect(JSON.stringify(listed.body)).not.toContain(created.temporaryPassword);

    const signedIn = await call(signInRoute, { json: { email: created.email, password: created.temporaryPassword } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.mustChangePassword).toBe(true);
    const cookie = cookieFrom(signedIn);

    const exam = await createExam();
    const blocked = await call(candidatesRoute, { params: { examId: exam.id }, cookie });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe("PASSWORD_CHANGE_REQUIRED");

    const weak = await call(passwordRoute, {
      method: "PUT",
      cookie,
      json: { currentPassword: created.temporaryPassword, newPassword: "short" },
    });
    expect(weak.status).toBe(422);
    expect(weak.body.error).toMatchObject({ code: "WEAK_PASSWORD", details: { reason: "too_short" } });
    const wrongCurrent = await call(passwordRoute, {
      method: "PUT",
      cookie,
      json: { currentPassword: "not the password", newPassword: "my very own passphrase" },
    });
    expect(wrongCurrent.body.error.code).toBe("CURRENT_PASSWORD_INCORRECT");
    expect((await db.staffUser.findUniqueOrThrow({ where: { id: created.id } })).mustChangePassword).toBe(true);

    const changed = await call(passwordRoute, {
      method: "PUT",
      cookie,
      json: { currentPassword: created.temporaryPassword, newPassword: "my very own passphrase" },
    });
    expect(changed.status).toBe(204);
    // Still signed in on the same session, now unblocked (no assignment yet: 404, not 403).
    expect((await call(candidatesRoute, { params: { examId: exam.id }, cookie })).status).toBe(404);
    const again = await call(signInRoute, { json: { email: created.email, password: created.temporaryPassword } });
    expect(again.status).toBe(401);
  });

  it("refuses a duplicate email and an invalid role, changing nothing", async () => {
    const admin = await adminSession();
    const created = await createAccount(admin.cookie, "proctor");
    const before = await db.staffUser.count();
    const duplicate = await call(createStaffRoute, {
      cookie: admin.cookie,
      json: { email: created.email.toUpperCase(), name: "Again", role: "admin" },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe("STAFF_EMAIL_TAKEN");
    const badRole = await call(createStaffRoute, {
      cookie: admin.cookie,
      json: { email: `x-${uniqueSuffix()}@holdfast.test`, name: "X", role: "owner" },
    });
    expect(badRole.status).toBe(422);
    expect(await db.staffUser.count()).toBe(before);
  });

  it("disabling ends the account's sessions at once; enabling lets it sign in again", async () => {
    const admin = await adminSession();
    const proctor = await createStaff("proctor");
    const exam = await createExam();
    const cookies = await Promise.all([
      signIn(proctor.email, proctor.password),
      signIn(proctor.email, proctor.password),
    ]);
    await call(assignRoute, { method: "PUT", params: { examId: exam.id, staffId: proctor.id }, cookie: admin.cookie });
    for (const cookie of cookies) {
      expect((await call(candidatesRoute, { params: { examId: exam.id }, cookie })).status).toBe(200);
    }

    const disabled = await disable(admin.cookie, proctor.id);
    expect(disabled.status).toBe(200);
    expect(disabled.body.account.disabledAt).not.toBeNull();
    expect(await db.session.count({ where: { staffUserId: proctor.id } })).toBe(0);
    for (const cookie of cookies) {
      expect((await call(candidatesRoute, { params: { examId: exam.id }, cookie })).status).toBe(401);
    }
    const refused = await call(signInRoute, { json: { email: proctor.email, password: proctor.password } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("ACCOUNT_DISABLED");
    const wrongPassword = await call(signInRoute, { json: { email: proctor.email, password: "wrong" } });
    expect(wrongPassword.body.error.code).toBe("UNAUTHENTICATED");

    expect((await disable(admin.cookie, proctor.id, false)).body.account.disabledAt).toBeNull();
    expect((await call(signInRoute, { json: { email: proctor.email, password: proctor.password } })).status).toBe(200);
  });

  it("a session created by a sign-in racing the disable is refused too", async () => {
    const admin = await adminSession();
    const proctor = await createStaff("proctor");
    const cookie = await signIn(proctor.email, proctor.password);
    // As if the sign-in's insert landed after the disable's delete: the row is there, the account disabled.
    expect((await call(listStaffRoute, { cookie })).status).toBe(403);
    await db.staffUser.update({ where: { id: proctor.id }, data: { disabledAt: new Date() } });
    expect((await call(listStaffRoute, { cookie })).status).toBe(401);
    await db.staffUser.update({ where: { id: proctor.id }, data: { disabledAt: null } });
    expect((await call(listStaffRoute, { cookie: admin.cookie })).status).toBe(200);
  });

  it("requests racing a disable are refused from the moment it commits", async () => {
    const admin = await adminSession();
    const proctor = await createStaff("proctor");
    const exam = await createExam();
    await call(assignRoute, { method: "PUT", params: { examId: exam.id, staffId: proctor.id }, cookie: admin.cookie });
    const cookie = await signIn(proctor.email, proctor.password);
    const timed = async () => {
      const response = await call(candidatesRoute, { params: { examId: exam.id }, cookie });
      return { status: response.status, at: performance.now() };
    };
    const before = Array.from({ length: 10 }, timed);
    const disabling = disable(admin.cookie, proctor.id).then((r) => ({ status: r.status, at: performance.now() }));
    const during = Array.from({ length: 10 }, timed);
    const results = await Promise.all([...before, ...during]);
    const disabled = await disabling;
    expect(disabled.status).toBe(200);
    for (const result of results) expect([200, 401]).toContain(result.status);
    // Every request that started after the disable answered is refused.
    const after = await Promise.all(Array.from({ length: 5 }, timed));
    for (const result of after) expect(result.status).toBe(401);
  });

  it("an admin cannot disable themselves, and the last active admin cannot be disabled, even by two at once", async () => {
    const a = await adminSession();
    const b = await adminSession();
    const self = await disable(a.cookie, a.id);
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe("CANNOT_DISABLE_SELF");

    // Only a and b are active admins while this runs.
    const others = await db.staffUser.findMany({
      where: { role: "admin", disabledAt: null, id: { notIn: [a.id, b.id] } },
      select: { id: true },
    });
    await db.staffUser.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { disabledAt: new Date() } });
    try {
      const [ab, ba] = await Promise.all([disable(a.cookie, b.id), disable(b.cookie, a.id)]);
      const statuses = [ab.status, ba.status].sort();
      // One wins; the loser is either the last admin now, or was disabled itself (its session ended).
      expect(statuses[0]).toBe(200);
      expect([401, 409]).toContain(statuses[1]);
      expect(await db.staffUser.count({ where: { role: "admin", disabledAt: null } })).toBe(1);
    } finally {
      await db.staffUser.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { disabledAt: null } });
    }
  });

  it("the last active admin is refused by the bearer token too", async () => {
    const a = await adminSession();
    const others = await db.staffUser.findMany({
      where: { role: "admin", disabledAt: null, id: { not: a.id } },
      select: { id: true },
    });
    await db.staffUser.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { disabledAt: new Date() } });
    try {
      const response = await call(updateRoute, {
        method: "PATCH",
        params: { staffId: a.id },
        bearer: adminToken(),
        json: { disabled: true },
      });
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe("LAST_ADMIN");
      expect((await db.staffUser.findUniqueOrThrow({ where: { id: a.id } })).disabledAt).toBeNull();
    } finally {
      await db.staffUser.updateMany({ where: { id: { in: others.map((o) => o.id) } }, data: { disabledAt: null } });
    }
  });

  it("a reset ends the sessions and shows a temporary password; two admins resetting at once: one wins, one is told", async () => {
    const a = await adminSession();
    const b = await adminSession();
    const proctor = await createStaff("proctor");
    const proctorCookie = await signIn(proctor.email, proctor.password);
    const listed = await call(listStaffRoute, { cookie: a.cookie });
    const version = listed.body.staff.find((s: { id: string }) => s.id === proctor.id).passwordChangedAt as string;

    const reset = (cookie: string) =>
      call(resetRoute, { params: { staffId: proctor.id }, cookie, json: { passwordChangedAt: version } });
    const [ra, rb] = await Promise.all([reset(a.cookie), reset(b.cookie)]);
    const winner = ra.status === 200 ? ra : rb;
    const loser = ra.status === 200 ? rb : ra;
    expect(winner.status).toBe(200);
    expect(loser.status).toBe(409);
    expect(loser.body.error.code).toBe("STAFF_CHANGED");
    expect(loser.body.error.details.account.id).toBe(proctor.id);

    expect((await call(listStaffRoute, { cookie: proctorCookie })).status).toBe(401);
    expect((await call(signInRoute, { json: { email: proctor.email, password: proctor.password } })).status).toBe(401);
    const withTemporary = await call(signInRoute, {
      json: { email: proctor.email, password: winner.body.temporaryPassword },
    });
    expect(withTemporary.status).toBe(200);
    expect(withTemporary.body.mustChangePassword).toBe(true);

    const unversioned = await call(resetRoute, { params: { staffId: proctor.id }, cookie: a.cookie });
    expect(unversioned.status).toBe(200);
  });

  it("sign out everywhere ends every session of the caller, and only theirs", async () => {
    const staff = await createStaff("proctor");
    const other = await createStaff("proctor");
    const [one, two] = [await signIn(staff.email, staff.password), await signIn(staff.email, staff.password)];
    const otherCookie = await signIn(other.email, other.password);
    const out = await call(everywhereRoute, { method: "DELETE", cookie: one });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect(await db.session.count({ where: { staffUserId: staff.id } })).toBe(0);
    expect((await call(everywhereRoute, { method: "DELETE", cookie: two })).status).toBe(401);
    expect(await db.session.count({ where: { staffUserId: other.id } })).toBe(1);
    expect(otherCookie).toBeTruthy();
  });

  it("changing one's own password ends the other sessions and keeps this one", async () => {
    const staff = await createStaff("admin");
    const here = await signIn(staff.email, staff.password);
    const elsewhere = await signIn(staff.email, staff.password);
    const same = await call(passwordRoute, {
      method: "PUT",
      cookie: here,
      json: { currentPassword: staff.password, newPassword: staff.password },
    });
    expect(same.body.error).toMatchObject({ code: "WEAK_PASSWORD", details: { reason: "unchanged" } });
    const changed = await call(passwordRoute, {
      method: "PUT",
      cookie: here,
      json: { currentPassword: staff.password, newPassword: "a different long passphrase" },
    });
    expect(changed.status).toBe(204);
    expect((await call(listStaffRoute, { cookie: here })).status).toBe(200);
    expect((await call(listStaffRoute, { cookie: elsewhere })).status).toBe(401);
  });

  it("assigns and unassigns proctors (idempotent, even at once); a proctor sees only assigned exams", async () => {
    const admin = await adminSession();
    const proctor = await createStaff("proctor");
    const [mine, other] = await Promise.all([createExam(), createExam()]);
    const params = { examId: mine.id, staffId: proctor.id };
    const assigned = await Promise.all(
      Array.from({ length: 3 }, () => call(assignRoute, { method: "PUT", params, cookie: admin.cookie })),
    );
    for (const response of assigned) expect(response.status).toBe(204);
    expect(await db.examProctor.count({ where: { examId: mine.id } })).toBe(1);
    const list = await call(proctorsRoute, { params: { examId: mine.id }, cookie: admin.cookie });
    expect(list.body.proctors).toEqual([expect.objectContaining({ id: proctor.id, email: proctor.email })]);

    const cookie = await signIn(proctor.email, proctor.password);
    expect((await call(candidatesRoute, { params: { examId: mine.id }, cookie })).status).toBe(200);
    expect((await call(candidatesRoute, { params: { examId: other.id }, cookie })).status).toBe(404);

    const notProctor = await call(assignRoute, {
      method: "PUT",
      params: { examId: mine.id, staffId: admin.id },
      cookie: admin.cookie,
    });
    expect(notProctor.status).toBe(422);
    const missingExam = await call(assignRoute, {
      method: "PUT",
      params: { examId: "0190a8a4-0000-7000-8000-000000000000", staffId: proctor.id },
      cookie: admin.cookie,
    });
    expect(missingExam.status).toBe(404);

    expect((await call(unassignRoute, { method: "DELETE", params, cookie: admin.cookie })).status).toBe(204);
    expect((await call(unassignRoute, { method: "DELETE", params, cookie: admin.cookie })).status).toBe(204);
    expect((await call(candidatesRoute, { params: { examId: mine.id }, cookie })).status).toBe(404);
  });

  it("offers only active proctors for assignment and refuses a disabled one; one already assigned stays listed", async () => {
    const admin = await adminSession();
    const [active, disabled] = await Promise.all([createStaff("proctor"), createStaff("proctor")]);
    const exam = await createExam();
    const assign = (staffId: string) =>
      call(assignRoute, { method: "PUT", params: { examId: exam.id, staffId }, cookie: admin.cookie });
    expect((await assign(disabled.id)).status).toBe(204);
    expect((await disable(admin.cookie, disabled.id)).status).toBe(200);

    const assignable = (await listAssignableStaff({ role: "proctor" })).map((proctor) => proctor.id);
    expect(assignable).toContain(active.id);
    expect(assignable).not.toContain(disabled.id);
    expect(await listExamStaff({ examId: exam.id, role: "proctor" })).toEqual([
      expect.objectContaining({ id: disabled.id, disabled: true }),
    ]);

    const other = await createExam();
    const refused = await call(assignRoute, {
      method: "PUT",
      params: { examId: other.id, staffId: disabled.id },
      cookie: admin.cookie,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("VALIDATION_FAILED");
    expect(await db.examProctor.count({ where: { examId: other.id } })).toBe(0);

    // Still removable from the exam it was assigned to before it was disabled.
    const removed = await call(unassignRoute, {
      method: "DELETE",
      params: { examId: exam.id, staffId: disabled.id },
      cookie: admin.cookie,
    });
    expect(removed.status).toBe(204);
    expect(await listExamStaff({ examId: exam.id, role: "proctor" })).toEqual([]);
  });
});
