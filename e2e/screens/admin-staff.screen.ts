import { expect } from "../fixtures";
import { defineScreen, fill } from "./registry";

/** The staff accounts page, its disable confirmation, and a reset password's temporary password shown once. */
export default defineScreen({
  name: "admin-staff",
  roles: ["admin"],
  setup: async ({ createStaff, createExam, assignProctor }) => {
    const proctor = await createStaff("proctor");
    await assignProctor((await createExam()).id, proctor);
    return { proctor };
  },
  url: () => "/admin/staff",
  ready: (page, { proctor }) => page.getByRole("row").filter({ hasText: proctor.email }),
  states: [
    {
      name: "disable-confirmation",
      act: (page, { proctor }, { words }) =>
        page.getByRole("button", { name: `${words.account.staff.disable}: ${proctor.name}` }).click(),
      ready: async (page, { proctor }, { words }) => {
        const title = fill(words.account.staff.confirmDisableTitle, { name: proctor.name });
        await expect(page.getByRole("dialog", { name: title }).getByRole("heading", { level: 2 })).toBeFocused();
      },
      capture: "viewport",
    },
    {
      name: "temporary-password",
      act: async (page, { proctor }, { words }) => {
        await page.keyboard.press("Escape");
        await expect(page.getByRole("dialog")).toHaveCount(0);
        await page.getByRole("button", { name: `${words.account.staff.resetPassword}: ${proctor.name}` }).click();
        await page
          .getByRole("dialog")
          .getByRole("button", { name: words.account.staff.resetPassword, exact: true })
          .click();
      },
      ready: (page, { proctor }, { words }) =>
        page.getByRole("region", { name: fill(words.account.staff.temporaryHeading, { name: proctor.name }) }),
    },
  ],
});
