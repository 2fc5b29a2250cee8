import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import type Authoring from "../../messages/en/authoring.json";
import { expect, test } from "../fixtures";
import { withHotspotItem } from "../qti-packages";

// An admin moves questions between exams as QTI 3.0: the editor's "Export QTI" downloads a zip; "Import QTI"
// takes a package through the file picker, previews every item (one of them a hotspot Holdfast cannot
// import), and adds the others at the end of the exam. Labels come from the catalogs, so the story runs in
// English and in Chinese.

function catalog(locale: "en" | "zh-CN"): typeof Authoring {
  return JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../messages/${locale}/authoring.json`, import.meta.url)), "utf8"),
  ) as typeof Authoring;
}

const fill = (message: string, values: Record<string, string | number>) =>
  message.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));

for (const locale of ["en-US", "zh-CN"] as const) {
  const a = catalog(locale === "zh-CN" ? "zh-CN" : "en");

  test.describe(`QTI import and export, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 120_000 });

    test("an admin exports a zip, then imports a package through the file picker after its preview", async ({
      page,
      createStaff,
      signIn,
      createExam,
      adminApi,
    }) => {
      const source = await createExam({ title: locale === "zh-CN" ? "网络基础 题库" : "Networking bank" });
      const target = await createExam({ status: "draft", questions: [] });
      const admin = await createStaff("admin");
      await signIn(page.context(), admin);

      await page.goto(`/admin/exams/${source.id}/edit`);
      const downloading = page.waitForEvent("download");
      await page.getByRole("link", { name: a.qti.export }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/-qti\.zip$/);
      const exported = readFileSync((await download.path())!);
      expect(exported.subarray(0, 2).toString("latin1")).toBe("PK");

      await page.goto(`/admin/exams/${target.id}/edit`);
      await page.getByLabel(a.qti.importLabel, { exact: true }).setInputFiles({
        name: "bank.zip",
        mimeType: "application/zip",
        buffer: withHotspotItem(exported),
      });
      const preview = page.getByTestId("qti-preview");
      await expect(preview.getByRole("listitem")).toHaveCount(6);
      await expect(preview.getByRole("listitem").filter({ hasText: a.qti.itemUnsupported })).toContainText(
        "qti-hotspot-interaction",
      );
      await expect(preview.getByRole("listitem").first()).toContainText(String(source.questions[0]?.prompt));
      const dryRun = (await (await adminApi.get(`/api/admin/exams/${target.id}`)).json()) as { questions: unknown[] };
      expect(dryRun.questions, "the preview writes nothing").toHaveLength(0);

      await page.getByRole("button", { name: fill(a.qti.importSome, { ok: 5, unsupported: 1 }) }).click();
      await expect(page.getByRole("status").filter({ hasText: "5" })).toBeVisible();
      await expect(preview).toBeHidden();
      await expect(page.getByLabel(a.question.prompt, { exact: true })).toHaveCount(5);
      await expect(page.getByLabel(a.question.prompt, { exact: true }).first()).toHaveValue(
        String(source.questions[0]?.prompt),
      );

      const after = (await (await adminApi.get(`/api/admin/exams/${target.id}`)).json()) as {
        questions: { type: string; prompt: string }[];
      };
      expect(after.questions.map((q) => [q.type, q.prompt])).toEqual(source.questions.map((q) => [q.type, q.prompt]));
    });
  });
}
