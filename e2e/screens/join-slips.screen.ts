import { expect } from "../fixtures";
import { defineScreen } from "./registry";

/** The printable join slips with their QR codes, on screen and as printed. */
export default defineScreen({
  name: "join-slips",
  roles: ["admin"],
  setup: async ({ createExam, enrollCandidate, pick }) => {
    const exam = await createExam({ title: pick("Networking 101 — final exam", "网络基础 — 期末考试") });
    await enrollCandidate(exam.id, { name: "王伟", extraSeconds: 900 });
    await enrollCandidate(exam.id, { name: "Grace Hopper" });
    await enrollCandidate(exam.id, { name: "Ada Lovelace-Byron, Countess of a Very Long Name" });
    return { exam };
  },
  url: ({ exam }) => `/admin/exams/${exam.id}/candidates/slips`,
  ready: async (page) => {
    await expect(page.getByRole("listitem").getByRole("img")).toHaveCount(3);
  },
  states: [
    {
      name: "print",
      act: (page) => page.emulateMedia({ media: "print" }),
      // axe checks the screen; the print sheet is a picture for a person.
      skipAxe: true,
    },
  ],
});
