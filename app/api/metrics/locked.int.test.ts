// With METRICS_TOKEN set, /api/metrics is for operators only: the metrics token, the admin token, or an
// admin's session. The env module reads process.env at import, so this file sets it first.
import { afterAll, describe, expect, it } from "vitest";

const METRICS_TOKEN = "metrics-token-for-tests-0123456789";
process.env.METRICS_TOKEN = METRICS_TOKEN;
// Leave the environment as found for whatever runs next in this worker.
afterAll(() => {
  delete process.env.METRICS_TOKEN;
});

const { GET: metricsRoute } = await import("./route");
const { adminToken, createStaff, signIn } = await import("@/test-support/server/fixtures");
const { autosave, startedAttempt } = await import("@/test-support/server/attempts");
const { call } = await import("@/test-support/server/http");

describe("GET /api/metrics with METRICS_TOKEN set", () => {
  it("refuses anonymous callers, candidates and wrong tokens", async () => {
    const anonymous = await call(metricsRoute, { path: "/api/metrics" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe("UNAUTHENTICATED");
    const candidate = await startedAttempt();
    expect((await call(metricsRoute, { path: "/api/metrics", cookie: candidate.cookie })).status).toBe(401);
    expect(
      (await call(metricsRoute, { path: "/api/metrics", bearer: "not-the-token-not-the-token-0000" })).status,
    ).toBe(401);
  });

  it("serves the metrics token, the admin token and an admin's session", async () => {
    const admin = await createStaff("admin");
    for (const auth of [
      { bearer: METRICS_TOKEN },
      { bearer: adminToken() },
      { cookie: await signIn(admin.email, admin.password) },
    ]) {
      const response = await call<string>(metricsRoute, { path: "/api/metrics", ...auth });
      expect(response.status).toBe(200);
      expect(response.text).toContain("# HELP holdfast_autosave_requests_total");
    }
  });

  /**
   * The bug: a proctor's or grader's session was served the whole scrape, whose per-exam gauges name every
   * exam with traffic in the last hour (`exam_id`) with its loss, duplicate and 429 figures — exams the proctor
   * is not assigned to included, whose own health endpoint answers them 404. The cause: the `operator` access
   * accepted what `proctor` accepts. The fix: once METRICS_TOKEN is set, the scrape is for operators only, the
   * metrics token, the admin token or an admin's session; a proctor or grader gets 403. The test above is the
   * legitimate path; lib/server/security/route-roles.int.test.ts found this.
   */
  it("refuses a proctor's and a grader's session, which would read other exams' ids and figures", async () => {
    const busy = await startedAttempt();
    const saved = await autosave(busy, { deviceId: "laptop", answers: [] });
    expect(saved.status).toBe(200);
    for (const role of ["proctor", "grader"] as const) {
      const member = await createStaff(role);
      const response = await call(metricsRoute, {
        path: "/api/metrics",
        cookie: await signIn(member.email, member.password),
      });
      expect(response.status, role).toBe(403);
      expect(response.body.error.code).toBe("FORBIDDEN");
      expect(response.text).not.toContain(busy.examId);
    }
  });
});
