import type { Browser, BrowserContext, Page } from "@playwright/test";

import enAccount from "../../messages/en/account.json" with { type: "json" };
import enAuthoring from "../../messages/en/authoring.json" with { type: "json" };
import enCandidate from "../../messages/en/candidate.json" with { type: "json" };
import enCommon from "../../messages/en/common.json" with { type: "json" };
import enEnrollment from "../../messages/en/enrollment.json" with { type: "json" };
import enExam from "../../messages/en/exam.json" with { type: "json" };
import enProctor from "../../messages/en/proctor.json" with { type: "json" };
import enStaff from "../../messages/en/staff.json" with { type: "json" };
import zhAccount from "../../messages/zh-CN/account.json" with { type: "json" };
import zhAuthoring from "../../messages/zh-CN/authoring.json" with { type: "json" };
import zhCandidate from "../../messages/zh-CN/candidate.json" with { type: "json" };
import zhCommon from "../../messages/zh-CN/common.json" with { type: "json" };
import zhEnrollment from "../../messages/zh-CN/enrollment.json" with { type: "json" };
import zhExam from "../../messages/zh-CN/exam.json" with { type: "json" };
import zhProctor from "../../messages/zh-CN/proctor.json" with { type: "json" };
import zhStaff from "../../messages/zh-CN/staff.json" with { type: "json" };
import { deleteExamsOfTest, expect, test, uniqueTag } from "../fixtures";

// Exam day, from an empty install to a submitted paper, in the browser only (issue #13's "done when"), once in
// English and once in Chinese. Every named step goes through the pages a person would use; the API and the
// database are only read, to prove what the pages claim. The fixtures create the first admin (the CLI's job)
// and a second exam the new proctor must not see.
//
// 1. The admin switches the interface language, signs in, writes an exam with one question of each type,
//    previews it (nothing saved), schedules it, is told in their language why it cannot be published yet
//    (a choice question without a key), fixes that and publishes.
// 2. They upload 30 candidates with one bad line: the preview names the line, nothing can be imported and
//    nothing is; the fixed file enrolls all 30.
// 3. They add a proctor account (temporary password shown once) and assign it. The proctor signs in in a
//    second browser, must choose their own password first, and sees exactly this exam.
// 4. A candidate opens the join link copied from the candidates page in a third browser, answers every
//    question and submits; the receipt is shown, and the proctor's live dashboard shows them submitted.
//
// Each browser is given the *other* language by its Accept-Language, so only the app's own choice (the
// language switch and the cookie it writes) can make the pages speak the story's language.

const LANGUAGES = {
  en: {
    other: "zh-CN",
    browserLocale: "zh-CN",
    timezoneId: "UTC",
    account: enAccount,
    authoring: enAuthoring,
    candidate: enCandidate,
    common: enCommon,
    enrollment: enEnrollment,
    exam: enExam,
    proctor: enProctor,
    staff: enStaff,
    otherCommon: zhCommon,
  },
  "zh-CN": {
    other: "en",
    browserLocale: "en-US",
    timezoneId: "Asia/Shanghai",
    account: zhAccount,
    authoring: zhAuthoring,
    candidate: zhCandidate,
    common: zhCommon,
    enrollment: zhEnrollment,
    exam: zhExam,
    proctor: zhProctor,
    staff: zhStaff,
    otherCommon: enCommon,
  },
} as const;

/** A message with its simple `{name}` placeholders filled (plural messages are matched by number instead). */
function fill(message: string, values: Record<string, string | number> = {}): string {
  return message.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? `{${key}}`));
}

/** "2026-12-01T18:00": a datetime-local value for `at`, on the wall clock of `timeZone` (as the editor shows it). */
function wallClock(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** 30 candidates, header on line 1; `badLine` (a file line number) gets an email that is not one. */
function roster(names: string[], tag: string, badLine: number | null): Buffer {
  const lines = names.map((name, i) => {
    const email = i + 2 === badLine ? "not-an-email" : `student${i + 1}-${tag}@example.org`;
    return `"${name}",${email},${i === 4 ? 15 : 0}`;
  });
  // A byte order mark, as spreadsheets save "CSV UTF-8": the import must not mind it.
  return Buffer.from(`\uFEFF${["name,email,extra_minutes", ...lines].join("\r\n")}\r\n`, "utf8");
}

for (const language of ["en", "zh-CN"] as const) {
  const L = LANGUAGES[language];
  const { authoring: a, common: c, enrollment: en, account: ac, staff: st, exam: ex, proctor: pr } = L;

  /** A new browser whose Accept-Language is the other language, told the story's one by the app's cookie. */
  async function newBrowser(browser: Browser, baseURL: string): Promise<BrowserContext> {
    const context = await browser.newContext({ locale: L.browserLocale, timezoneId: L.timezoneId });
    await context.addCookies([{ name: "holdfast_locale", value: language, url: baseURL }]);
    return context;
  }

  async function signInThroughForm(page: Page, email: string, password: string) {
    await page.goto("/signin");
    await expect(page.locator("html")).toHaveAttribute("lang", language);
    await page.getByLabel(st.signIn.email).fill(email);
    await page.getByLabel(st.signIn.password, { exact: true }).fill(password);
    await page.getByRole("button", { name: st.signIn.submit }).click();
  }

  test.describe(`Exam day from start to finish, ${language}`, () => {
    test.use({ locale: L.browserLocale, timezoneId: L.timezoneId });
    // Three browsers, a dozen pages of a production build and four argon2 hashes, on two shared cores.
    test.describe.configure({ timeout: 150_000 });

    test("an admin authors, schedules, publishes, enrolls 30 and staffs an exam; a proctor watches a candidate take it", async ({
      page,
      browser,
      server,
      createStaff,
      createExam,
      adminApi,
      sql,
    }) => {
      const tag = uniqueTag();
      const admin = await createStaff("admin");
      const otherExam = await createExam({ title: `Other exam ${tag}` });
      const examIds: string[] = [];
      const contexts: BrowserContext[] = [];
      const proctorEmail = `proctor-${tag}@example.org`;
      try {
        // ---- 1. Author, preview, schedule, publish ---------------------------------------------------
        await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
        await page.goto("/signin");
        await expect(page.locator("html")).toHaveAttribute("lang", L.other);
        await page.getByLabel(L.otherCommon.language).selectOption(language);
        await expect(page.locator("html")).toHaveAttribute("lang", language);
        await expect(page.getByRole("heading", { level: 1, name: st.signIn.title })).toBeVisible();
        await page.getByLabel(st.signIn.email).fill(admin.email);
        await page.getByLabel(st.signIn.password, { exact: true }).fill(admin.password);
        await page.getByRole("button", { name: st.signIn.submit }).click();
        await expect(page).toHaveURL(/\/admin$/);
        // The page has told the server its time zone (UTC needs no telling: the server's default), so the
        // editor reads times on this browser's clock.
        await expect
          .poll(async () => (await page.context().cookies()).find((cookie) => cookie.name === "holdfast_tz")?.value)
          .toBe(L.timezoneId === "UTC" ? undefined : encodeURIComponent(L.timezoneId));

        await page.getByRole("button", { name: a.newExam.button }).click();
        await expect(page).toHaveURL(/\/admin\/exams\/[0-9a-f-]{36}\/edit$/);
        const examId = page.url().split("/").at(-2)!;
        examIds.push(examId);

        const title = `${language === "zh-CN" ? "网络基础期末考试" : "Networking basics final"} ${tag}`;
        await page.getByLabel(a.editor.title, { exact: true }).fill(title);
        await page.getByLabel(a.editor.duration, { exact: true }).fill("45");

        const question = (position: number) =>
          page.getByRole("group", { name: fill(a.question.legend, { position }), exact: true });
        const prompt = (position: number) => question(position).getByLabel(a.question.prompt, { exact: true });
        let questionCount = 0;
        const add = async (type: keyof typeof c.questionTypes) => {
          await page
            .getByLabel(a.editor.addQuestionOfType, { exact: true })
            .selectOption({ label: c.questionTypes[type] });
          await page.getByRole("button", { name: a.editor.addQuestion }).click();
          // The new question's prompt takes the focus, as a keyboard user expects to type there next.
          questionCount += 1;
          await expect(prompt(questionCount)).toBeFocused();
        };
        const option = (position: number, id: string) =>
          question(position).getByRole("textbox", { name: fill(a.question.optionLabel, { id }), exact: true });
        const points = (position: number) => question(position).getByLabel(a.question.points, { exact: true });

        // Single choice, its key left for later: publishing must catch that.
        await add("single_choice");
        await prompt(1).fill("Which layer routes packets between networks?");
        await option(1, "a").fill("Network");
        await option(1, "b").fill("Data link");

        await add("multiple_choice");
        await prompt(2).fill("Which are transport protocols?");
        await question(2).getByRole("button", { name: a.question.addOption }).click();
        await option(2, "a").fill("TCP");
        await option(2, "b").fill("IP");
        await option(2, "c").fill("UDP");
        await question(2)
          .getByRole("checkbox", { name: fill(a.question.correctOption, { id: "a" }) })
          .check();
        await question(2)
          .getByRole("checkbox", { name: fill(a.question.correctOption, { id: "c" }) })
          .check();
        await points(2).fill("2");

        await add("short_text");
        await prompt(3).fill("Name the loopback host.");
        await question(3).getByLabel(a.question.accepted, { exact: true }).fill("localhost\n127.0.0.1");

        await add("numeric");
        await prompt(4).fill("What is the MTU of classic Ethernet, in bytes?");
        await question(4).getByLabel(a.question.numericKey, { exact: true }).fill("1500");
        await question(4).getByLabel(a.question.tolerance, { exact: true }).fill("2");

        await add("essay");
        await prompt(5).fill("Explain why TCP needs a three-way handshake.");
        await points(5).fill("5");

        // A window that is open now, on this browser's clock.
        const now = Date.now();
        await page.getByLabel(a.editor.alwaysOpen, { exact: true }).uncheck();
        await page
          .getByLabel(a.editor.opensAt, { exact: true })
          .fill(wallClock(new Date(now - 3600_000), L.timezoneId));
        await page
          .getByLabel(a.editor.closesAt, { exact: true })
          .fill(wallClock(new Date(now + 4 * 3600_000), L.timezoneId));

        await page.getByRole("button", { name: a.editor.save }).click();
        await expect(page.getByText(fill(a.editor.saved, { revision: 2 }))).toBeVisible();
        // The page's own heading follows the saved title (it said "Untitled exam" until now).
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(fill(a.editor.heading, { title }));

        // The candidate preview: the real paper, answerable, and nothing it does is saved.
        await page.getByRole("button", { name: a.editor.preview }).click();
        await expect(page.getByText(a.preview.banner)).toBeVisible();
        const previewQuestion = (position: number) =>
          page.getByRole("article", { name: fill(c.question.heading, { position }), exact: true });
        await expect(previewQuestion(5)).toContainText("three-way handshake");
        await previewQuestion(1).getByRole("radio", { name: "Network" }).check();
        await expect(previewQuestion(1).getByRole("radio", { name: "Network" })).toBeChecked();
        await previewQuestion(3).getByRole("textbox").fill("localhost");
        await page.getByRole("button", { name: a.editor.closePreview }).click();
        await expect(page.getByRole("button", { name: a.editor.save })).toBeVisible();
        const attempts = await sql.query("SELECT count(*)::int AS n FROM attempts WHERE exam_id = $1", [examId]);
        expect(attempts.rows[0].n).toBe(0);
        expect((await (await adminApi.get(`/api/admin/exams/${examId}`)).json()).revision).toBe(2);

        // Publishing a choice question without a key is refused, with the problem in the reader's words.
        const publish = page.getByRole("button", { name: a.lifecycle.actions.published });
        await publish.click();
        await expect(page.getByText(a.lifecycle.problemsTitle)).toBeVisible();
        await expect(page.getByText(fill(a.lifecycle.problems.CHOICE_WITHOUT_KEY, { position: 1 }))).toBeVisible();
        expect((await (await adminApi.get(`/api/admin/exams/${examId}`)).json()).status).toBe("draft");

        await question(1)
          .getByRole("radio", { name: fill(a.question.correctOption, { id: "a" }) })
          .check();
        await page.getByRole("button", { name: a.editor.save }).click();
        await expect(page.getByText(fill(a.editor.saved, { revision: 3 }))).toBeVisible();
        await publish.click();
        await expect(page.getByText(fill(a.lifecycle.changed, { status: c.examStatus.published }))).toBeAttached();

        const stored = await (await adminApi.get(`/api/admin/exams/${examId}`)).json();
        expect(stored).toMatchObject({ title, status: "published", durationSeconds: 45 * 60 });
        expect(Date.parse(stored.closesAt) - Date.parse(stored.opensAt)).toBe(5 * 3600_000);
        expect(
          stored.questions.map((q: Record<string, unknown>) => [q.type, q.answerKey, q.points, q.tolerance ?? null]),
        ).toEqual([
          ["single_choice", "a", 1, null],
          ["multiple_choice", ["a", "c"], 2, null],
          ["short_text", ["localhost", "127.0.0.1"], 1, null],
          ["numeric", 1500, 1, 2],
          ["essay", null, 5, null],
        ]);

        // ---- 2. Enroll 30 from a CSV with one bad line ------------------------------------------------
        await page.getByRole("link", { name: a.editor.backToExam }).click();
        await expect(page).toHaveURL(new RegExp(`/admin/exams/${examId}$`));
        await page.getByRole("link", { name: en.page.manageLink }).click();
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(fill(en.page.titleFor, { exam: title }));

        const names = Array.from(
          { length: 30 },
          (_, i) => `${language === "zh-CN" ? "学生" : "Student"} ${String(i + 1).padStart(2, "0")} ${tag}`,
        );
        const enrolledCount = async () =>
          ((await (await adminApi.get(`/api/admin/exams/${examId}/candidates`)).json()) as { candidates: unknown[] })
            .candidates.length;

        const file = page.getByLabel(en.csv.file, { exact: true });
        // Choosing the file is asking for its preview: no second step before the problems show.
        await file.setInputFiles({ name: "roster.csv", mimeType: "text/csv", buffer: roster(names, tag, 17) });
        await expect(file).toHaveAccessibleDescription(fill(en.csv.fileRead, { name: "roster.csv" }));
        const preview = page.getByRole("region", { name: en.csv.previewLabel });
        const badRow = preview
          .getByRole("row")
          .filter({ has: page.getByRole("rowheader", { name: "17", exact: true }) });
        await expect(badRow).toContainText(fill(en.csv.lineErrors.email_invalid, { value: "not-an-email" }));
        await expect(page.getByText(en.csv.hasErrors)).toBeVisible();
        await expect(page.getByRole("button", { name: /30/ })).toHaveCount(0);
        expect(await enrolledCount()).toBe(0);

        // Fixed in the spreadsheet and chosen again, under the same name.
        await file.setInputFiles({ name: "roster.csv", mimeType: "text/csv", buffer: roster(names, tag, null) });
        await expect(page.getByText(en.csv.ready)).toBeVisible();
        expect(await enrolledCount()).toBe(0);
        await page.getByRole("button", { name: /30/ }).click();
        await expect(page.getByRole("status").filter({ hasText: /30/ })).toBeVisible();
        await expect(page.getByRole("region", { name: en.list.tableLabel }).getByRole("row")).toHaveCount(31);
        expect(await enrolledCount()).toBe(30);

        // ---- 3. A proctor account, assigned; the proctor signs in and sees only this exam -------------
        await page.getByRole("navigation").getByRole("link", { name: c.navStaff, exact: true }).click();
        await expect(page.getByRole("heading", { level: 1, name: ac.staff.title })).toBeVisible();
        const proctorName = `${language === "zh-CN" ? "监考老师" : "Pat Proctor"} ${tag}`;
        await page.getByLabel(ac.staff.email).fill(proctorEmail);
        await page.getByLabel(ac.staff.name).fill(proctorName);
        await page.getByLabel(ac.staff.role).selectOption("proctor");
        await page.getByRole("button", { name: ac.staff.create }).click();
        const shown = page.getByRole("region", { name: fill(ac.staff.temporaryHeading, { name: proctorName }) });
        await expect(shown).toBeVisible();
        const temporaryPassword = (await shown.getByTestId("temporary-password").textContent())?.trim() ?? "";
        expect(temporaryPassword.length).toBeGreaterThanOrEqual(12);
        await expect(page.getByRole("row").filter({ hasText: proctorEmail })).toContainText(ac.staff.states.mustChange);

        await page.getByRole("navigation").getByRole("link", { name: c.navExams, exact: true }).click();
        await page.getByRole("link", { name: title }).click();
        await expect(page).toHaveURL(new RegExp(`/admin/exams/${examId}$`));
        await page.getByLabel(ac.proctors.choose).selectOption({ label: `${proctorName} (${proctorEmail})` });
        await page.getByRole("button", { name: ac.proctors.assign, exact: true }).click();
        await expect(
          page.getByRole("status").filter({ hasText: fill(ac.proctors.assigned, { name: proctorName }) }),
        ).toBeVisible();
        await expect(page.getByRole("list", { name: ac.proctors.listLabel })).toContainText(proctorName);

        const proctorContext = await newBrowser(browser, server.baseURL);
        contexts.push(proctorContext);
        const proctorPage = await proctorContext.newPage();
        await signInThroughForm(proctorPage, proctorEmail, temporaryPassword);
        await expect(proctorPage).toHaveURL(/\/account\?next=/);
        await expect(proctorPage.getByText(ac.account.mustChange)).toBeVisible();
        const ownPassword = `${language === "zh-CN" ? "我自己的长密码" : "my own long passphrase"} ${tag}`;
        await proctorPage.getByLabel(ac.account.currentPasswordTemporary).fill(temporaryPassword);
        await proctorPage.getByLabel(ac.account.newPassword, { exact: true }).fill(ownPassword);
        await proctorPage.getByLabel(ac.account.confirmPassword, { exact: true }).fill(ownPassword);
        await proctorPage.getByRole("button", { name: ac.account.submit }).click();
        await expect(proctorPage).toHaveURL(/\/proctor$/);
        await expect(proctorPage.getByRole("heading", { level: 1, name: st.proctorList.titleProctor })).toBeVisible();
        const proctorExams = proctorPage.getByRole("region", { name: st.proctorList.titleProctor });
        await expect(proctorExams.getByRole("link", { name: title })).toBeVisible();
        await expect(proctorExams.getByRole("row")).toHaveCount(2); // the header and this exam: nothing else
        await expect(proctorPage.getByRole("link", { name: otherExam.title })).toHaveCount(0);
        const elsewhere = await proctorPage.goto(`/proctor/exams/${otherExam.id}`);
        expect(elsewhere?.status()).toBe(404);
        await expect(proctorPage.getByRole("heading", { level: 1, name: L.candidate.notFound.title })).toBeVisible();
        await expect(proctorPage.getByText(otherExam.title)).toHaveCount(0);

        await proctorPage.goto("/proctor");
        await proctorPage.getByRole("link", { name: title }).click();
        await expect(proctorPage).toHaveURL(new RegExp(`/proctor/exams/${examId}$`));
        await expect(proctorPage.getByRole("status", { name: pr.stream.label })).toContainText(pr.stream.live);

        // ---- 4. A candidate takes it from a copied join link -----------------------------------------
        await page.getByRole("link", { name: en.page.manageLink }).click();
        const candidateName = names[0]!;
        await page.getByRole("button", { name: fill(en.list.copyFor, { name: candidateName }) }).click();
        await expect(
          page.getByRole("status").filter({ hasText: fill(en.list.copied, { name: candidateName }) }),
        ).toBeVisible();
        const joinUrl = await page.evaluate(() => navigator.clipboard.readText());
        expect(joinUrl).toMatch(/\/join\//);

        const candidateContext = await newBrowser(browser, server.baseURL);
        contexts.push(candidateContext);
        const candidatePage = await candidateContext.newPage();
        await candidatePage.goto(joinUrl);
        await expect(candidatePage.locator("html")).toHaveAttribute("lang", language);
        await expect(candidatePage.getByRole("heading", { level: 1, name: title })).toBeVisible();
        await candidatePage.getByRole("button", { name: L.candidate.start.start, exact: true }).click();
        await expect(candidatePage).toHaveURL(/\/attempts\/[0-9a-f-]{36}$/);

        const paperQuestion = (position: number) =>
          candidatePage.getByRole("article", { name: fill(c.question.heading, { position }), exact: true });
        const answerBox = (position: number) => paperQuestion(position).getByLabel(ex.answer.label);
        await expect(answerBox(3)).toBeEditable();
        await paperQuestion(1).getByRole("radio", { name: "Network" }).check();
        await paperQuestion(2).getByRole("checkbox", { name: "TCP" }).check();
        await paperQuestion(2).getByRole("checkbox", { name: "UDP" }).check();
        await answerBox(3).fill("localhost");
        await answerBox(4).fill("1499");
        await answerBox(5).fill("Both sides must learn and acknowledge each other's initial sequence number.");
        for (const position of [1, 2, 3, 4, 5]) {
          await expect(paperQuestion(position).getByText(ex.saveStatus.saved, { exact: true })).toBeVisible();
        }

        await candidatePage.getByRole("button", { name: ex.reviewAndSubmit }).first().click();
        const review = candidatePage.getByRole("dialog", { name: ex.review.title });
        await expect(review.getByText(ex.review.allAnswered)).toBeVisible();
        await review.getByRole("button", { name: ex.review.submit }).click();
        await expect(candidatePage.getByRole("heading", { name: ex.final.title })).toBeVisible();
        const submission = await sql.query<{ digest: string }>(
          "SELECT s.digest FROM submissions s JOIN attempts a ON a.id = s.attempt_id WHERE a.exam_id = $1",
          [examId],
        );
        expect(submission.rows).toHaveLength(1);
        await expect(candidatePage.getByText(submission.rows[0]!.digest)).toBeVisible();

        // The proctor's dashboard, open all along, now shows the candidate submitted.
        const candidateRow = proctorPage
          .getByRole("table", { name: pr.table.label })
          .getByRole("row")
          .filter({ hasText: candidateName });
        await expect(candidateRow).toContainText(pr.phase.submitted);
      } finally {
        for (const context of contexts) await context.close();
        await deleteExamsOfTest(sql, examIds);
        await sql.query("DELETE FROM staff_users WHERE email = $1", [proctorEmail]);
      }
    });
  });
}
