// A MEASUREMENT, NOT A MODE: loaded into the app's workers with `--context-hooks off` (bench/lib/servers/worker-setup.ts)
// to show what Node 20's AsyncLocalStorage costs the candidates' requests. On Node 20 a store that was ever
// used (`run`, `enterWith`) turns on one promise hook for the whole process, and from then on every promise
// made anywhere calls each such store: Next.js uses several for every request it routes itself (the health
// check, a page), and they stay on. Here a store never turns the hook on. Next's own requests then lose their
// stores across an `await` — pages answer 500 ("Expected workStore to be initialized") — while the candidate
// routes of the fast path (ADR 023), which use no store, work as before. Never loaded outside the harness.
"use strict";
// Loaded with `node --require`, before any module system of the app: CommonJS is what that takes.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AsyncLocalStorage } = require("node:async_hooks");

AsyncLocalStorage.prototype._enable = function enableWithoutTheHook() {
  this.enabled = true;
};
