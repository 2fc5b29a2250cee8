import { readFileSync } from "node:fs";

import type enAuditMessages from "../../messages/en/audit.json";
import type enCommonMessages from "../../messages/en/common.json";
import { expect, test } from "../fixtures";

// An admin revokes a candidate's join link, lowers another's extra time and assigns a proctor. From the
// exam's page they open its audit log, read each action as a sentence naming them, narrow it to one kind
// (the filter lands in the URL and survives a reload), and download that view as CSV.

function messages<T>(locale: string, namespace: string): T {
  return JSON.parse(readFileSync(new URL(`../../messages/${locale}/${namespace}.json`, import.meta.url), "utf8")) as T;
}

/** A message with `{name}`-style placeholders filled in (no plurals). */
function fill(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? `{${key}}`));
}

for (const locale of ["en-US", "zh-CN"] as const) {
  const catalog = locale === "zh-CN" ? "zh-CN" : "en";
  const m = messages<typeof enAuditMessages>(catalog, "audit");
  const common = messages<typeof enCommonMessages>(catalog, "common");

  test.describe(`Audit log, ${locale}`, () => {
    test.use({ locale, timezoneId: locale === "zh-CN" ? "Asia/Shanghai" : "Europe/London" });
    test.describe.configure({ timeout: 120_000 });

    test("an admin's actions are listed with their name, filtered by kind, and downloaded as CSV", async ({
      page,
      context,
      createExam,
      enrollCandidate,
      createStaff,
      signIn,
    }) => {
      const exam = await createExam();
      const lee = await enrollCandidate(exam.id);
      const kim = await enrollCandidate(exam.id, { extraSeconds: 900 });
      const admin = await createStaff("admin");
      const proctor = await createStaff("proctor");
      await signIn(context, admin);

      const revoked = await page.request.post(`/api/admin/exams/${exam.id}/candidates/${lee.id}/join-link`, {
        data: { action: "revoke" },
      });
      expect(revoked.status(), await revoked.text()).toBe(200);
      const lowered = await page.request.patch(`/api/admin/exams/${exam.id}/candidates/${kim.id}`, {
        data: { extraSeconds: 300 },
      });
      expect(lowered.status(), await lowered.text()).toBe(200);
      const assigned = await page.request.put(`/api/admin/exams/${exam.id}/proctors/${proctor.id}`);
      expect(assigned.status(), await assigned.text()).toBeLessThan(300);

      await page.goto(`/admin/exams/${exam.id}`);
      await page.getByRole("link", { name: m.examLink }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/audit\\?examId=${exam.id}$`));
      await expect(page.getByRole("heading", { level: 1, name: m.title })).toBeVisible();
      // The time zone is named once, above the times.
      await expect(page.getByText(common.timeZone.split("{zone}")[0]!.trim())).toHaveCount(1);

      const log = page.getByRole("region", { name: m.tableLabel });
      const revokedSentence = fill(m.sentences.enrollment.join_link_revoked, {
        actor: admin.name,
        candidate: lee.name,
      });
      const assignedSentence = fill(m.sentences.proctor.assigned, {
        actor: admin.name,
        staff: proctor.name,
        exam: exam.title,
      });
      await expect(log.getByRole("rowheader", { name: revokedSentence })).toBeVisible();
      await expect(log.getByRole("rowheader", { name: assignedSentence })).toBeVisible();
      await expect(log.getByRole("rowheader")).toHaveCount(6); // created, 2 enrolled, revoked, lowered, assigned

      await page.getByLabel(m.filters.kind).selectOption({ label: m.kinds.enrollment.join_link_revoked });
      await page.getByRole("button", { name: m.filters.apply }).click();
      await expect(page).toHaveURL(/action=enrollment\.join_link_revoked/);
      await expect(log.getByRole("rowheader")).toHaveCount(1);
      await expect(log.getByRole("rowheader", { name: revokedSentence })).toBeVisible();
      await page.reload();
      await expect(page.getByLabel(m.filters.kind)).toHaveValue("enrollment.join_link_revoked");
      await expect(log.getByRole("rowheader")).toHaveCount(1);

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: m.download }).click(),
      ]);
      expect(download.suggestedFilename()).toBe("audit-log.csv");
      const bytes = readFileSync(await download.path());
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = bytes.toString("utf8").slice(1).trim().split("\r\n");
      expect(lines[0]).toMatch(/^at,action,actor_type,/);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain("enrollment.join_link_revoked");
      expect(lines[1]).toContain(admin.email);
      expect(lines[1]).toContain(lee.email);
    });

    test("a long log shows its newest entries first and the rest on “Load more”", async ({
      page,
      context,
      createExam,
      createStaff,
      signIn,
      sql,
    }) => {
      const exam = await createExam();
      const admin = await createStaff("admin");
      await signIn(context, admin);
      // 60 automatic submissions, a minute apart: more than one page.
      await sql.query(
        `INSERT INTO audit_events (id, at, actor_type, action, exam_id, data)
         SELECT gen_random_uuid(), now() - make_interval(mins => n), 'system', 'attempt.submitted', $1::uuid, '{}'
         FROM generate_series(1, 60) AS n`,
        [exam.id],
      );
      await page.goto(`/admin/audit?examId=${exam.id}&action=attempt.submitted`);
      const log = page.getByRole("region", { name: m.tableLabel });
      await expect(log.getByRole("rowheader")).toHaveCount(50);
      await page.getByRole("button", { name: m.loadMore }).click();
      await expect(log.getByRole("rowheader")).toHaveCount(60);
      await expect(page.getByRole("button", { name: m.loadMore })).toHaveCount(0);
      await expect(page.getByText(m.end)).toBeVisible();

      // Deleting the exam keeps its log, still filtered by it and still named.
      const deleted = await page.request.delete(`/api/admin/exams/${exam.id}`);
      expect(deleted.status(), await deleted.text()).toBe(204);
      await page.reload();
      await expect(log.getByRole("rowheader")).toHaveCount(50);
      await expect(page.getByLabel(m.filters.exam).locator("option:checked")).toHaveText(exam.title);
    });
  });
}
