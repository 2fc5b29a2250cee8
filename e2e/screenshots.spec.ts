import { join } from "node:path";
import { fileURLToPath } from "node:url";

import type { Page } from "@playwright/test";

import { test } from "./fixtures";
import { LANGUAGES, loadScreens, runScreen, type Language, type StateToSee } from "./screens/registry";

// Not a check of behaviour: pictures of every screen of the registry (e2e/screens/), in both languages, at
// desktop and phone width, for a person to look at (e2e/.artifacts/screenshots/, not committed). The other specs
// assert what the pages do. Adding a screen there adds it here.

const SCREENSHOTS = fileURLToPath(new URL("./.artifacts/screenshots/", import.meta.url));

const VIEWPORTS = [
  { name: "desktop", device: { viewport: { width: 1280, height: 800 } } },
  {
    name: "phone",
    device: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  },
] as const;

/**
 * One picture, tried once more when Chromium's compositor refuses it ("Unable to capture screenshot": an
 * intermittent CDP failure of full-page captures, microsoft/playwright#32144; it failed one of 259 specs in a CI
 * run on 2026-12-05 and passed the same page in the other three viewports and languages).
 */
async function capture(page: Page, how: StateToSee["capture"], path: string) {
  const take = () =>
    typeof how === "string" ? page.screenshot({ path, fullPage: how === "full" }) : how.screenshot({ path });
  try {
    await take();
  } catch (error) {
    if (!(error instanceof Error && error.message.includes("Unable to capture screenshot"))) throw error;
    await page.waitForTimeout(500);
    await take();
  }
}

const screens = await loadScreens();

for (const viewport of VIEWPORTS) {
  for (const screen of screens) {
    for (const language of screen.languages ?? (Object.keys(LANGUAGES) as Language[])) {
      for (const role of screen.roles ?? ["anonymous"]) {
        const suffix = role === "anonymous" ? "" : `, as ${role}`;
        test(`screenshots: ${screen.name}, ${language}${suffix}, ${viewport.name}`, async ({
          browser,
          server,
          sql,
          adminApi,
          createExam,
          enrollCandidate,
          createStaff,
          assignProctor,
          signIn,
        }) => {
          // Each state photographed full length (twice the pixels on a phone), on shared cores.
          test.setTimeout(screen.timeoutMs ?? 180_000);
          const tag = role === "anonymous" || (screen.roles?.length ?? 1) === 1 ? "" : `-${role}`;
          await runScreen(screen, {
            fixtures: {
              browser,
              server,
              sql,
              adminApi,
              createExam,
              enrollCandidate,
              createStaff,
              assignProctor,
              signIn,
            },
            language,
            role,
            device: viewport.device,
            onState: (page, state) =>
              capture(page, state.capture, join(SCREENSHOTS, `${viewport.name}-${language}-${state.name}${tag}.png`)),
          });
        });
      }
    }
  }
}
