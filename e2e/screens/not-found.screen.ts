import { defineScreen } from "./registry";

/** An address with nothing there. */
export default defineScreen({
  name: "not-found",
  setup: () => Promise.resolve({}),
  url: () => "/no-such-page",
  ready: (page, _data, { words }) => page.getByRole("heading", { level: 1, name: words.candidate.notFound.title }),
});
