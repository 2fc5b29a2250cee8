import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";

import { defineConfig, devices } from "@playwright/test";

// The suite runs against a production build (`next build` + `next start`) on its own, freshly created
// database: scripts/e2e-server.mjs makes the database, builds, serves, and drops the database when
// Playwright stops it. Tests find the server, its database and its API token through
// e2e/.artifacts/e2e-server.json (see e2e/fixtures.ts), which every worker process can read.

// E2E_PORT lets two suites (say, a CI check beside a developer's run) share one machine.
const PORT = Number(process.env.E2E_PORT || "3100");
const baseURL = `http://127.0.0.1:${PORT}`;

/**
 * Debian's Chromium: Playwright cannot download its own browsers on these machines. Its headless shell
 * (`chromium-headless-shell`, the browser Playwright itself runs headless tests in) when installed, as .ci/run
 * does: the full browser's headless mode also draws a browser window's own interface in a renderer of its own,
 * for every context, which the suite pays for on two shared cores. Otherwise the full browser, as everywhere else.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const executablePath = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium";

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // As many workers as the box has cores, and at least two (the tests spend much of their time waiting on the
  // app server, which shares the cores). Every test makes its own rows (e2e/fixtures.ts), so any number of
  // workers may run side by side; E2E_WORKERS sets another number (1 to debug one failure in peace).
  workers: Number(process.env.E2E_WORKERS) || Math.max(2, availableParallelism()),
  // A whole story's budget. Stories with two or three browser contexts and several reloads take 15–30 s on a
  // quiet box and past 30 s when both workers and the app share the two cores (seen in CI: 30.2 s). Every
  // single wait still has its own 10 s limit below, so a hang is still caught where it happens.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    ...devices["Desktop Chrome"],
    baseURL,
    launchOptions: { executablePath, args: chromiumArgs },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [{ name: "chromium" }],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `${baseURL}/api/health`,
    reuseExistingServer: !process.env.CI,
    // Migrations plus a production build on two cores.
    timeout: 10 * 60_000,
    // SIGTERM lets the script stop the app and drop its database; without this Playwright sends SIGKILL.
    gracefulShutdown: { signal: "SIGTERM", timeout: 30_000 },
    stdout: "ignore",
    stderr: "pipe",
    env: { E2E_PORT: String(PORT) },
  },
});
