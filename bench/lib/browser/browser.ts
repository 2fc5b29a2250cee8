// Debian's Chromium driven by Playwright, as the e2e suite runs it (playwright.config.ts): Playwright cannot
// download its own browsers on these machines. The browser is closed by the run's cleanup (after a normal
// end, an error, --max-minutes or Ctrl-C); Playwright's own signal handlers are off so that there is one
// cleanup path, and a browser whose parent was SIGKILLed exits when its pipe closes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from "@playwright/test";

import { onCleanup } from "../run/cleanup";
import { errorMessage, say } from "../run/log";

export const CHROMIUM_PATH = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const LAUNCH_TIMEOUT_MS = 60_000;
const CLOSE_TIMEOUT_MS = 10_000;

/** How both launches start Debian's Chromium: headless, with the run's cleanup as the one signal path. */
const LAUNCH_OPTIONS = {
  executablePath: CHROMIUM_PATH,
  args: CHROMIUM_ARGS,
  headless: true,
  timeout: LAUNCH_TIMEOUT_MS,
  handleSIGINT: false,
  handleSIGTERM: false,
  handleSIGHUP: false,
} as const;

/** Registers closing the browser with the run's cleanup, given up after CLOSE_TIMEOUT_MS. */
function closeAtCleanup(label: string, close: () => Promise<void>): () => Promise<void> {
  return onCleanup(label, async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([close(), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)))]);
    } catch (error) {
      say(`closing Chromium: ${errorMessage(error)}`);
    } finally {
      clearTimeout(timer);
    }
  });
}

export async function launchChromium(): Promise<{ browser: Browser; version: string; close: () => Promise<void> }> {
  const browser = await chromium.launch(LAUNCH_OPTIONS);
  const version = browser.version();
  const close = closeAtCleanup(`close Chromium ${version}`, () => browser.close());
  say(`Chromium ${version} started (${CHROMIUM_PATH}, headless)`);
  return { browser, version, close };
}

/**
 * Chromium with a profile on disk (a user-data directory under the OS temp dir, removed at cleanup), as a
 * candidate's own browser has: its IndexedDB lives in files, so a `strict` commit waits for the flush. A
 * context of `launchChromium()` is not persistent, and Chromium then keeps IndexedDB in memory.
 */
export async function launchPersistentChromium(
  contextOptions: BrowserContextOptions,
): Promise<{ context: BrowserContext; version: string; userDataDir: string; close: () => Promise<void> }> {
  const userDataDir = mkdtempSync(join(tmpdir(), "holdfast-bench-profile-"));
  onCleanup(`remove ${userDataDir}`, () => rmSync(userDataDir, { recursive: true, force: true }));
  const context = await chromium.launchPersistentContext(userDataDir, { ...contextOptions, ...LAUNCH_OPTIONS });
  const version = context.browser()?.version() ?? "(persistent context)";
  const close = closeAtCleanup(`close Chromium (profile ${userDataDir})`, () => context.close());
  say(`Chromium started with a persistent profile in ${userDataDir} (${CHROMIUM_PATH}, headless)`);
  return { context, version, userDataDir, close };
}
