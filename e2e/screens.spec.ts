import { join } from "node:path";
import { fileURLToPath } from "node:url";

import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { expect, test } from "./fixtures";
import { LANGUAGES, loadScreens, runScreen, type Language, type StateToSee } from "./screens/registry";

// Every screen of the registry (e2e/screens/), in both languages, at desktop and phone width: each state is
// photographed for a person to look at (e2e/.artifacts/screenshots/, not committed), and at desktop width it is
// first checked with axe-core against WCAG 2.2 AA (no serious or critical violation). One visit of a screen
// serves both, so a screen's setup runs twice (desktop, phone), not three times. The other specs assert what the
// pages do. Adding a screen there adds it here.

const SCREENSHOTS = fileURLToPath(new URL("./.artifacts/screenshots/", import.meta.url));

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

const VIEWPORTS = [
  { name: "desktop", axe: true, device: { viewport: { width: 1280, height: 800 } } },
  {
    name: "phone",
    axe: false,
    device: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  },
] as const;

async function expectAccessible(page: Page, state: string, language: Language) {
  // A router.refresh() in flight (after a save, say) drops the streamed <title> until its metadata arrives
  // again: axe looks at the page once that has settled. A page with no title at all still fails here.
  await expect(page, `${state} [${language}] has a title`).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
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

const screens = await loadScreens();

for (const viewport of VIEWPORTS) {
  for (const screen of screens) {
    for (const language of screen.languages ?? (Object.keys(LANGUAGES) as Language[])) {
      for (const role of screen.roles ?? ["anonymous"]) {
        const suffix = role === "anonymous" ? "" : `, as ${role}`;
        const what = viewport.axe ? "axe and screenshots" : "screenshots";
        test(`${what}: ${screen.name}, ${language}${suffix}, ${viewport.name}`, async ({
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
          // axe walks the whole DOM once per state, and each state is photographed full length (twice the
          // pixels on a phone), on shared cores.
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
            onState: async (page, state) => {
              if (viewport.axe && !state.skipAxe) await expectAccessible(page, state.name, language);
              await capture(
                page,
                state.capture,
                join(SCREENSHOTS, `${viewport.name}-${language}-${state.name}${tag}.png`),
              );
            },
          });
        });
      }
    }
  }
}
