import { expect } from "../fixtures";
import { defineScreen, fill } from "./registry";

/** The printable join slips with their QR codes, on screen and as printed. */
export default defineScreen({
  name: "join-slips",
  roles: ["admin"],
  setup: async ({ createExam, enrollCandidate, pick }) => {
    const exam = await createExam({ title: pick("Networking 101 — final exam", "网络基础 — 期末考试") });
    const names = ["王伟", "Grace Hopper", "Ada Lovelace-Byron, Countess of a Very Long Name"];
    for (const [index, name] of names.entries()) {
      // The first two with a student number, which their slips show.
      await enrollCandidate(exam.id, {
        name,
        extraSeconds: index === 0 ? 900 : 0,
        ...(index < 2 ? { externalId: `2026-${index + 1}` } : {}),
      });
    }
    return { exam, names };
  },
  url: ({ exam }) => `/admin/exams/${exam.id}/candidates/slips`,
  ready: async (page, { names }, { words }) => {
    for (const name of names) {
      await expect(page.getByRole("img", { name: fill(words.enrollment.slips.qrLabel, { name }) })).toBeVisible();
    }
    await expect(page.getByText(fill(words.enrollment.slips.externalId, { externalId: "2026-1" }))).toBeVisible();
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
