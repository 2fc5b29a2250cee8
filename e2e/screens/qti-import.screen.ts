import { expect } from "../fixtures";
import { withHotspotItem } from "../qti-packages";
import { defineScreen } from "./registry";

/** The editor's QTI import: the preview of a package with one unsupported item, then a refused file. */
export default defineScreen({
  name: "qti-import",
  roles: ["admin"],
  setup: async ({ createExam, adminApi }) => {
    const source = await createExam();
    const target = await createExam({ status: "draft", questions: [] });
    const exported = await adminApi.get(`/api/admin/exams/${source.id}/qti`);
    expect(exported.status()).toBe(200);
    return { target, zip: withHotspotItem(await exported.body()) };
  },
  url: ({ target }) => `/admin/exams/${target.id}/edit`,
  ready: async (page, { zip }, { words }) => {
    await page.getByLabel(words.authoring.qti.importLabel).setInputFiles({
      name: "bank.zip",
      mimeType: "application/zip",
      buffer: zip,
    });
    await expect(page.getByTestId("qti-preview").getByRole("listitem")).toHaveCount(6);
  },
  states: [
    { name: "list", capture: (page) => page.getByTestId("qti-preview"), skipAxe: true },
    {
      name: "refused",
      act: (page, _data, { words }) =>
        page.getByLabel(words.authoring.qti.importLabel).setInputFiles({
          name: "broken.zip",
          mimeType: "application/zip",
          buffer: Buffer.from("not a zip"),
        }),
      ready: async (page, _data, { words }) => {
        await expect(page.getByLabel(words.authoring.qti.importLabel)).toHaveAttribute("aria-invalid", "true");
      },
    },
  ],
});
