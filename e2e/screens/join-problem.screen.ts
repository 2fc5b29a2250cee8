import { defineScreen } from "./registry";

/** A join link that does not work. */
export default defineScreen({
  name: "join-problem",
  setup: () => Promise.resolve({}),
  url: () => "/join/not-a-valid-token",
  ready: (page, _data, { words }) =>
    page.getByRole("heading", { level: 1, name: words.candidate.joinProblem.invalid.title }),
});
