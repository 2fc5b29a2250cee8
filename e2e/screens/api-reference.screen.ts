import { defineScreen } from "./registry";

/** The staff's API reference (/admin/api): its first screen and one operation. */
export default defineScreen({
  name: "api-reference",
  // What a proctor may call is the same reference an admin reads.
  roles: ["proctor"],
  // The longest page: axe walks some thousands of nodes, and the phone's picture is twice the pixels. On a busy
  // box (load 30 on two cores) one axe pass took 200 s.
  timeoutMs: 420_000,
  setup: () => Promise.resolve({}),
  url: () => "/admin/api",
  ready: (page) => page.locator("#op-createExam"),
  capture: "viewport",
  // No picture of the whole page: some 40 screens long, it took a minute per language to photograph at both
  // widths, and nobody reads the reference in one picture. Its first screen and one operation show the layout.
  states: [{ name: "submit", capture: (page) => page.locator("#op-submitAttempt"), skipAxe: true }],
});
