import { expect } from "../fixtures";
import { defineScreen } from "./registry";

/** A staff member signed in with a temporary password is sent to choose their own first. */
export default defineScreen({
  name: "account-must-change",
  setup: async ({ adminApi, context }) => {
    const created = await adminApi.post("/api/admin/staff", {
      data: {
        email: `must-change-${Date.now()}-${Math.random().toString(16).slice(2)}@example.org`,
        name: "Grace Hopper",
        role: "proctor",
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { account, temporaryPassword } = (await created.json()) as {
      account: { id: string; email: string };
      temporaryPassword: string;
    };
    const session = await context.request.post("/api/staff/session", {
      data: { email: account.email, password: temporaryPassword },
    });
    expect(session.status(), await session.text()).toBe(200);
    return { account };
  },
  url: () => "/proctor",
  ready: async (page, _data, { words }) => {
    await expect(page).toHaveURL(/\/account\?next=/);
    await expect(page.getByText(words.account.account.mustChange)).toBeVisible();
  },
});
