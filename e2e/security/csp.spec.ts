import { request as playwrightRequest, type BrowserContext, type Page } from "@playwright/test";

import { submitPaper, waitForVersions } from "../candidate/result-helpers";
import { expectReady, expectSaved, missingForOffline, openExam, question } from "../exam/exam-page";
import { expect, OBJECTIVE_TYPES, sampleQuestions, test } from "../fixtures";
import { openDashboard } from "../proctor/dashboard-page";

// The page script policy (issue 18, docs/security.md "Browser protections"): every page is served with a
// Content-Security-Policy whose script-src admits only the scripts stamped with that response's nonce
// (proxy.ts). The pages must still work whole under it — staff pages, the charts (uPlot), the proctor's live
// stream, the candidate's exam page and its offline reload through the service worker — with no report of a
// blocked script, style, connection or worker. And the policy must bite: a script injected into a page
// without the nonce does not run, where the same injection into a page without the policy does.

const OFFLINE_PAGE_HEADING = "This page needs a connection the first time";

/** Every violation the browser reports in `context`, as text; also what it prints to the console about CSP. */
async function watchViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding("holdfastReportViolation", (_source, text: string) => {
    violations.push(text);
  });
  await context.addInitScript(() => {
    document.addEventListener(
      "securitypolicyviolation",
      (event) => {
        const report = (window as unknown as { holdfastReportViolation: (text: string) => void })
          .holdfastReportViolation;
        report(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"} on ${event.documentURI}`);
      },
      true,
    );
  });
  context.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  return violations;
}

/** What an injection into a page's HTML adds (a stored XSS): an inline script and an inline event handler. */
const INJECTED = `<script>window.injectedScriptRan = true;</script><img alt="" src="data:," onerror="window.injectedHandlerRan = true">`;

/**
 * Serves /signin with INJECTED written into its HTML, as the server sent it otherwise (with its policy, or
 * with the policy taken off), and reports which of the two injected scripts ran.
 */
async function injectedScriptsRun(page: Page, withPolicy: boolean): Promise<{ script: boolean; handler: boolean }> {
  await page.route("**/signin", async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    if (!withPolicy) delete headers["content-security-policy"];
    const html = (await response.text()).replace("</body>", `${INJECTED}</body>`);
    await route.fulfill({ response, headers, body: html });
  });
  await page.goto("/signin");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await page.unroute("**/signin");
  return page.evaluate(async () => {
    // The image's error (and its handler, when allowed) comes within a task or two of the page's load.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const flags = window as unknown as { injectedScriptRan?: boolean; injectedHandlerRan?: boolean };
    return { script: flags.injectedScriptRan === true, handler: flags.injectedHandlerRan === true };
  });
}

test.describe("the page script policy", () => {
  test.describe.configure({ timeout: 240_000 });

  test("staff pages, charts, the live dashboard and the exam page, offline too, run with no violation", async ({
    browser,
    page,
    context,
    server,
    adminApi,
    createExam,
    enrollCandidate,
    createStaff,
  }) => {
    const violations = await watchViolations(context);
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    // A second exam, of objective questions, with a scored paper: its results page draws the charts.
    const scoredExam = await createExam({ questions: sampleQuestions({ types: OBJECTIVE_TYPES }) });
    const scoredCandidate = await enrollCandidate(scoredExam.id);
    const candidateApi = await playwrightRequest.newContext({ baseURL: server.baseURL });
    const session = await candidateApi.post("/api/session", { data: { joinToken: scoredCandidate.joinToken } });
    expect(session.status(), await session.text()).toBe(200);
    const attemptId = await submitPaper(candidateApi, scoredExam.id, scoredExam.questionIds, ["b", ["a"], 7]);
    await candidateApi.dispose();
    await waitForVersions(adminApi, attemptId, 1);
    const admin = await createStaff("admin");

    // Sign-in through the form (form-action), then the exams list.
    await page.goto("/signin");
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL("/admin");
    await expect(page.getByRole("link", { name: exam.title })).toBeVisible();

    await page.goto(`/admin/exams/${exam.id}/edit`);
    await expect(page.getByRole("heading", { level: 1, name: `Edit “${exam.title}”` })).toBeVisible();
    await expect(page.getByRole("button", { name: "Save changes" })).toBeVisible();

    await page.goto(`/admin/exams/${scoredExam.id}/results`);
    await expect(page.getByRole("img", { name: /^Totals of 1 paper/ })).toBeVisible();

    await openDashboard(page, exam.id);

    // The candidate, in their own browser: the exam page, a reload that lets the worker keep it, then offline.
    const candidateContext = await browser.newContext({ baseURL: server.baseURL });
    const candidateViolations = await watchViolations(candidateContext);
    const candidatePage = await candidateContext.newPage();
    await openExam(candidatePage, candidate);
    await candidatePage.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await candidatePage.reload();
    await expectReady(candidatePage);
    await question(candidatePage, 3).getByLabel("Your answer").fill("ARP");
    await expectSaved(candidatePage, [3]);
    await expect.poll(() => missingForOffline(candidatePage)).toEqual([]);

    await candidateContext.setOffline(true);
    await candidatePage.reload();
    await expect(candidatePage.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
    await expectReady(candidatePage);
    const answer = question(candidatePage, 3).getByLabel("Your answer");
    await expect(answer).toHaveValue("ARP");
    await answer.fill("ARP, typed offline");
    await expect(answer).toHaveValue("ARP, typed offline");

    // A page never opened here: the worker's own offline page, whose button reloads under its own policy.
    await candidatePage.goto(`/exam/${exam.id}/check`);
    await expect(candidatePage.getByRole("heading", { level: 1, name: OFFLINE_PAGE_HEADING })).toBeVisible();
    await candidatePage.evaluate(() => {
      (window as unknown as { beforeRetry?: boolean }).beforeRetry = true;
    });
    await candidatePage.getByRole("button", { name: "Try again" }).click();
    await expect
      .poll(() => candidatePage.evaluate(() => (window as unknown as { beforeRetry?: boolean }).beforeRetry ?? false))
      .toBe(false);
    await expect(candidatePage.getByRole("heading", { level: 1, name: OFFLINE_PAGE_HEADING })).toBeVisible();
    await candidateContext.close();

    expect(violations, "violations on staff pages").toEqual([]);
    expect(candidateViolations, "violations on the candidate's pages").toEqual([]);
  });

  test.describe("an injected script", () => {
    // Playwright's routing sees a page's requests only when no service worker answers them.
    test.use({ serviceWorkers: "block" });

    test("written into a page without the nonce does not run; the same page without the policy runs it", async ({
      page,
      context,
    }) => {
      const violations = await watchViolations(context);
      // The method can tell the two apart: the same page with its policy taken off runs both.
      expect(await injectedScriptsRun(page, false)).toEqual({ script: true, handler: true });
      expect(violations).toEqual([]);

      expect(await injectedScriptsRun(page, true)).toEqual({ script: false, handler: false });
      await expect
        .poll(() => violations.filter((text) => !text.startsWith("console:")))
        .toEqual(
          expect.arrayContaining([
            expect.stringMatching(/^script-src-elem blocked inline on /),
            expect.stringMatching(/^script-src-attr blocked inline on /),
          ]),
        );
    });
  });
});
