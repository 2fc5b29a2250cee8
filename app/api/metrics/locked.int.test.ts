// With METRICS_TOKEN set, /api/metrics is for operators only: the metrics token, the admin token, or a
// staff session. The env module reads process.env at import, so this file sets it first.
import { afterAll, describe, expect, it } from "vitest";

const METRICS_TOKEN = "metrics-token-for-tests-0123456789";
process.env.METRICS_TOKEN = METRICS_TOKEN;
// Leave the environment as found for whatever runs next in this worker.
afterAll(() => {
  delete process.env.METRICS_TOKEN;
});

const { GET: metricsRoute } = await import("./route");
const { adminToken, createStaff, signIn } = await import("@/test-support/server/fixtures");
const { startedAttempt } = await import("@/test-support/server/attempts");
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

  it("serves the metrics token, the admin token and staff sessions", async () => {
    const proctor = await createStaff("proctor");
    for (const auth of [
      { bearer: METRICS_TOKEN },
      { bearer: adminToken() },
      { cookie: await signIn(proctor.email, proctor.password) },
    ]) {
      const response = await call<string>(metricsRoute, { path: "/api/metrics", ...auth });
      expect(response.status).toBe(200);
      expect(response.text).toContain("# HELP holdfast_autosave_requests_total");
    }
  });
});
