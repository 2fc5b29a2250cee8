import { defineScreen } from "./registry";

/** A candidate opens their join link: the start page, with their extra time, before they press Start. */
export default defineScreen({
  name: "candidate-start",
  setup: async ({ createExam, enrollCandidate, pick }) => {
    const hour = 3600 * 1000;
    const exam = await createExam({
      title: pick("Networking 101 — final exam", "网络基础 — 期末考试"),
      opensAt: new Date(Date.now() - hour).toISOString(),
      closesAt: new Date(Date.now() + 6 * hour).toISOString(),
    });
    return { candidate: await enrollCandidate(exam.id, { name: pick("Ada Lovelace", "王伟"), extraSeconds: 900 }) };
  },
  url: ({ candidate }) => candidate.joinUrl,
  ready: (page, _data, { words }) => page.getByRole("button", { name: words.candidate.start.start }),
});
