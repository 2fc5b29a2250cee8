import { defineScreen } from "./registry";

/** The staff's API reference (/admin/api): its first screen, the whole page, and one operation. */
export default defineScreen({
  name: "api-reference",
  roles: ["admin", "proctor"],
  // A long page, photographed whole at twice the pixels on a phone.
  timeoutMs: 240_000,
  setup: () => Promise.resolve({}),
  url: () => "/admin/api",
  ready: (page) => page.locator("#op-createExam"),
  capture: "viewport",
  states: [
    { name: "whole", skipAxe: true },
    { name: "submit", capture: (page) => page.locator("#op-submitAttempt"), skipAxe: true },
  ],
});
