import { defineScreen } from "./registry";

/** The staff sign-in page, and its error after a wrong password. */
export default defineScreen({
  name: "signin",
  setup: async ({ createStaff }) => ({ admin: await createStaff("admin") }),
  url: () => "/signin",
  ready: (page, _data, { words }) => page.getByRole("heading", { level: 1, name: words.staff.signIn.title }),
  states: [
    {
      name: "error",
      act: async (page, { admin }, { words }) => {
        await page.getByLabel(words.staff.signIn.email).fill(admin.email);
        await page.getByLabel(words.staff.signIn.password).fill("wrong password");
        await page.getByRole("button", { name: words.staff.signIn.submit }).click();
      },
      ready: (page, _data, { words }) => page.getByRole("alert").filter({ hasText: words.staff.signIn.incorrect }),
    },
  ],
});
