import { expect } from "../fixtures";
import { startAttempt } from "./candidate-steps";
import { defineScreen } from "./registry";

type StoredQuestion = Record<string, unknown> & { id: string; type: string; prompt: string; points: number };

/** The type-specific fields of a stored question, as a PATCH takes them back unchanged. */
function keyFields(question: StoredQuestion): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (question.type === "single_choice" || question.type === "multiple_choice") {
    fields.options = question.options;
    fields.ungraded = question.ungraded;
  }
  if (question.type === "multiple_choice") fields.scoring = question.scoring;
  if (question.type === "short_text") fields.exactMatch = question.exactMatch;
  if (question.type === "numeric" && question.tolerance !== null) fields.tolerance = question.tolerance;
  if (question.answerKey !== null) fields.answerKey = question.answerKey;
  return fields;
}

/**
 * The editor once a candidate has started: the structure locked, a correction listed; and the exam's page with
 * its status.
 */
export default defineScreen({
  name: "exam-editor-locked",
  roles: ["admin"],
  setup: async ({ createExam, enrollCandidate, newContext, joinAs, adminApi, pick }) => {
    const exam = await createExam({ title: pick("Networking 101 — final exam", "网络基础 — 期末考试") });
    const candidateContext = await newContext();
    await joinAs(await enrollCandidate(exam.id), candidateContext);
    await startAttempt(candidateContext, exam.id);
    const current = (await (await adminApi.get(`/api/admin/exams/${exam.id}`)).json()) as {
      revision: number;
      questions: StoredQuestion[];
    };
    const corrected = await adminApi.patch(`/api/admin/exams/${exam.id}`, {
      data: {
        revision: current.revision,
        questions: current.questions.map((question, index) => ({
          id: question.id,
          type: question.type,
          prompt: index === 0 ? `${question.prompt} (${pick("corrected", "已更正")})` : question.prompt,
          points: question.points,
          ...keyFields(question),
        })),
      },
    });
    expect(corrected.status(), await corrected.text()).toBe(200);
    return { exam };
  },
  url: ({ exam }) => `/admin/exams/${exam.id}/edit`,
  ready: (page, _data, { words }) => page.getByRole("heading", { name: words.authoring.editor.edits }),
  states: [
    {
      name: "exam-page",
      act: async (page, { exam }) => {
        await page.goto(`/admin/exams/${exam.id}`);
      },
      ready: (page, { exam }) => page.getByRole("heading", { level: 1, name: exam.title }),
    },
  ],
});
