import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import type { Page } from "@playwright/test";

import type Authoring from "../../messages/en/authoring.json";
import type Common from "../../messages/en/common.json";
import { expect, test, uniqueTag } from "../fixtures";

// An admin writes an exam in the browser, in English and in Chinese: all five question types, a preview that
// saves nothing, a schedule, publishing. Then two admins edit the same exam at once: the second save is
// refused with both versions shown, and keeping theirs loses nothing. Labels come from the message catalogs,
// so the same story runs in both languages.

function catalog<T>(locale: "en" | "zh-CN", namespace: string): T {
  return JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../messages/${locale}/${namespace}.json`, import.meta.url)), "utf8"),
  ) as T;
}

const CATALOGS = {
  "en-US": {
    a: catalog<typeof Authoring>("en", "authoring"),
    c: catalog<typeof Common>("en", "common"),
    timezoneId: "UTC",
  },
  "zh-CN": {
    a: catalog<typeof Authoring>("zh-CN", "authoring"),
    c: catalog<typeof Common>("zh-CN", "common"),
    timezoneId: "Asia/Shanghai",
  },
} as const;

/** An ICU message with its arguments filled (the simple `{name}` ones these labels use). */
function fill(message: string, values: Record<string, string | number> = {}): string {
  return message.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));
}

/** "2026-12-02T09:00": a datetime-local value `days` from now at `hour` o'clock (the wall clock of the screen). */
function dayAt(days: number, hour: number): string {
  const date = new Date(Date.now() + days * 24 * 3600 * 1000);
  return `${date.toISOString().slice(0, 10)}T${String(hour).padStart(2, "0")}:00`;
}

for (const locale of ["en-US", "zh-CN"] as const) {
  const { a, c, timezoneId } = CATALOGS[locale];
  const question = (page: Page, position: number) =>
    page.getByRole("group", { name: fill(a.question.legend, { position }), exact: true });

  test.describe(`exam authoring, ${locale}`, () => {
    test.use({ locale, timezoneId });
    test.describe.configure({ timeout: 120_000 });

    test("an admin creates an exam with all five types, previews it, schedules and publishes it", async ({
      page,
      createStaff,
      signIn,
      adminApi,
      sql,
    }) => {
      const admin = await createStaff("admin");
      await signIn(page.context(), admin);
      await page.goto("/admin");
      await page.getByRole("button", { name: a.newExam.button }).click();
      await expect(page).toHaveURL(/\/admin\/exams\/[0-9a-f-]{36}\/edit$/);
      const examId = page.url().split("/").at(-2)!;
      try {
        const title = `${locale === "zh-CN" ? "网络基础" : "Networking basics"} ${uniqueTag()}`;
        await page.getByLabel(a.editor.title, { exact: true }).fill(title);
        await page.getByLabel(a.editor.duration, { exact: true }).fill("90");

        const add = async (type: keyof typeof c.questionTypes) => {
          await page
            .getByLabel(a.editor.addQuestionOfType, { exact: true })
            .selectOption({ label: c.questionTypes[type] });
          await page.getByRole("button", { name: a.editor.addQuestion }).click();
        };
        const prompt = (n: number) => question(page, n).getByLabel(a.question.prompt, { exact: true });

        await add("single_choice");
        await prompt(1).fill("Which layer routes packets?");
        await question(page, 1)
          .getByRole("textbox", { name: fill(a.question.optionLabel, { id: "a" }), exact: true })
          .fill("Network");
        await question(page, 1)
          .getByRole("textbox", { name: fill(a.question.optionLabel, { id: "b" }), exact: true })
          .fill("Link");
        await question(page, 1)
          .getByRole("radio", { name: fill(a.question.correctOption, { id: "a" }) })
          .check();

        await add("multiple_choice");
        await prompt(2).fill("Which are transport protocols?");
        await question(page, 2).getByRole("button", { name: a.question.addOption }).click();
        for (const [id, label] of [
          ["a", "TCP"],
          ["b", "IP"],
          ["c", "UDP"],
        ] as const) {
          await question(page, 2)
            .getByRole("textbox", { name: fill(a.question.optionLabel, { id }), exact: true })
            .fill(label);
        }
        await question(page, 2)
          .getByRole("checkbox", { name: fill(a.question.correctOption, { id: "a" }) })
          .check();
        await question(page, 2)
          .getByRole("checkbox", { name: fill(a.question.correctOption, { id: "c" }) })
          .check();
        await question(page, 2).getByLabel(a.question.scoring, { exact: true }).selectOption("all_or_nothing");

        await add("short_text");
        await prompt(3).fill("Name the loopback address.");
        await question(page, 3).getByLabel(a.question.accepted, { exact: true }).fill("127.0.0.1\nlocalhost");

        await add("numeric");
        await prompt(4).fill("How many bits in an IPv4 address?");
        await question(page, 4).getByLabel(a.question.numericKey, { exact: true }).fill("32");
        await question(page, 4).getByLabel(a.question.tolerance, { exact: true }).fill("0");

        await add("essay");
        await prompt(5).fill("Explain congestion control.");

        // Keyboard reorder: Alt+Arrow Up on the focused essay moves it above the numeric question.
        await prompt(5).focus();
        await page.keyboard.press("Alt+ArrowUp");
        await expect(prompt(4)).toHaveValue("Explain congestion control.");
        await expect(prompt(4)).toBeFocused();
        await expect(page.getByText(fill(a.editor.moved, { from: 5, to: 4 }))).toBeAttached();
        await page.keyboard.press("Alt+ArrowDown");
        await expect(prompt(5)).toHaveValue("Explain congestion control.");

        await page.getByLabel(a.editor.alwaysOpen, { exact: true }).uncheck();
        await page.getByLabel(a.editor.opensAt, { exact: true }).fill(dayAt(1, 9));
        await page.getByLabel(a.editor.closesAt, { exact: true }).fill(dayAt(1, 12));

        await page.getByRole("button", { name: a.editor.save }).click();
        await expect(page.getByText(fill(a.editor.saved, { revision: 2 }))).toBeVisible();

        // The preview is the paper with the exam page's controls, and writes nothing.
        await page.getByRole("button", { name: a.editor.preview }).click();
        await expect(page.getByText(a.preview.banner)).toBeVisible();
        await page.getByRole("radio", { name: "Network" }).check();
        await expect(page.getByRole("radio", { name: "Network" })).toBeChecked();
        await page.getByRole("textbox").first().fill("127.0.0.1");
        await page.getByRole("button", { name: a.editor.closePreview }).click();
        const attempts = await sql.query("SELECT count(*)::int AS n FROM attempts WHERE exam_id = $1", [examId]);
        expect(attempts.rows[0].n).toBe(0);

        await page.getByRole("button", { name: a.lifecycle.actions.published }).click();
        await expect(page.getByText(fill(a.lifecycle.changed, { status: c.examStatus.published }))).toBeAttached();

        const stored = await (await adminApi.get(`/api/admin/exams/${examId}`)).json();
        expect(stored).toMatchObject({ title, status: "published", durationSeconds: 5400, revision: 3 });
        expect(Date.parse(stored.closesAt) - Date.parse(stored.opensAt)).toBe(3 * 3600 * 1000);
        expect(stored.questions.map((q: { type: string; answerKey: unknown }) => [q.type, q.answerKey])).toEqual([
          ["single_choice", "a"],
          ["multiple_choice", ["a", "c"]],
          ["short_text", ["127.0.0.1", "localhost"]],
          ["numeric", 32],
          ["essay", null],
        ]);
        expect(stored.questions[1].scoring).toBe("all_or_nothing");
      } finally {
        await adminApi.delete(`/api/admin/exams/${examId}`);
      }
    });

    test("publishing a draft with problems lists them, in the reader's language", async ({
      page,
      createExam,
      createStaff,
      signIn,
    }) => {
      const exam = await createExam({
        status: "draft",
        questions: [
          {
            type: "single_choice",
            prompt: "No key yet",
            options: [
              { id: "a", label: "A" },
              { id: "b", label: "B" },
            ],
          },
        ],
      });
      const admin = await createStaff("admin");
      await signIn(page.context(), admin);
      await page.goto(`/admin/exams/${exam.id}`);
      await page.getByRole("button", { name: a.lifecycle.actions.published }).click();
      await expect(page.getByText(fill(a.lifecycle.problems.CHOICE_WITHOUT_KEY, { position: 1 }))).toBeVisible();
      await expect(page.getByText(c.examStatus.draft, { exact: true }).first()).toBeVisible();
    });

    test("two admins edit the same exam: the second save shows both versions and keeping mine loses nothing", async ({
      browser,
      createExam,
      createStaff,
      signIn,
      adminApi,
    }) => {
      const exam = await createExam({ status: "draft" });
      const [first, second] = [await createStaff("admin"), await createStaff("admin")];
      const contextA = await browser.newContext({ locale, timezoneId });
      const contextB = await browser.newContext({ locale, timezoneId });
      try {
        await signIn(contextA, first);
        await signIn(contextB, second);
        const [pageA, pageB] = [await contextA.newPage(), await contextB.newPage()];
        await pageA.goto(`/admin/exams/${exam.id}/edit`);
        await pageB.goto(`/admin/exams/${exam.id}/edit`);

        await pageA.getByLabel(a.editor.title, { exact: true }).fill("Title from A");
        await pageA.getByRole("button", { name: a.editor.save }).click();
        await expect(pageA.getByText(fill(a.editor.saved, { revision: 2 }))).toBeVisible();

        await pageB.getByLabel(a.editor.title, { exact: true }).fill("Title from B");
        await pageB.getByLabel(a.editor.grace, { exact: true }).fill("30");
        await pageB.getByRole("button", { name: a.editor.save }).click();
        const conflict = pageB.getByRole("region", { name: a.conflict.title });
        await expect(conflict).toBeVisible();
        await expect(conflict.getByRole("region", { name: a.conflict.mine })).toContainText("Title from B");
        await expect(conflict.getByRole("region", { name: fill(a.conflict.theirs, { revision: 2 }) })).toContainText(
          "Title from A",
        );
        // Nothing of B's was written.
        expect(await (await adminApi.get(`/api/admin/exams/${exam.id}`)).json()).toMatchObject({
          title: "Title from A",
          graceSeconds: 60,
          revision: 2,
        });

        await conflict.getByRole("button", { name: a.conflict.keepMine }).click();
        await expect(pageB.getByText(fill(a.editor.saved, { revision: 3 }))).toBeVisible();
        expect(await (await adminApi.get(`/api/admin/exams/${exam.id}`)).json()).toMatchObject({
          title: "Title from B",
          graceSeconds: 30,
          revision: 3,
        });
      } finally {
        await contextA.close();
        await contextB.close();
      }
    });
  });
}
