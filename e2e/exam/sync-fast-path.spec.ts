import type { Response } from "@playwright/test";

import { expect, test } from "../fixtures";

import { expectSaved, openExam, question } from "./exam-page";

// The server answers the candidate's sync requests before Next.js's routing (ADR 023), with the handlers it loads
// from Next's build (scripts/start/next-build.mjs, ADR 026). A request that went through Next instead would still
// succeed, only slower, so success proves nothing here: every answer the fast path writes names its route in
// `X-Holdfast-Fast-Path` (docs/sync-protocol.md, "Diagnostic headers"), and Next's answers carry no such header.
// This story watches every sync request a candidate's page makes, from Start to the receipt, and expects each to
// have been answered by the fast route of its kind. (The e2e server runs strict: a build whose routes the worker
// cannot load stops the suite before any spec; this catches a route that loads but is passed by.)

/** The candidate's sync requests, by method and path, and the fast route that must answer each. */
const SYNC_ROUTES = [
  { name: "start", method: "POST", path: /^\/api\/exams\/[^/]+\/attempts$/ },
  { name: "autosave", method: "POST", path: /^\/api\/attempts\/[^/]+\/answers$/ },
  { name: "heartbeat", method: "POST", path: /^\/api\/attempts\/[^/]+\/heartbeat$/ },
  { name: "submit", method: "POST", path: /^\/api\/attempts\/[^/]+\/submit$/ },
  { name: "channel", method: "GET", path: /^\/api\/attempts\/[^/]+\/events$/ },
] as const;

type Served = { route: string; status: number; servedBy: string | undefined };

function syncRouteOf(response: Response) {
  const request = response.request();
  const path = new URL(request.url()).pathname;
  return SYNC_ROUTES.find((route) => route.method === request.method() && route.path.test(path));
}

test.describe("The candidate's sync requests", () => {
  test("are answered by the fast path, from Start through autosaves and heartbeats to the receipt", async ({
    page,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const served: Served[] = [];
    page.on("response", (response) => {
      const route = syncRouteOf(response);
      if (route) {
        served.push({
          route: route.name,
          status: response.status(),
          servedBy: response.headers()["x-holdfast-fast-path"],
        });
      }
    });

    await openExam(page, candidate);
    await question(page, 3).getByLabel("Your answer").fill("ARP");
    await expectSaved(page, [3]);
    await question(page, 1).getByRole("radio").first().check();
    await expectSaved(page, [1]);
    // The page reports its device's status when it becomes the leader tab, and again after a quiet spell.
    await expect.poll(() => served.some((each) => each.route === "heartbeat"), { timeout: 20_000 }).toBe(true);

    await page.getByRole("button", { name: "Review and submit" }).first().click();
    const review = page.getByRole("dialog", { name: "Review and submit" });
    await review.getByRole("button", { name: "Submit now" }).click();
    await expect(page.getByRole("heading", { name: "Your answers were submitted" })).toBeVisible();

    const seen = new Set(served.map((each) => each.route));
    expect([...seen].sort()).toEqual(SYNC_ROUTES.map((route) => route.name).sort());
    for (const each of served) expect(each.status, `${each.route} answered`).toBeLessThan(400);
    expect(served.filter((each) => each.servedBy !== each.route)).toEqual([]);
  });
});
