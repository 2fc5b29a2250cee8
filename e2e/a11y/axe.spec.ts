import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { expect, test } from "../fixtures";
import { LANGUAGES, loadScreens, runScreen, type Language } from "../screens/registry";

// Every screen of the registry (e2e/screens/), in both languages, checked with axe-core against WCAG 2.2 AA: no
// serious or critical violation in any of its states. Adding a screen there adds it here.

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

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

const screens = await loadScreens();

for (const screen of screens) {
  for (const language of screen.languages ?? (Object.keys(LANGUAGES) as Language[])) {
    for (const role of screen.roles ?? ["anonymous"]) {
      test(`axe: ${screen.name}, ${language}${role === "anonymous" ? "" : `, as ${role}`}`, async ({
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
        // axe walks the whole DOM once per state, on shared cores.
        test.setTimeout(screen.timeoutMs ?? 180_000);
        await runScreen(screen, {
          fixtures: { browser, server, sql, adminApi, createExam, enrollCandidate, createStaff, assignProctor, signIn },
          language,
          role,
          device: { viewport: { width: 1280, height: 800 } },
          onState: async (page, state) => {
            if (!state.skipAxe) await expectAccessible(page, state.name, language);
          },
        });
      });
    }
  }
}
