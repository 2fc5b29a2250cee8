import { join } from "node:path";
import { fileURLToPath } from "node:url";

import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { expectNoMessageKeys } from "./screens/message-keys";
import { LANGUAGES, loadScreens, runScreen, type Language, type StateToSee } from "./screens/registry";

// Every screen of the registry (e2e/screens/), in both languages: each state is checked with axe-core against
// WCAG 2.2 AA at 1280 px (no serious or critical violation) and for message keys shown instead of their sentences
// (seen or read aloud: e2e/screens/message-keys.ts), then photographed at 1280 px and, with the window
// narrowed to 390 px, again, for a person to look at (e2e/.artifacts/screenshots/, not committed). One visit of a
// screen serves the check and both pictures, so a screen's setup runs once per language and role. The other specs
// assert what the pages do. Adding a screen there adds it here.

const SCREENSHOTS = fileURLToPath(new URL("./.artifacts/screenshots/", import.meta.url));

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function expectAccessible(page: Page, state: string, language: Language) {
  // A router.refresh() in flight (after a save, say) drops the streamed <title> until its metadata arrives
  // again: axe looks at the page once that has settled. A page with no title at all still fails here.
  await expect(page, `${state} [${language}] has a title`).toHaveTitle(/\S/);
  // Legacy mode: axe runs once, in the page (`axe.run`). The default runs it in parts and then sends the parts to a
  // second, blank page to finish: a second injection of axe and the parts' transfer, nearly half of each check in
  // the traces of 2026-12-07. It cannot look into another site's frame, and no page here has one.
  const results = await new AxeBuilder({ page }).withTags(TAGS).setLegacyMode().analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const summary = serious.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join(", ")}`,
  );
  expect(summary, `${state} [${language}]`).toEqual([]);
}

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

/** Two frames: the layout of a resized window has been computed and painted (media queries, observers). */
async function settle(page: Page) {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/**
 * The same state at a phone's width: the window narrowed to 390 px (the pages' media queries and resize
 * observers see a phone), the picture taken, and the window widened again for the next state's steps. The
 * context stays a desktop one (no touch, device pixel ratio 1): the picture is for the layout, and the specs that
 * assert what a touch screen does open phone contexts of their own.
 */
async function captureAsPhone(page: Page, how: StateToSee["capture"], path: string) {
  await page.setViewportSize(PHONE);
  try {
    await settle(page);
    await capture(page, how, path);
  } finally {
    await page.setViewportSize(DESKTOP);
    await settle(page);
  }
}

const screens = await loadScreens();

for (const screen of screens) {
  for (const language of screen.languages ?? (Object.keys(LANGUAGES) as Language[])) {
    for (const role of screen.roles ?? ["anonymous"]) {
      const suffix = role === "anonymous" ? "" : `, as ${role}`;
      test(`axe and screenshots: ${screen.name}, ${language}${suffix}`, async ({
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
        // axe walks the whole DOM once per state, and each state is photographed full length twice, on shared
        // cores.
        test.setTimeout(screen.timeoutMs ?? 180_000);
        const tag = role === "anonymous" || (screen.roles?.length ?? 1) === 1 ? "" : `-${role}`;
        const picture = (width: string, state: string) => join(SCREENSHOTS, `${width}-${language}-${state}${tag}.png`);
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
          device: { viewport: DESKTOP },
          onState: async (page, state) => {
            if (!state.skipAxe) await expectAccessible(page, state.name, language);
            await expectNoMessageKeys(page, state.name, language);
            await capture(page, state.capture, picture("desktop", state.name));
            await captureAsPhone(page, state.capture, picture("phone", state.name));
          },
        });
      });
    }
  }
}
