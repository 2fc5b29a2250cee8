import { readFileSync } from "node:fs";

import type enCandidateMessages from "../../messages/en/candidate.json";
import type enEnrollmentMessages from "../../messages/en/enrollment.json";
import { expect, test } from "../fixtures";

// An admin enrolls a class from a spreadsheet: a file with one bad line is shown with that line's
// number and problem and nothing is written; fixed, all 30 are enrolled. Then a link is copied for
// one candidate and another's is revoked: that old link now lands on the join-problem page.

/** The page's own words, so one story serves both languages. */
function messages<T>(locale: string, namespace: string): T {
  return JSON.parse(readFileSync(new URL(`../../messages/${locale}/${namespace}.json`, import.meta.url), "utf8")) as T;
}

const LANGUAGES = (["en-US", "zh-CN"] as const).map((locale) => {
  const catalog = locale === "zh-CN" ? "zh-CN" : "en";
  return {
    locale,
    m: messages<typeof enEnrollmentMessages>(catalog, "enrollment"),
    candidate: messages<typeof enCandidateMessages>(catalog, "candidate"),
  };
});

/** A message with `{name}`-style placeholders filled in (no plurals: those are matched by regex). */
function fill(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? `{${key}}`));
}

function roster(tag: string, badLine: number | null): string {
  const lines = Array.from({ length: 30 }, (_, i) => {
    // File line numbers: the header is line 1, candidate i is on line i + 2.
    const email = i + 2 === badLine ? "not-an-email" : `student${i + 1}-${tag}@example.org`;
    return `"Student ${String(i + 1).padStart(2, "0")}, ${tag}",${email},${i === 4 ? 15 : 0}`;
  });
  return ["name,email,extra_minutes", ...lines].join("\r\n");
}

for (const { locale, m, candidate: mc } of LANGUAGES) {
  test.describe(`Enrollment from a CSV, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 120_000 });

    test("one bad line blocks the import; fixed, 30 are enrolled; a link is copied and another revoked", async ({
      page,
      browser,
      context,
      createExam,
      createStaff,
      signIn,
      adminApi,
    }) => {
      const exam = await createExam();
      const admin = await createStaff("admin");
      await signIn(context, admin);
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
      const enrolled = async () =>
        (
          (await (await adminApi.get(`/api/admin/exams/${exam.id}/candidates`)).json()) as {
            candidates: { name: string; email: string; joinLink: { status: string; url?: string } }[];
          }
        ).candidates;

      await page.goto(`/admin/exams/${exam.id}`);
      await page.getByRole("link", { name: m.page.manageLink }).click();
      await expect(page).toHaveURL(`/admin/exams/${exam.id}/candidates`);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(exam.title);

      // 1. A file with a bad email on line 17: the preview names it; no import button; nothing written.
      await page.getByLabel(m.csv.paste).fill(roster(tag, 17));
      await page.getByRole("button", { name: m.csv.check }).click();
      const preview = page.getByRole("region", { name: m.csv.previewLabel });
      const badRow = preview.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "17", exact: true }) });
      await expect(badRow).toContainText(fill(m.csv.lineErrors.email_invalid, { value: "not-an-email" }));
      await expect(page.getByText(m.csv.hasErrors)).toBeVisible();
      await expect(preview.getByRole("row")).toHaveCount(2); // the header and the one line with an error
      await expect(page.getByRole("button", { name: /30/ })).toHaveCount(0);
      expect(await enrolled()).toHaveLength(0);

      // 2. Fixed: the preview is clean, and only the confirm writes.
      await page.getByLabel(m.csv.paste).fill(roster(tag, null));
      await page.getByRole("button", { name: m.csv.check }).click();
      await expect(page.getByText(m.csv.ready)).toBeVisible();
      expect(await enrolled()).toHaveLength(0);
      await page.getByRole("button", { name: /30/ }).click();
      await expect(page.getByRole("status").filter({ hasText: /30/ })).toBeVisible();
      const list = page.getByRole("region", { name: m.list.tableLabel });
      await expect(list.getByRole("row")).toHaveCount(31);
      const all = await enrolled();
      expect(all).toHaveLength(30);
      expect(all.find((c) => c.email === `student5-${tag}@example.org`)).toBeTruthy();

      // 3. Copy one candidate's link.
      const first = all.find((c) => c.email === `student1-${tag}@example.org`)!;
      await page.getByRole("button", { name: fill(m.list.copyFor, { name: first.name }) }).click();
      await expect(
        page.getByRole("status").filter({ hasText: fill(m.list.copied, { name: first.name }) }),
      ).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first.joinLink.url);

      // 4. Revoke another's: the list says so, and their old link now shows the join-problem page.
      const second = all.find((c) => c.email === `student2-${tag}@example.org`)!;
      await page.getByLabel(m.list.search).fill(`student2-${tag}`);
      await expect(list.getByRole("row")).toHaveCount(2);
      await page.getByRole("button", { name: fill(m.list.revokeFor, { name: second.name }) }).click();
      const confirmRevoke = page.getByRole("dialog", { name: fill(m.list.confirmRevokeTitle, { name: second.name }) });
      await expect(confirmRevoke).toBeVisible();
      await confirmRevoke.getByRole("button", { name: m.list.revoke, exact: true }).click();
      await expect(confirmRevoke).toHaveCount(0);
      await expect(
        page.getByRole("status").filter({ hasText: fill(m.list.revokedStatus, { name: second.name }) }),
      ).toBeVisible();
      await expect(list.getByRole("row").filter({ hasText: second.email })).toContainText(m.list.linkRevoked);

      const candidateContext = await browser.newContext({ locale });
      const candidatePage = await candidateContext.newPage();
      await candidatePage.goto(second.joinLink.url!);
      await expect(candidatePage).toHaveURL(/\/join-problem\?reason=/);
      await expect(candidatePage.getByRole("heading", { level: 1, name: mc.joinProblem.invalid.title })).toBeVisible();
      await candidateContext.close();
      expect((await enrolled()).find((c) => c.email === second.email)?.joinLink.status).toBe("revoked");
    });
  });
}

for (const { locale, m } of LANGUAGES) {
  test.describe(`A student number from the add form, ${locale}`, () => {
    test.use({ locale });

    test("is kept and shown, finds the candidate, and is refused beside its field when another has it", async ({
      page,
      context,
      createExam,
      createStaff,
      signIn,
      adminApi,
    }) => {
      const exam = await createExam();
      await signIn(context, await createStaff("admin"));
      const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
      await page.goto(`/admin/exams/${exam.id}/candidates`);

      const add = async (name: string, email: string, externalId: string) => {
        await page.getByLabel(m.add.name, { exact: true }).fill(name);
        await page.getByLabel(m.add.email, { exact: true }).fill(email);
        await page.getByLabel(m.add.externalId, { exact: true }).fill(externalId);
        // Enter sends the form from the field (a click would land where the button was before the field's
        // error, shown as the field loses focus, moved it down).
        await page.getByLabel(m.add.externalId, { exact: true }).press("Enter");
      };
      await add("Ada Lovelace", `ada-${tag}@example.org`, "S-0042");
      await expect(
        page.getByRole("status").filter({ hasText: fill(m.add.added, { name: "Ada Lovelace" }) }),
      ).toBeVisible();
      const list = page.getByRole("region", { name: m.list.tableLabel });
      await expect(list.getByRole("row").filter({ hasText: "Ada Lovelace" })).toContainText("S-0042");

      // Another candidate with Ada's number: said beside the field, before anything is sent.
      await add("Alan Turing", `alan-${tag}@example.org`, "S-0042");
      const field = page.getByLabel(m.add.externalId, { exact: true });
      await expect(field).toHaveAttribute("aria-invalid", "true");
      const taken = fill(m.add.errors.externalIdTaken, { name: "Ada Lovelace" });
      await expect(field).toHaveAccessibleDescription(new RegExp(taken.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
      await expect(field).toBeFocused();
      await field.fill("S-0043");
      await field.press("Enter");
      await expect(
        page.getByRole("status").filter({ hasText: fill(m.add.added, { name: "Alan Turing" }) }),
      ).toBeVisible();

      // The search finds a candidate by number; the API and results.csv carry it.
      await page.getByLabel(m.list.search).fill("s-0043");
      await expect(list.getByRole("row")).toHaveCount(2);
      await expect(list.getByRole("row").nth(1)).toContainText("Alan Turing");
      const listed = (await (await adminApi.get(`/api/admin/exams/${exam.id}/candidates`)).json()) as {
        candidates: { name: string; externalId: string | null }[];
      };
      expect(listed.candidates.map((candidate) => [candidate.name, candidate.externalId])).toEqual([
        ["Ada Lovelace", "S-0042"],
        ["Alan Turing", "S-0043"],
      ]);
      const csv = await (await adminApi.get(`/api/admin/exams/${exam.id}/results.csv`)).text();
      expect(csv.split("\r\n")[0]).toMatch(/^\uFEFF?name,email,external_id,status,/);
      expect(csv).toContain(`Ada Lovelace,ada-${tag}@example.org,S-0042,not_started`);
    });
  });
}

test.describe("Extra time from the candidates page, en-US", () => {
  test.use({ locale: "en-US" });

  test("raising a started candidate's extra time moves their deadline; lowering it is refused inline", async ({
    page,
    browser,
    context,
    createExam,
    enrollCandidate,
    createStaff,
    signIn,
    adminApi,
  }) => {
    const m = LANGUAGES[0]!.m;
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id, { name: "Extra Time Ada" });
    const candidateContext = await browser.newContext();
    await candidateContext.request.get(candidate.joinUrl);
    const started = await candidateContext.request.post(`/api/exams/${exam.id}/attempts`);
    expect([200, 201]).toContain(started.status());
    await candidateContext.close();
    const deadlineOf = async () => {
      const list = (await (await adminApi.get(`/api/admin/exams/${exam.id}/candidates`)).json()) as {
        candidates: { id: string; attempt: { deadline: string } | null }[];
      };
      return Date.parse(list.candidates.find((c) => c.id === candidate.id)!.attempt!.deadline);
    };
    const before = await deadlineOf();

    const admin = await createStaff("admin");
    await signIn(context, admin);
    // A second tab, opened before the raise: its copy of the row still says no extra time.
    const stale = await context.newPage();
    await stale.goto(`/admin/exams/${exam.id}/candidates`);
    await page.goto(`/admin/exams/${exam.id}/candidates`);
    await page.getByRole("button", { name: fill(m.list.editExtraFor, { name: candidate.name }) }).click();
    const minutes = page.getByLabel(fill(m.list.extraMinutesFor, { name: candidate.name }));
    await expect(minutes).toBeFocused();
    await expect(page.getByText(m.list.extraHintStarted)).toBeVisible();
    await minutes.fill("10");
    await page.getByRole("button", { name: m.list.save }).click();
    await expect(page.getByRole("status").filter({ hasText: "Extra Time Ada's deadline is now" })).toBeVisible();
    expect((await deadlineOf()) - before).toBe(600_000);

    await page.getByRole("button", { name: fill(m.list.editExtraFor, { name: candidate.name }) }).click();
    await minutes.fill("5");
    await page.getByRole("button", { name: m.list.save }).click();
    await expect(page.getByText(fill(m.list.extraCannotLower, { name: candidate.name }))).toBeVisible();
    await expect(minutes).toHaveAttribute("aria-invalid", "true");
    expect((await deadlineOf()) - before).toBe(600_000);

    // The stale tab tries 5: the server refuses, and the tab says why in the same words.
    await stale.getByRole("button", { name: fill(m.list.editExtraFor, { name: candidate.name }) }).click();
    await stale.getByLabel(fill(m.list.extraMinutesFor, { name: candidate.name })).fill("5");
    await stale.getByRole("button", { name: m.list.save }).click();
    await expect(stale.getByText(fill(m.list.extraCannotLower, { name: candidate.name }))).toBeVisible();
    expect((await deadlineOf()) - before).toBe(600_000);
  });
});
