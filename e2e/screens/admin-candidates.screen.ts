import { expect } from "../fixtures";
import { defineScreen, fill } from "./registry";

/**
 * An exam's candidates page: the list, a CSV preview with errors, the add form's inline error, the extra-time
 * editor open, and the revoke confirmation.
 */
export default defineScreen({
  name: "admin-candidates",
  roles: ["admin"],
  setup: async ({ createExam, enrollCandidate, pick }) => {
    const exam = await createExam({ title: pick("Networking 101 — final exam", "网络基础 — 期末考试") });
    const first = await enrollCandidate(exam.id, { name: "王伟", extraSeconds: 900, externalId: "2026100042" });
    await enrollCandidate(exam.id, { name: "Grace Hopper", externalId: "S-0007" });
    await enrollCandidate(exam.id, { name: "Ada Lovelace-Byron, Countess of a Very Long Name" });
    return { exam, first };
  },
  url: ({ exam }) => `/admin/exams/${exam.id}/candidates`,
  ready: (page) => page.getByRole("row").filter({ hasText: "Grace Hopper" }),
  states: [
    {
      name: "csv-preview-errors",
      act: async (page, _data, { words }) => {
        const text = page.getByLabel(words.enrollment.csv.paste);
        await text.fill(
          [
            "name;email;extra_minutes",
            "Alan Turing;alan@example.org;0",
            "Bad Line;not-an-email;-5",
            "Grace Hopper;alan@example.org;10",
          ].join("\n"),
        );
        await text.blur();
        await page.getByRole("button", { name: words.enrollment.csv.check }).click();
      },
      ready: (page, _data, { words }) => page.getByRole("heading", { name: words.enrollment.csv.previewTitle }),
    },
    {
      name: "add-form-error",
      act: async (page, _data, { words }) => {
        const form = page.getByRole("form", { name: words.enrollment.add.title });
        await form.getByLabel(words.enrollment.add.name).focus();
        await form.getByLabel(words.enrollment.add.email).fill("not an email");
        await form.getByLabel(words.enrollment.add.email).blur();
      },
      ready: async (page, _data, { words }) => {
        const form = page.getByRole("form", { name: words.enrollment.add.title });
        await expect(form.getByLabel(words.enrollment.add.email)).toHaveAttribute("aria-invalid", "true");
      },
    },
    {
      name: "extra-time-editor",
      act: (page, { first }, { words }) =>
        page.getByRole("button", { name: fill(words.enrollment.list.editExtraFor, { name: first.name }) }).click(),
      ready: async (page, { first }, { words }) => {
        await expect(page.getByLabel(fill(words.enrollment.list.extraMinutesFor, { name: first.name }))).toBeFocused();
      },
    },
    {
      name: "revoke-confirmation",
      act: async (page, { exam, first }, { words }) => {
        await page.goto(`/admin/exams/${exam.id}/candidates`);
        await page.getByRole("button", { name: fill(words.enrollment.list.revokeFor, { name: first.name }) }).click();
      },
      ready: async (page, { first }, { words }) => {
        const dialog = page.getByRole("dialog", {
          name: fill(words.enrollment.list.confirmRevokeTitle, { name: first.name }),
        });
        await expect(dialog.getByRole("heading", { level: 2 })).toBeFocused();
      },
      capture: "viewport",
    },
  ],
});
