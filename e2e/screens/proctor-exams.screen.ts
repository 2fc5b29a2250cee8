import { defineScreen } from "./registry";

/** A proctor's list of the exams they watch. */
export default defineScreen({
  name: "proctor-exams",
  roles: ["proctor"],
  setup: async ({ createExam, enrollCandidate, assignProctor, staff, pick }) => {
    const exam = await createExam({ title: pick("Networking 101 — final exam", "网络基础 — 期末考试") });
    await enrollCandidate(exam.id);
    await assignProctor(exam.id, staff!);
    return { exam };
  },
  url: () => "/proctor",
  ready: (page, { exam }) => page.getByRole("link", { name: exam.title }),
});
