import { fileURLToPath } from "node:url";

import { expect, test } from "../fixtures";

import { candidateRow, heartbeat, startThroughApi, submitThroughApi, type ApiCandidate } from "./dashboard-page";

// Pictures of the dashboard with a class in every state, at desktop and phone width, for a person to look
// at (test-results/proctor-screenshots/, not committed). The states are seeded through the candidate API;
// "auto-submitted" has no API a test may call before the deadline, so that one row's source is set in SQL.

const SCREENSHOTS = fileURLToPath(new URL("../../test-results/proctor-screenshots/", import.meta.url));

const VIEWPORTS = [
  { name: "desktop-1440", use: { viewport: { width: 1440, height: 900 } } },
  {
    name: "phone-390",
    use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  },
] as const;

for (const viewport of VIEWPORTS) {
  test.describe(`The proctor dashboard at ${viewport.name}`, () => {
    test.use(viewport.use);

    test("a class in every state", async ({ page, server, sql, createExam, enrollCandidate, createStaff, signIn }) => {
      test.setTimeout(90_000);
      const exam = await createExam({ title: `Networking 101 — final exam (${viewport.name})` });
      const enroll = (name: string) =>
        enrollCandidate(exam.id, {
          name,
          email: `${name.split(" ")[0]!.toLowerCase()}.${Date.now() % 100_000}@example.org`,
        });
      const started: ApiCandidate[] = [];
      const start = async (name: string) => {
        const candidate = await startThroughApi(server.baseURL, exam.id, await enroll(name));
        started.push(candidate);
        return candidate;
      };

      await enroll("Ana Not-Started");
      await heartbeat(await start("Bea Online"), { online: true });
      await heartbeat(await start("Cem Offline"), { online: false, pending: 3, oldestPendingMs: 20_000 });
      await heartbeat(await start("Dana At-Risk"), { online: true, pending: 4, oldestPendingMs: 150_000 });
      await heartbeat(await start("Eve Failing"), {
        online: true,
        pending: 2,
        oldestPendingMs: 30_000,
        consecutiveFailures: 4,
      });
      await submitThroughApi(await start("Finn Submitted"));
      const auto = await start("Gus Auto-Submitted");
      await submitThroughApi(auto);
      await sql.query("UPDATE submissions SET source = 'auto' WHERE attempt_id = $1", [auto.attemptId]);
      await submitThroughApi(await start("Hal Digest-Mismatch"), { digestDiffers: true });

      const admin = await createStaff("admin");
      await signIn(page.context(), admin);
      // The snapshot alone draws the table; the pictures do not wait for the events stream.
      await page.goto(`/proctor/exams/${exam.id}`);
      await expect(page.getByText("8 candidates", { exact: true })).toBeVisible();
      await expect(candidateRow(page, "Dana At-Risk")).toContainText("At risk");
      await expect(candidateRow(page, "Hal Digest-Mismatch")).toContainText("digest differs");
      await expect(candidateRow(page, "Gus Auto-Submitted")).toContainText("Auto-submitted");
      await page.screenshot({ path: `${SCREENSHOTS}${viewport.name}-dashboard.png`, fullPage: true });

      // The exam's health, opened: the numbers in words and the last hour's chart.
      await page
        .getByText(/^Exam health/)
        .first()
        .click();
      await expect(page.getByRole("img", { name: /Last hour, per minute/ })).toBeVisible();
      await page.screenshot({ path: `${SCREENSHOTS}${viewport.name}-health.png`, fullPage: false });
      await page
        .getByText(/^Exam health/)
        .first()
        .click();

      await candidateRow(page, "Cem Offline").click();
      await expect(page.getByRole("dialog", { name: "Cem Offline" })).toBeVisible();
      await page.screenshot({ path: `${SCREENSHOTS}${viewport.name}-drawer.png`, fullPage: false });

      await page.getByRole("dialog", { name: "Cem Offline" }).getByRole("button", { name: "Extend time" }).click();
      await page.getByRole("dialog", { name: "Extend time for Cem Offline" }).getByLabel("Reason").fill("ab");
      await page
        .getByRole("dialog", { name: "Extend time for Cem Offline" })
        .getByRole("button", { name: "Extend", exact: true })
        .click();
      await expect(
        page.getByRole("dialog", { name: "Extend time for Cem Offline" }).getByRole("alert"),
      ).not.toBeEmpty();
      await page.screenshot({ path: `${SCREENSHOTS}${viewport.name}-extend-error.png`, fullPage: false });

      for (const candidate of started) await candidate.request.dispose();
    });
  });
}
