import { defineScreen } from "./registry";

/** A staff member's own account page. */
export default defineScreen({
  name: "account",
  roles: ["admin"],
  setup: () => Promise.resolve({}),
  url: () => "/account",
  ready: (page, _data, { words }) => page.getByRole("heading", { level: 1, name: words.account.account.title }),
});
