import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import type Authoring from "../../messages/en/authoring.json";
import type Errors from "../../messages/en/errors.json";
import type Staff from "../../messages/en/staff.json";
import { submitPaper } from "../candidate/result-helpers";
import { expect, test } from "../fixtures";

// The exam editor's results settings (issue 15): a rubric per question, what candidates see of a released
// result, and double marking, saved from the editor and shown on the exam page; double marking is refused once
// an answer has a mark, with the reason in the admin's language and nothing saved. Labels come from the
// catalogs, so the same story runs in both languages.

function catalog<T>(locale: "en" | "zh-CN", namespace: string): T {
  return JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../messages/${locale}/${namespace}.json`, import.meta.url)), "utf8"),
  ) as T;
}

const CATALOGS = {
  "en-US": {
    a: catalog<typeof Authoring>("en", "authoring"),
    s: catalog<typeof Staff>("en", "staff"),
    e: catalog<typeof Errors>("en", "errors"),
  },
  "zh-CN": {
    a: catalog<typeof Authoring>("zh-CN", "authoring"),
    s: catalog<typeof Staff>("zh-CN", "staff"),
    e: catalog<typeof Errors>("zh-CN", "errors"),
  },
} as const;

const fill = (message: string, values: Record<string, string | number> = {}) =>
  message.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));

for (const locale of ["en-US", "zh-CN"] as const) {
  const { a, s, e } = CATALOGS[locale];

  test.describe(`exam results settings, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 120_000 });

    test("rubric, results detail and double marking save from the editor; double marking locks at the first mark", async ({
      page,
      adminApi,
      createExam,
      enrollCandidate,
      createStaff,
      signIn,
    }) => {
      const exam = await createExam();
      const admin = await createStaff("admin");
      await signIn(page.context(), admin);
      await page.goto(`/admin/exams/${exam.id}/edit`);

      // sampleQuestions: the essay is question 4.
      const essay = page.getByRole("group", { name: fill(a.question.legend, { position: 4 }), exact: true });
      const rubric = "Slow start and congestion avoidance, 2.5 points each.";
      await essay.getByLabel(a.question.rubric, { exact: true }).fill(rubric);
      const results = page.getByRole("group", { name: a.editor.resultsSettings, exact: true });
      await results.getByLabel(a.editor.resultsDetail, { exact: true }).selectOption("total");
      await results.getByRole("checkbox", { name: a.editor.secondMarking }).check();
      await page.getByRole("button", { name: a.editor.save }).click();
      await expect(page.getByText(fill(a.editor.saved, { revision: 2 }))).toBeVisible();

      const stored = (await (await adminApi.get(`/api/admin/exams/${exam.id}`)).json()) as {
        resultsDetail: string;
        secondMarking: boolean;
        questions: { type: string; rubric: string }[];
      };
      expect(stored).toMatchObject({ resultsDetail: "total", secondMarking: true });
      expect(stored.questions.map((question) => question.rubric)).toEqual(["", "", "", rubric, ""]);

      await page.goto(`/admin/exams/${exam.id}`);
      const facts = page.locator("dl.facts");
      await expect(facts).toContainText(s.exam.facts.resultsDetailValues.total);
      await expect(facts).toContainText(s.exam.facts.on);
      await expect(page.getByText(rubric)).toBeVisible();

      // A candidate submits and an answer is marked: double marking can no longer change.
      const candidate = await enrollCandidate(exam.id);
      const candidateContext = await page.context().browser()!.newContext({ locale });
      let attemptId: string;
      try {
        const candidatePage = await candidateContext.newPage();
        await candidatePage.goto(candidate.joinUrl);
        attemptId = await submitPaper(candidatePage.request, exam.id, exam.questionIds, [
          "a",
          undefined,
          undefined,
          "Slow start.",
        ]);
      } finally {
        await candidateContext.close();
      }
      await expect
        .poll(async () => {
          const marked = await adminApi.put(`/api/admin/exams/${exam.id}/grading/${exam.questionIds[3]}/${attemptId}`, {
            data: { marker: "first", points: 2, comment: "", revision: 0 },
          });
          return marked.status();
        })
        .toBe(200);

      await page.goto(`/admin/exams/${exam.id}/edit`);
      await page
        .getByRole("group", { name: a.editor.resultsSettings, exact: true })
        .getByRole("checkbox", { name: a.editor.secondMarking })
        .uncheck();
      await page.getByRole("button", { name: a.editor.save }).click();
      await expect(page.getByRole("alert").filter({ hasText: e.codes.SECOND_MARKING_LOCKED })).toBeVisible();
      const after = (await (await adminApi.get(`/api/admin/exams/${exam.id}`)).json()) as {
        secondMarking: boolean;
        revision: number;
      };
      expect(after).toMatchObject({ secondMarking: true, revision: 2 });
    });
  });
}
