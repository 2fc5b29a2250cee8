import { uniqueTag } from "../fixtures";
import { defineScreen } from "./registry";

/** The admin's list of exams. */
export default defineScreen({
  name: "admin-exams",
  roles: ["admin"],
  // The list shows every exam, other tests' too: a tag in the title tells this one apart.
  setup: async ({ createExam, pick }) => ({
    exam: await createExam({
      title: `${pick("Networking 101 — final exam", "网络基础 — 期末考试")} (${uniqueTag()})`,
    }),
  }),
  url: () => "/admin",
  ready: (page, { exam }) => page.getByRole("link", { name: exam.title }),
});
