import { defineScreen } from "./registry";

/** The home page after a candidate left a shared device: their session here has ended. */
export default defineScreen({
  name: "home-left",
  setup: () => Promise.resolve({}),
  url: () => "/?left=1",
  ready: (page, _data, { words }) => page.getByText(words.candidate.home.left),
});
