import { submitPaper } from "../candidate/result-helpers";
import { expect, OBJECTIVE_TYPES, sampleQuestions } from "../fixtures";
import { defineScreen } from "./registry";

/** A candidate's submitted exam, their result before release, and after release with points by question. */
export default defineScreen({
  name: "result-candidate",
  setup: async ({ createExam, enrollCandidate, joinAs, context, language, pick }) => {
    const exam = await createExam({
      title: pick("Networking 101 — final exam", "网络基础 — 期末考试"),
      questions: sampleQuestions({ types: OBJECTIVE_TYPES, language }),
    });
    await joinAs(await enrollCandidate(exam.id, { name: pick("Ada Lovelace", "王伟") }));
    const attemptId = await submitPaper(context.request, exam.id, exam.questionIds, ["b", ["a"], 7]);
    return { exam, attemptId };
  },
  url: ({ attemptId }) => `/attempts/${attemptId}`,
  ready: (page, _data, { words }) => page.getByRole("heading", { level: 2, name: words.exam.final.title }),
  states: [
    {
      name: "not-released",
      act: async (page, { attemptId }) => {
        await page.goto(`/attempts/${attemptId}/result`);
      },
      ready: (page) => page.getByTestId("result-pending"),
    },
    {
      name: "released",
      act: async (page, { exam }, { adminApi }) => {
        expect((await adminApi.post(`/api/admin/exams/${exam.id}/results/release`)).status()).toBe(200);
        await expect(async () => {
          await page.reload();
          await expect(page.getByTestId("result-questions")).toBeVisible({ timeout: 1_000 });
        }).toPass({ timeout: 20_000 });
      },
      ready: (page) => page.getByTestId("result-questions"),
    },
  ],
});
