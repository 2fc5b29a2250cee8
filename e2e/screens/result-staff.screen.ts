import { markedQuestions, paperWithVersions } from "../candidate/result-helpers";
import { expect } from "../fixtures";
import { defineScreen } from "./registry";

/** A paper's result for staff with its three versions, an older one expanded; and the editor's results section. */
export default defineScreen({
  name: "result-staff",
  roles: ["admin"],
  timeoutMs: 240_000,
  setup: async ({ createExam, enrollCandidate, newContext, joinAs, adminApi, language, pick }) => {
    const exam = await createExam({
      title: pick("Networking 101 — essay", "网络基础 — 论述"),
      questions: markedQuestions(language),
    });
    const candidateContext = await newContext();
    await joinAs(await enrollCandidate(exam.id, { name: pick("Grace Hopper", "李娜") }), candidateContext);
    const attemptId = await paperWithVersions(
      adminApi,
      candidateContext.request,
      exam,
      pick("Clear; say how the window changes.", "思路清楚，可补充拥塞窗口的变化。"),
    );
    return { exam, attemptId };
  },
  url: ({ attemptId }) => `/admin/attempts/${attemptId}/result`,
  ready: async (page) => {
    await expect(page.getByTestId("result-version")).toHaveCount(3);
  },
  states: [
    {
      name: "older-version",
      act: (page) => page.getByTestId("result-version").last().locator("summary").click(),
      ready: (page) => page.getByTestId("result-version").last().getByRole("table"),
    },
    {
      name: "editor",
      act: async (page, { exam }) => {
        await page.goto(`/admin/exams/${exam.id}/edit`);
      },
      ready: (page, _data, { words }) => page.getByLabel(words.authoring.editor.resultsDetail),
    },
  ],
});
