/**
 * Cross-origin staff requests.
 *
 * The bug: staff cookies are SameSite=Lax, which stops another site's POST from carrying them, but not a
 * page on a sibling subdomain (same site, other origin) nor a browser that ignores SameSite. Such a page
 * could create exams, enroll candidates or disable accounts with a signed-in admin's cookie.
 * The cause: nothing looked at where a state-changing request came from.
 * The fix: route() refuses a POST, PUT, PATCH or DELETE on /api/admin, /api/proctor or /api/staff whose
 * `Origin` is neither APP_URL's origin nor the request's own host (403 CROSS_ORIGIN), before anything is
 * read or written. The second half proves the legitimate paths still work: the app's own origin, the host
 * it was reached by, and scripts that send no Origin at all.
 */
import { describe, expect, it } from "vitest";

import { POST as createExamRoute } from "@/app/api/admin/exams/route";
import { GET as listStaffRoute, POST as createStaffRoute } from "@/app/api/admin/staff/route";
import { POST as signInRoute } from "@/app/api/staff/session/route";
import { db } from "@/lib/server/db/client";
import { adminToken, createStaff, signIn, uniqueSuffix } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { sampleQuestions } from "@/test-support/shared/sample-exam";

const newAccount = () => ({ email: `o-${uniqueSuffix()}@holdfast.test`, name: "Origin test", role: "proctor" });

describe("state-changing staff requests from another origin", () => {
  it("are refused with 403 CROSS_ORIGIN and change nothing", async () => {
    const admin = await createStaff("admin");
    const cookie = await signIn(admin.email, admin.password);
    const before = await db.staffUser.count();
    for (const origin of ["https://evil.example", "http://holdfast.test.evil.example", "null"]) {
      const response = await call(createStaffRoute, {
        path: "/api/admin/staff",
        cookie,
        headers: { origin },
        json: newAccount(),
      });
      expect(response.status, origin).toBe(403);
      expect(response.body.error.code).toBe("CROSS_ORIGIN");
    }
    const upload = await call(createExamRoute, {
      path: "/api/admin/exams",
      cookie,
      headers: { origin: "https://evil.example" },
      json: { title: "x", durationSeconds: 60, questions: sampleQuestions() },
    });
    expect(upload.status).toBe(403);
    expect(await db.staffUser.count()).toBe(before);
  });

  it("covers sign-in too (no login CSRF)", async () => {
    const admin = await createStaff("admin");
    const response = await call(signInRoute, {
      path: "/api/staff/session",
      headers: { origin: "https://evil.example" },
      json: { email: admin.email, password: admin.password },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("lets through the app's own origin, the host it was reached by, reads, and scripts without Origin", async () => {
    const admin = await createStaff("admin");
    const cookie = await signIn(admin.email, admin.password);
    const own = await call(createStaffRoute, {
      path: "/api/admin/staff",
      cookie,
      headers: { origin: "http://holdfast.test" },
      json: newAccount(),
    });
    expect(own.status).toBe(201);
    const byHost = await call(createStaffRoute, {
      path: "/api/admin/staff",
      cookie,
      headers: { origin: "https://exams.internal:8443", host: "exams.internal:8443" },
      json: newAccount(),
    });
    expect(byHost.status).toBe(201);
    const read = await call(listStaffRoute, {
      path: "/api/admin/staff",
      cookie,
      headers: { origin: "https://evil.example" },
    });
    expect(read.status).toBe(200);
    const script = await call(createStaffRoute, { path: "/api/admin/staff", bearer: adminToken(), json: newAccount() });
    expect(script.status).toBe(201);
  });
});
