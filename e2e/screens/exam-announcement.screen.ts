import { expect } from "../fixtures";
import { startAttempt } from "./candidate-steps";
import { defineScreen } from "./registry";

/** The exam page showing an announcement from the exam's staff. */
export default defineScreen({
  name: "exam-announcement",
  setup: async ({ createExam, enrollCandidate, joinAs, context, adminApi, pick }) => {
    const exam = await createExam();
    await joinAs(await enrollCandidate(exam.id, { name: pick("Ada Lovelace", "王伟") }));
    const sent = await adminApi.post(`/api/proctor/exams/${exam.id}/announcements`, {
      data: {
        message: pick(
          "Question 3: read “metres” as “meters”. Nothing else changes.",
          "第 3 题：“米”按公制理解，其他不变。",
        ),
      },
    });
    expect(sent.status(), await sent.text()).toBe(201);
    return { attemptId: await startAttempt(context, exam.id) };
  },
  url: ({ attemptId }) => `/attempts/${attemptId}`,
  ready: (page, _data, { words }) => page.getByText(words.exam.announcements.fromStaff).first(),
});
