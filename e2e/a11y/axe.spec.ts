import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { expect, test } from "../fixtures";
import { startThroughApi } from "../proctor/dashboard-page";
import { withHotspotItem } from "../qti-packages";
import { essayExamWithPapers } from "../admin/grading-data";
import { markedQuestions, objectiveQuestions, paperWithVersions, submitPaper } from "../candidate/result-helpers";
import { startWebhookReceiver } from "../admin/webhook-receiver";
import { upgradeStoreAsNewerRelease } from "../exam/exam-page";

// Every page and state people reach, in both languages, checked with axe-core against WCAG 2.2 AA: no
// serious or critical violation. Selectors here avoid words, so one test serves both languages.

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

async function expectAccessible(page: Page, state: string, locale: string) {
  // A router.refresh() in flight (after a save, say) drops the streamed <title> until its metadata arrives
  // again: axe looks at the page once that has settled. A page with no title at all still fails here.
  await expect(page, `${state} [${locale}] has a title`).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const summary = serious.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join(", ")}`,
  );
  expect(summary, `${state} [${locale}]`).toEqual([]);
}

/** The signed-in candidate (a join link opened in `page`) starts the exam through the API and opens its page. */
async function startAndOpenExam(page: Page, examId: string): Promise<string> {
  const started = await page.request.post(`/api/exams/${examId}/attempts`);
  expect([200, 201]).toContain(started.status());
  const { attemptId } = (await started.json()) as { attemptId: string };
  await page.goto(`/attempts/${attemptId}`);
  await expect(page.locator("textarea").first()).toBeEditable();
  return attemptId;
}

for (const locale of ["en-US", "zh-CN"] as const) {
  const lang = locale === "zh-CN" ? "zh-CN" : "en";

  test.describe(`axe, ${locale}`, () => {
    test.use({ locale });
    // axe walks the whole DOM once per state, on two shared cores.
    test.describe.configure({ timeout: 180_000 });

    test("staff pages: sign-in, admin, proctor list, dashboard with the drawer open", async ({
      browser,
      page,
      createExam,
      enrollCandidate,
      createStaff,
      assignProctor,
      signIn,
    }) => {
      await page.goto("/signin");
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await expectAccessible(page, "sign-in", locale);

      const exam = await createExam();
      const candidate = await enrollCandidate(exam.id);
      const admin = await createStaff("admin");
      await signIn(page.context(), admin);
      await page.goto("/admin");
      await expect(page.getByRole("link", { name: exam.title })).toBeVisible();
      await expectAccessible(page, "admin exam list", locale);
      await page.goto(`/admin/exams/${exam.id}`);
      await expect(page.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
      await expectAccessible(page, "admin exam page", locale);

      const proctor = await createStaff("proctor");
      await assignProctor(exam.id, proctor);
      const proctorContext = await browser.newContext({ locale });
      const proctorPage = await proctorContext.newPage();
      await signIn(proctorContext, proctor);
      await proctorPage.goto("/proctor");
      await expect(proctorPage.getByRole("link", { name: exam.title })).toBeVisible();
      await expectAccessible(proctorPage, "proctor exam list", locale);
      await proctorPage.goto(`/proctor/exams/${exam.id}`);
      const row = proctorPage.getByRole("row").filter({ hasText: candidate.name });
      await expect(row).toBeVisible();
      await expectAccessible(proctorPage, "dashboard", locale);
      await row.getByRole("button").first().click();
      await expect(proctorPage.getByRole("dialog", { name: candidate.name })).toBeVisible();
      await expectAccessible(proctorPage, "dashboard, drawer open", locale);
      await proctorContext.close();
    });

    test("candidate pages: start, check, exam online, offline, review, submitted; problem pages", async ({
      page,
      context,
      createExam,
      enrollCandidate,
      adminApi,
    }) => {
      const exam = await createExam();
      const candidate = await enrollCandidate(exam.id);
      await page.goto(candidate.joinUrl);
      await expect(page).toHaveURL(new RegExp(`/exam/${exam.id}$`));
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await expectAccessible(page, "exam start page", locale);

      await page.goto(`/exam/${exam.id}/check`);
      await expect(page.locator("main h1")).toBeVisible();
      await expectAccessible(page, "pre-exam check", locale);

      const attemptId = await startAndOpenExam(page, exam.id);
      await expectAccessible(page, "exam page, online", locale);

      await context.setOffline(true);
      await page.locator("textarea").first().fill("typed while offline");
      await expect(page.locator(".exam__bar")).toContainText(/1/);
      await expectAccessible(page, "exam page, offline", locale);
      await context.setOffline(false);

      await page.locator(".exam__submit-top").click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await expectAccessible(page, "review dialog", locale);
      await page.keyboard.press("Escape");

      const forced = await adminApi.post(`/api/proctor/attempts/${attemptId}/force-submit`, {
        data: { reason: "axe check" },
      });
      expect(forced.status(), await forced.text()).toBe(200);
      await page.reload();
      await expect(page.locator("section.final").first()).toBeVisible();
      await expectAccessible(page, "submitted", locale);

      await page.goto("/join/not-a-valid-token");
      await expectAccessible(page, "join problem", locale);
      await page.goto("/no-such-page");
      await expectAccessible(page, "not found", locale);
    });

    test("exam page whose device store a newer release has taken (the reload notice)", async ({
      page,
      context,
      createExam,
      enrollCandidate,
    }) => {
      const exam = await createExam();
      const candidate = await enrollCandidate(exam.id);
      await page.goto(candidate.joinUrl);
      await startAndOpenExam(page, exam.id);

      const other = await context.newPage();
      await other.goto("/");
      await upgradeStoreAsNewerRelease(other);
      await other.close();
      await expect(page.locator(".notice--action[role=alert]")).toBeVisible();
      await expect(page.locator(".connection-status--stopped")).toBeVisible();
      await expectAccessible(page, "exam page, store taken by a newer release", locale);
    });

    // ---- Exam authoring (issue 13): the editor, its edit conflict and its preview ---------------------
    test("exam editor: editing, conflict, preview", async ({ page, createExam, createStaff, signIn, adminApi }) => {
      const exam = await createExam({ status: "draft" });
      const admin = await createStaff("admin");
      await signIn(page.context(), admin);
      await page.goto(`/admin/exams/${exam.id}/edit`);
      await expect(page.locator("main h1")).toBeVisible();
      await expect(page.locator("fieldset textarea").first()).toBeVisible();
      await expectAccessible(page, "exam editor", locale);

      // Someone else saves behind this page's back; this page's save then meets the conflict.
      const theirs = await adminApi.patch(`/api/admin/exams/${exam.id}`, { data: { revision: 1, title: "Theirs" } });
      expect(theirs.status(), await theirs.text()).toBe(200);
      await page.locator("#exam-title").fill("Mine");
      await page.locator("button[type=submit]").click();
      await expect(page.locator("#conflict-heading")).toBeVisible();
      await expectAccessible(page, "exam editor, edit conflict", locale);

      await page.getByRole("button", { name: locale === "zh-CN" ? "以考生身份预览" : "Preview as candidate" }).click();
      await expect(page.getByRole("note")).toBeVisible();
      await expectAccessible(page, "exam preview", locale);
    });
  });
}

// --- The API reference page (/admin/api) -------------------------------------------------------------------
for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, API reference, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("the API reference, as a proctor sees it", async ({ page, createStaff, signIn }) => {
      await signIn(page.context(), await createStaff("proctor"));
      await page.goto("/admin/api");
      await expect(page.locator("html")).toHaveAttribute("lang", locale === "zh-CN" ? "zh-CN" : "en");
      await expect(page.locator("#op-createExam")).toBeVisible();
      await expectAccessible(page, "API reference", locale);
    });
  });
}

// ---- Enrollment (admin candidates page, CSV preview with errors, join slips) ----------------------------

for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, enrollment, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("candidates page: list, CSV preview with an error line, extra-time editor; join slips", async ({
      page,
      createExam,
      enrollCandidate,
      createStaff,
      signIn,
    }) => {
      const exam = await createExam();
      const candidate = await enrollCandidate(exam.id, { extraSeconds: 600 });
      await enrollCandidate(exam.id);
      const admin = await createStaff("admin");
      await signIn(page.context(), admin);

      await page.goto(`/admin/exams/${exam.id}/candidates`);
      await expect(page.getByRole("row").filter({ hasText: candidate.email })).toBeVisible();
      await expectAccessible(page, "candidates page", locale);

      await page.locator("#csv-text").fill("name,email,extra_minutes\nAda,not-an-email,-1\n");
      await page.locator("button", { hasText: /^(Check the file|检查文件)$/ }).click();
      await expect(page.locator("#csv-preview-heading")).toBeVisible();
      await expectAccessible(page, "CSV preview with errors", locale);

      await page.locator("#add-name").focus();
      await page.locator("#add-email").fill("not an email");
      await page.locator("#add-email").blur();
      await expect(page.locator("#add-email")).toHaveAttribute("aria-invalid", "true");
      await expectAccessible(page, "add form with an inline error", locale);

      await page.getByRole("row").filter({ hasText: candidate.email }).locator("button.link-button").click();
      await expect(page.locator(`#extra-${candidate.id}`)).toBeFocused();
      await expectAccessible(page, "extra-time editor open", locale);

      await page.goto(`/admin/exams/${exam.id}/candidates/slips`);
      await expect(page.locator("li svg")).toHaveCount(2);
      await expectAccessible(page, "join slips", locale);
    });
  });
}

// ---- Staff accounts and the account page (issue 13) ----------------------------------------------------
for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, staff accounts, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("staff accounts with a temporary password shown; account page, forced and ordinary", async ({
      page,
      browser,
      createStaff,
      createExam,
      assignProctor,
      signIn,
    }) => {
      const admin = await createStaff("admin");
      const proctor = await createStaff("proctor");
      const exam = await createExam();
      await assignProctor(exam.id, proctor);
      await signIn(page.context(), admin);
      await page.goto("/admin/staff");
      await expect(page.getByRole("row").filter({ hasText: proctor.email })).toBeVisible();
      await expectAccessible(page, "staff accounts", locale);

      const created = await page.request.post("/api/admin/staff", {
        data: { email: `axe-${Date.now()}-${locale}@example.org`, name: "Axe Check", role: "proctor" },
      });
      expect(created.status()).toBe(201);
      const { account, temporaryPassword } = (await created.json()) as {
        account: { email: string };
        temporaryPassword: string;
      };
      await page.getByRole("row").filter({ hasText: proctor.email }).getByRole("button").last().click();
      // The in-page confirmation: its last button goes ahead.
      await page.getByRole("dialog").getByRole("button").last().click();
      await expect(page.getByTestId("temporary-password")).toBeVisible();
      await expectAccessible(page, "staff accounts, temporary password shown", locale);

      await page.goto(`/admin/exams/${exam.id}`);
      await expectAccessible(page, "admin exam page with proctors", locale);

      await page.goto("/account");
      await expectAccessible(page, "account", locale);

      const forced = await browser.newContext({ locale });
      try {
        const forcedPage = await forced.newPage();
        const { email } = account;
        const response = await forced.request.post("/api/staff/session", {
          data: { email, password: temporaryPassword },
        });
        expect(response.status()).toBe(200);
        await forcedPage.goto("/proctor");
        await expect(forcedPage).toHaveURL(/\/account\?next=/);
        await expectAccessible(forcedPage, "account, password change required", locale);
      } finally {
        await forced.close();
      }
    });
  });
}

// ---- QTI 3.0 import preview in the exam editor (issue 13) -------------------------------------------------
for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, QTI import, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("the import preview with an unsupported item, and a refused file", async ({
      page,
      createStaff,
      createExam,
      signIn,
      adminApi,
    }) => {
      const source = await createExam();
      const target = await createExam({ status: "draft", questions: [] });
      const exported = await adminApi.get(`/api/admin/exams/${source.id}/qti`);
      expect(exported.status()).toBe(200);
      await signIn(page.context(), await createStaff("admin"));
      await page.goto(`/admin/exams/${target.id}/edit`);
      const picker = page.locator('input[type="file"][accept*="zip"]');
      await picker.setInputFiles({
        name: "bank.zip",
        mimeType: "application/zip",
        buffer: withHotspotItem(await exported.body()),
      });
      await expect(page.getByTestId("qti-preview").getByRole("listitem")).toHaveCount(6);
      await expectAccessible(page, "QTI import preview", locale);

      await picker.setInputFiles({ name: "broken.zip", mimeType: "application/zip", buffer: Buffer.from("not a zip") });
      await expect(picker).toHaveAttribute("aria-invalid", "true");
      await expectAccessible(page, "QTI import, a refused file", locale);
    });
  });
}

// ---- Audit log (issue 14) ------------------------------------------------------------------------------
for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, audit log, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 120_000 });

    test("the audit log with entries, filtered to nothing, and with invalid filters", async ({
      page,
      createStaff,
      createExam,
      enrollCandidate,
      signIn,
    }) => {
      const admin = await createStaff("admin");
      const exam = await createExam();
      const candidate = await enrollCandidate(exam.id);
      await signIn(page.context(), admin);
      const revoked = await page.request.post(`/api/admin/exams/${exam.id}/candidates/${candidate.id}/join-link`, {
        data: { action: "revoke" },
      });
      expect(revoked.status()).toBe(200);

      await page.goto(`/admin/audit?examId=${exam.id}`);
      await expect(page.getByRole("rowheader").first()).toBeVisible();
      await expectAccessible(page, "audit log", locale);

      await page.goto(`/admin/audit?examId=${exam.id}&action=staff.disabled`);
      await expect(page.getByRole("rowheader")).toHaveCount(0);
      await expectAccessible(page, "audit log, nothing matches", locale);

      await page.goto("/admin/audit?from=2026-12-02&to=2026-12-01");
      await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toBeVisible();
      await expectAccessible(page, "audit log, invalid filters", locale);
    });
  });
}

// ---- In-page confirmations (the exam-day story's fixes) ------------------------------------------------
for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, confirmations, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("the confirmation dialogs of disabling an account, revoking a link and deleting an exam", async ({
      page,
      createStaff,
      createExam,
      enrollCandidate,
      signIn,
    }) => {
      const admin = await createStaff("admin");
      const proctor = await createStaff("proctor");
      const exam = await createExam({ status: "draft" });
      const candidate = await enrollCandidate(exam.id);
      await signIn(page.context(), admin);

      await page.goto("/admin/staff");
      await page
        .getByRole("row")
        .filter({ hasText: proctor.email })
        .getByRole("button", { name: /^(Disable|停用)/ })
        .click();
      await expect(page.getByRole("dialog").getByRole("heading", { level: 2 })).toBeFocused();
      await expectAccessible(page, "staff accounts, disable confirmation open", locale);

      await page.goto(`/admin/exams/${exam.id}/candidates`);
      await page
        .getByRole("row")
        .filter({ hasText: candidate.email })
        .getByRole("button", { name: /^(Revoke|吊销)/ })
        .click();
      await expect(page.getByRole("dialog").getByRole("heading", { level: 2 })).toBeFocused();
      await expectAccessible(page, "candidates, revoke confirmation open", locale);

      await page.goto(`/admin/exams/${exam.id}`);
      await page
        .getByRole("button")
        .filter({ hasText: /^(Delete exam|删除考试)$/ })
        .click();
      await expect(page.getByRole("dialog").getByRole("heading", { level: 2 })).toBeFocused();
      await expectAccessible(page, "exam page, delete confirmation open", locale);
    });
  });
}

// ---- Announcements (issue 14): the exam page showing one, the dashboard's panel ------------------------
for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, announcements, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("the exam page with an announcement, the dashboard with the announcements panel", async ({
      browser,
      page,
      adminApi,
      createStaff,
      createExam,
      enrollCandidate,
      assignProctor,
      signIn,
    }) => {
      const exam = await createExam();
      const candidate = await enrollCandidate(exam.id);
      const proctor = await createStaff("proctor");
      await assignProctor(exam.id, proctor);
      const sent = await adminApi.post(`/api/proctor/exams/${exam.id}/announcements`, {
        data: { message: "Question 3: read “metres” as “meters”. 第 3 题：“米”按公制理解。" },
      });
      expect(sent.status()).toBe(201);

      const candidateContext = await browser.newContext({ locale });
      try {
        const candidatePage = await candidateContext.newPage();
        await candidatePage.goto(candidate.joinUrl);
        await candidatePage.getByRole("button", { name: /^(Start|开始)$/ }).click();
        await expect(candidatePage.locator(".announcement")).toHaveCount(1);
        await expectAccessible(candidatePage, "exam page with an announcement", locale);
      } finally {
        await candidateContext.close();
      }

      await signIn(page.context(), proctor);
      await page.goto(`/proctor/exams/${exam.id}`);
      await expect(page.locator(".announcements-panel__list li")).toHaveCount(1);
      await expectAccessible(page, "dashboard with the announcements panel", locale);
    });
  });
}

// ---- Pause and resume (issue 14, ADR 016) ---------------------------------------------------------------
for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, pause and resume, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("the candidate's paused page, the dashboard of a paused exam, the pause dialog", async ({
      page,
      browser,
      adminApi,
      createExam,
      enrollCandidate,
      createStaff,
      assignProctor,
      signIn,
    }) => {
      const exam = await createExam();
      const candidate = await enrollCandidate(exam.id);
      const proctor = await createStaff("proctor");
      await assignProctor(exam.id, proctor);

      await page.goto(candidate.joinUrl);
      await expect(page).toHaveURL(new RegExp(`/exam/${exam.id}$`));
      await startAndOpenExam(page, exam.id);
      const paused = await adminApi.post(`/api/proctor/exams/${exam.id}/pause`, { data: { reason: "Fire alarm" } });
      expect(paused.status(), await paused.text()).toBe(200);
      await expect(page.locator(".notice--pause")).toBeVisible({ timeout: 10_000 });
      await expectAccessible(page, "exam page, paused", locale);

      const context = await browser.newContext({ locale });
      try {
        await signIn(context, proctor);
        const dashboard = await context.newPage();
        await dashboard.goto(`/proctor/exams/${exam.id}`);
        await expect(dashboard.locator(".pause-state--paused")).toBeVisible();
        await expectAccessible(dashboard, "dashboard, exam paused", locale);
        await dashboard.locator(".proctor__pause button").click();
        await expect(dashboard.getByRole("dialog")).toBeVisible();
        await expectAccessible(dashboard, "resume dialog", locale);
        await dashboard.keyboard.press("Escape");
        await dashboard.locator(".ctable [role=row] input[type=checkbox]").last().check();
        await dashboard.locator(".proctor__toolbar button").nth(1).click();
        await expect(dashboard.getByRole("dialog").locator("textarea")).toBeVisible();
        await expectAccessible(dashboard, "pause dialog for a selection", locale);
      } finally {
        await context.close();
      }
    });
  });
}

// ---- Reopening a submitted attempt (issue 14, ADR 017) -------------------------------------------------
for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, reopening, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("candidates page with a submitted and a reopened candidate, and the reopen dialog with an error", async ({
      page,
      server,
      adminApi,
      createStaff,
      createExam,
      enrollCandidate,
      signIn,
    }) => {
      const admin = await createStaff("admin");
      const exam = await createExam();
      const submitted = await enrollCandidate(exam.id);
      const reopened = await enrollCandidate(exam.id);
      for (const candidate of [submitted, reopened]) {
        const { attemptId, request } = await startThroughApi(server.baseURL, exam.id, candidate);
        await request.dispose();
        expect((await adminApi.post(`/api/proctor/attempts/${attemptId}/force-submit`)).status()).toBe(200);
        if (candidate === reopened) {
          const response = await adminApi.post(`/api/admin/attempts/${attemptId}/reopen`, {
            data: { reason: "force-submitted by mistake", seconds: 900 },
          });
          expect(response.status(), await response.text()).toBe(200);
        }
      }
      await signIn(page.context(), admin);

      await page.goto(`/admin/exams/${exam.id}/candidates`);
      const row = page.getByRole("row").filter({ hasText: submitted.email });
      await expect(row).toBeVisible();
      await expectAccessible(page, "candidates page, submitted and reopened rows", locale);

      await row.getByRole("button", { name: /^(Reopen|重新开放)/ }).click();
      const dialog = page.getByRole("dialog");
      await dialog.locator("button[type=submit]").click();
      await expect(page.locator("#reopen-reason")).toHaveAttribute("aria-invalid", "true");
      await expectAccessible(page, "reopen dialog with an inline error", locale);
    });
  });
}

// ---- Late answers and the receipt verifier (issue 15) ------------------------------------------------
for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, late answers and receipts, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("late answers with a decision and the reject dialog's error; the receipt verifier, valid and not", async ({
      page,
      server,
      sql,
      adminApi,
      createStaff,
      createExam,
      enrollCandidate,
      signIn,
    }) => {
      const admin = await createStaff("admin");
      const exam = await createExam();
      const [single, multiple] = exam.questionIds as [string, string];
      const candidate = await enrollCandidate(exam.id);
      const api = await startThroughApi(server.baseURL, exam.id, candidate);
      const save = (deviceId: string, version: number, values: [string, unknown][]) =>
        api.request.post(`/api/attempts/${api.attemptId}/answers`, {
          data: { deviceId, answers: values.map(([questionId, value]) => ({ questionId, value, version })) },
        });
      expect((await save("laptop", 1, [[single, "a"]])).status()).toBe(200);
      expect((await adminApi.post(`/api/proctor/attempts/${api.attemptId}/force-submit`)).status()).toBe(200);
      const late = await save("phone", 2, [
        [single, "b"],
        [multiple, ["a", "b"]],
      ]);
      expect(late.status(), await late.text()).toBe(409);
      await api.request.dispose();
      const list = await adminApi.get(`/api/admin/exams/${exam.id}/late-answers`);
      const rows = ((await list.json()) as { lateAnswers: { id: string; position: number }[] }).lateAnswers;
      const decided = await adminApi.post(
        `/api/admin/exams/${exam.id}/late-answers/${rows.find((row) => row.position === 1)!.id}/decision`,
        { data: { decision: "accepted", reason: "the phone lost its connection before the deadline" } },
      );
      expect(decided.status(), await decided.text()).toBe(201);
      await signIn(page.context(), admin);

      await page.goto(`/admin/exams/${exam.id}/late-answers`);
      const undecided = page.getByRole("article").filter({ has: page.locator("button") });
      await expect(undecided).toHaveCount(1);
      await expectAccessible(page, "late answers page, one decided and one open", locale);
      await undecided.locator("button").nth(1).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toBeVisible();
      await dialog.locator("button[type=submit]").click();
      await expect(dialog.locator("textarea")).toHaveAttribute("aria-invalid", "true");
      await expectAccessible(page, "reject dialog with the reason's inline error", locale);

      const { rows: submissions } = await sql.query<{ submitted_at: Date; digest: string; receipt: string }>(
        "SELECT submitted_at, digest, receipt FROM submissions WHERE attempt_id = $1",
        [api.attemptId],
      );
      const receipt = {
        format: "holdfast-receipt",
        v: 1,
        attemptId: api.attemptId,
        submittedAt: submissions[0]!.submitted_at.toISOString(),
        digest: submissions[0]!.digest,
        receipt: submissions[0]!.receipt,
      };
      await page.goto("/admin/receipts");
      await expectAccessible(page, "receipt verifier, empty", locale);
      await page.locator("#receipt-text").fill(JSON.stringify(receipt));
      await page.locator("main button[type=submit]").click();
      await expect(page.locator("#receipt-verdict-heading")).toBeFocused();
      await expectAccessible(page, "receipt verifier, a valid receipt", locale);
      const changed = `${receipt.digest.startsWith("0") ? "1" : "0"}${receipt.digest.slice(1)}`;
      await page.locator("#receipt-text").fill(JSON.stringify({ ...receipt, digest: changed }));
      await page.locator("main button[type=submit]").click();
      await expect(page.locator("#receipt-verdict-heading")).toBeFocused();
      await expectAccessible(page, "receipt verifier, a receipt that is not valid", locale);
    });
  });
}

// ---- Grading by people (issue 15): overview, a question's queue, the conflict panel, disagreements --------
for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, grading, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("grading overview, queue with an answer, conflict panel, settling and disagreements", async ({
      page,
      server,
      sql,
      adminApi,
      createStaff,
      createExam,
      enrollCandidate,
      signIn,
    }) => {
      const { exam, essayId, attemptIds } = await essayExamWithPapers({
        baseURL: server.baseURL,
        sql,
        createExam,
        locale,
        title: `Grading a11y ${locale}`,
        enroll: async (examId) => [await enrollCandidate(examId), await enrollCandidate(examId)],
        essays: ["The handshake agrees both initial sequence numbers.\n\nSecond paragraph.", "   "],
      });
      const admin = await createStaff("admin");
      await signIn(page.context(), admin);

      await page.goto(`/admin/exams/${exam.id}/grading`);
      await expect(page.locator("table.data")).toBeVisible();
      await expectAccessible(page, "grading overview", locale);

      await page.goto(`/admin/exams/${exam.id}/grading/${essayId}?marker=first&paper=${attemptIds[0]}`);
      await expect(page.locator("#grading-points")).toBeVisible();
      await expectAccessible(page, "grading queue with an answer", locale);

      // Someone else marks the answer behind the page's back: the page's save meets the conflict.
      await expect(page.locator("nav button[aria-current=true]")).toBeVisible();
      const behind = await adminApi.put(`/api/admin/exams/${exam.id}/grading/${essayId}/${attemptIds[0]}`, {
        data: { marker: "first", points: 3, comment: "Someone else's mark.", revision: 0 },
      });
      expect(behind.status(), await behind.text()).toBe(200);
      await page.locator("#grading-points").fill("4");
      await page.locator("#grading-points").press("Enter");
      await expect(page.locator("#grading-conflict")).toBeVisible();
      await expectAccessible(page, "grading conflict panel", locale);

      await page.locator("#grading-points").fill("99");
      await page.locator("form button[type=submit]").click();
      await expect(page.locator("#grading-points")).toHaveAttribute("aria-invalid", "true");
      await expectAccessible(page, "grading queue with an inline error", locale);

      await sql.query("UPDATE exams SET second_marking = true WHERE id = $1", [exam.id]);
      const second = await adminApi.put(`/api/admin/exams/${exam.id}/grading/${essayId}/${attemptIds[0]}`, {
        data: { marker: "second", points: 5, comment: "Full marks from me.", revision: 0 },
      });
      expect(second.status(), await second.text()).toBe(200);
      await page.goto(`/admin/exams/${exam.id}/grading/disagreements`);
      await expect(page.locator("table.data")).toBeVisible();
      await expectAccessible(page, "grading disagreements", locale);

      await page.locator("table.data a").first().click();
      await expect(page.locator("#grading-marks")).toBeVisible();
      await expectAccessible(page, "settling a disagreement", locale);
    });
  });
}

// ---- Graders (issue 15): the exam page's Graders section and a grader's home -------------------------------
for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, graders, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("the Graders section of the exam page, and a grader's home with only their links", async ({
      browser,
      page,
      adminApi,
      createStaff,
      createExam,
      signIn,
    }) => {
      const admin = await createStaff("admin");
      const grader = await createStaff("grader");
      await createStaff("grader"); // one more to choose from in the section's select
      const exam = await createExam();
      const assigned = await adminApi.put(`/api/admin/exams/${exam.id}/graders/${grader.id}`);
      expect(assigned.status(), await assigned.text()).toBe(204);

      await signIn(page.context(), admin);
      await page.goto(`/admin/exams/${exam.id}`);
      const section = page.locator("section[aria-labelledby=graders-heading]");
      await expect(section.getByText(grader.name)).toBeVisible();
      await expect(section.locator("#assign-grader")).toBeVisible();
      await expectAccessible(page, "exam page with the Graders section", locale);

      const context = await browser.newContext({ locale });
      try {
        await signIn(context, grader);
        const home = await context.newPage();
        await home.goto("/grading");
        await expect(home.locator(`a[href="/admin/exams/${exam.id}/grading"]`)).toBeVisible();
        // A grader's header has no proctoring link, and a proctor page sends them home.
        await expect(home.locator('.site-nav a[href="/proctor"]')).toHaveCount(0);
        await expectAccessible(home, "grader's home", locale);
        await home.goto("/proctor");
        await expect(home).toHaveURL(/\/grading$/);
      } finally {
        await context.close();
      }
    });
  });
}

// ---- Results page: release, statistics and charts (issue 15) -------------------------------------------
for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, results page, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("results page with scored papers and charts, and the release dialog", async ({
      page,
      server,
      createStaff,
      createExam,
      enrollCandidate,
      signIn,
    }) => {
      const admin = await createStaff("admin");
      const exam = await createExam();
      // Two papers with answers (one waits for a grader: it has an essay), one candidate who never starts.
      const answers = [
        ["b", ["a", "b"], "ARP", "Because both sides must agree on sequence numbers.", 6],
        ["a", ["a", "c"], "", "", 8],
      ];
      for (const values of answers) {
        const candidate = await enrollCandidate(exam.id);
        const { attemptId, request } = await startThroughApi(server.baseURL, exam.id, candidate);
        const submitted = await request.post(`/api/attempts/${attemptId}/submit`, {
          data: {
            deviceId: "laptop",
            answers: values.map((value, index) => ({ questionId: exam.questionIds[index]!, value, version: 1 })),
          },
          headers: { "Idempotency-Key": `axe-results-${attemptId}` },
        });
        expect(submitted.status(), await submitted.text()).toBe(200);
        await request.dispose();
      }
      await enrollCandidate(exam.id);
      await signIn(page.context(), admin);

      await page.goto(`/admin/exams/${exam.id}/results`);
      await expect(page.getByTestId("exam-figures")).toContainText(/2 (of|\/) 2/, { timeout: 20_000 });
      await expect(page.locator("canvas").first()).toBeVisible();
      await expectAccessible(page, "results page with figures, charts and tables", locale);

      await page.getByRole("button", { name: /^(Release results|公布成绩)$/ }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await expectAccessible(page, "release dialog", locale);
    });
  });
}

// ---- Results: the candidate's result page and a paper's result with its versions (issue 15) ------------
for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, results, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("candidate result before and after release; staff result with versions, an older one expanded", async ({
      page,
      browser,
      adminApi,
      createStaff,
      createExam,
      enrollCandidate,
      signIn,
    }) => {
      const exam = await createExam({ questions: objectiveQuestions() });
      const candidate = await enrollCandidate(exam.id);
      await page.goto(candidate.joinUrl);
      const attemptId = await submitPaper(page.request, exam.id, exam.questionIds, ["a", ["a"], 31]);
      await page.goto(`/attempts/${attemptId}/result`);
      await expect(page.getByTestId("result-pending")).toBeVisible();
      await expectAccessible(page, "candidate result, not released", locale);

      expect((await adminApi.post(`/api/admin/exams/${exam.id}/results/release`)).status()).toBe(200);
      await expect(async () => {
        await page.reload();
        await expect(page.getByTestId("result-questions")).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      await expectAccessible(page, "candidate result, released, per question", locale);

      const marked = await createExam({ questions: markedQuestions() });
      const markedCandidate = await enrollCandidate(marked.id, { name: "王伟" });
      const candidateContext = await browser.newContext({ locale });
      let markedAttemptId: string;
      try {
        const candidatePage = await candidateContext.newPage();
        await candidatePage.goto(markedCandidate.joinUrl);
        markedAttemptId = await paperWithVersions(adminApi, candidatePage.request, marked, "Clear; name the window.");
      } finally {
        await candidateContext.close();
      }
      const admin = await createStaff("admin");
      await signIn(page.context(), admin);
      await page.goto(`/admin/attempts/${markedAttemptId}/result`);
      await expect(page.getByTestId("result-version")).toHaveCount(3);
      await expectAccessible(page, "staff result with versions", locale);
      await page.getByTestId("result-version").last().locator("summary").click();
      await expect(page.getByTestId("result-version").last().getByRole("table")).toBeVisible();
      await expectAccessible(page, "staff result, an older version expanded", locale);
    });
  });
}

// ---- Webhooks (issue 16): an exam's endpoints with the secret dialog, the dead letter, one delivery ----------
for (const locale of ["en-US", "zh-CN"] as const) {
  test.describe(`axe, webhooks, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("endpoints with the secret shown once, the dead letter, a delivery with its attempts", async ({
      page,
      server,
      createExam,
      enrollCandidate,
      createStaff,
      signIn,
    }) => {
      // A receiver that refuses with 400: final at once, so the delivery is dead without waiting for retries.
      const receiver = await startWebhookReceiver(400);
      try {
        const exam = await createExam();
        const candidate = await enrollCandidate(exam.id);
        const admin = await createStaff("admin");
        await signIn(page.context(), admin);

        await page.goto(`/admin/exams/${exam.id}/webhooks`);
        await expect(page.getByTestId("webhooks-empty")).toBeVisible();
        await expectAccessible(page, "webhook endpoints, none yet", locale);
        const form = page.getByTestId("webhook-add-form");
        await form.getByRole("button").click();
        await expect(form.getByRole("textbox")).toHaveAttribute("aria-invalid", "true");
        await expectAccessible(page, "webhook endpoint form with its errors", locale);
        await form.getByRole("textbox").fill(receiver.url);
        await form.getByRole("checkbox").first().check();
        await form.getByRole("button").click();
        await expect(page.getByRole("dialog").getByTestId("webhook-secret")).toContainText("whsec_");
        await expectAccessible(page, "webhook secret dialog", locale);
        await page.keyboard.press("Escape");
        await expect(page.getByRole("dialog")).toBeHidden();

        const api = await startThroughApi(server.baseURL, exam.id, candidate);
        const submitted = await api.request.post(`/api/attempts/${api.attemptId}/submit`, {
          data: { deviceId: api.deviceId, answers: [] },
          headers: { "Idempotency-Key": `axe-webhooks-${api.attemptId}` },
        });
        expect(submitted.status(), await submitted.text()).toBe(200);
        await api.request.dispose();
        await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);

        await page.goto(`/admin/webhooks/deliveries?status=dead&examId=${exam.id}`);
        const rows = page.getByTestId("deliveries").locator("tbody tr");
        await expect(rows.first()).toBeVisible({ timeout: 30_000 });
        await expectAccessible(page, "webhook deliveries, dead letter", locale);
        await rows.first().getByRole("link").click();
        await expect(page.getByTestId("delivery-attempts")).toBeVisible();
        await expectAccessible(page, "webhook delivery with its attempts", locale);

        await page.goto(`/admin/exams/${exam.id}/webhooks`);
        await expect(page.getByTestId("webhook-count-dead")).toHaveText("1");
        await expectAccessible(page, "webhook endpoints with one dead delivery", locale);
      } finally {
        await receiver.close();
      }
    });
  });
}
