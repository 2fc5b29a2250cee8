import { defineScreen } from "./registry";

/** A join link that does not work, and one whose exam has closed. */
export default defineScreen({
  name: "join-problem",
  setup: () => Promise.resolve({}),
  url: () => "/join/not-a-valid-token",
  ready: (page, _data, { words }) =>
    page.getByRole("heading", { level: 1, name: words.candidate.joinProblem.invalid.title }),
  states: [
    {
      name: "closed",
      act: async (page) => {
        await page.goto("/join-problem?reason=closed");
      },
      ready: (page, _data, { words }) =>
        page.getByRole("heading", { level: 1, name: words.candidate.joinProblem.closed.title }),
    },
  ],
});
